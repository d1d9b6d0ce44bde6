import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';

/** The Region a web ACL of scope CLOUDFRONT must be made in. */
export const EDGE_REGION = 'us-east-1';

/** Where the edge stack leaves its web ACL's ARN (an SSM parameter in EDGE_REGION) for the API stack's distribution to read. */
export const WEB_ACL_ARN_PARAMETER = '/order-protection/edge/web-acl-arn';

/**
 * Requests one IP address may make in 5 minutes (WAF's window) before the web ACL blocks it for a
 * while: the pages and their API calls, well above what a person clicking through the console
 * makes. `-c webRateLimit=N` changes it; merchants' back-ends call the API Gateway URL and are not counted.
 */
export const DEFAULT_WEB_RATE_LIMIT = 2000;

/** AWS managed rule groups of the web ACL, in order: the common rules (OWASP top 10), known bad inputs, Amazon's IP reputation list. */
export const MANAGED_RULE_GROUPS = ['AWSManagedRulesCommonRuleSet', 'AWSManagedRulesKnownBadInputsRuleSet', 'AWSManagedRulesAmazonIpReputationList'] as const;

/**
 * The web ACL of the CloudFront distribution. A CLOUDFRONT web ACL exists only in us-east-1, so it
 * has this stack of its own, pinned there; the other stacks stay environment-agnostic (`cdk synth`
 * needs no account or Region). CDK's `crossRegionReferences` would need every stack's Region to be
 * known at synth; instead the ACL's ARN is written to an SSM parameter here and read by the API
 * stack at deploy time (lib/web.ts), and bin/app.ts orders the stacks so this one deploys first.
 */
export class EdgeStack extends Stack {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, { ...props, env: { ...props?.env, region: EDGE_REGION } });
    const rateLimit = Number(this.node.tryGetContext('webRateLimit') ?? DEFAULT_WEB_RATE_LIMIT);
    const visibility = (metricName: string) => ({ cloudWatchMetricsEnabled: true, metricName, sampledRequestsEnabled: true });
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('order-protection-web'),
      rules: [
        ...MANAGED_RULE_GROUPS.map((name, priority) => ({
          name,
          priority,
          statement: { managedRuleGroupStatement: { vendorName: 'AWS', name } },
          overrideAction: { none: {} },
          visibilityConfig: visibility(name),
        })),
        {
          name: 'RatePerIp',
          priority: MANAGED_RULE_GROUPS.length,
          statement: { rateBasedStatement: { limit: rateLimit, aggregateKeyType: 'IP' } },
          action: { block: {} },
          visibilityConfig: visibility('RatePerIp'),
        },
      ],
    });
    new StringParameter(this, 'WebAclArn', {
      parameterName: WEB_ACL_ARN_PARAMETER,
      stringValue: this.webAcl.attrArn,
      description: 'The ARN of the Order Protection web ACL (scope CLOUDFRONT); the API stack reads it for its distribution.',
    });
    new CfnOutput(this, 'WebAclArnOutput', { value: this.webAcl.attrArn });
  }
}
