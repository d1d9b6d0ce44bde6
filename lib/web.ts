import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  HeadersFrameOption,
  type HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
  type BehaviorOptions,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source, type ISource } from 'aws-cdk-lib/aws-s3-deployment';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiReferenceSecurityHeaders, pageSecurityHeaders } from '../scripts/local/page-headers.js';
import { LOCALE_FILE_HEADERS } from '../widget/locale-files.js';
import { EDGE_REGION, WEB_ACL_ARN_PARAMETER } from './edge-stack.js';
// What the pages read at start from /config.json, written here at deploy time: the type the pages' sign-in reads it by.
import type { PagesConfig } from '../widget/pages/scripts/sign-in.js';

/** Where each page lives under the distribution (the paths npm start serves them at). */
export const PAGE_PATHS = { claim: '/claim', console: '/admin/', portal: '/portal/', docs: '/docs', widget: '/widget.js', config: '/config.json' } as const;

/** The API behind the same distribution, so the pages call it same-origin. */
export const API_PATH_PATTERN = '/api/*';

/** The stable widget name is cached this long (a new release reaches merchants' pages within it); the versioned file for a year. */
export const WIDGET_STABLE_MAX_AGE = Duration.minutes(5);
export const WIDGET_VERSIONED_MAX_AGE = Duration.days(365);

/** The widget's and the claim page's catalogues (widget/locale-files.ts): named by their content's hash, cached for good. */
export const LOCALE_PATH_PATTERN = '/locales/*';
export const LOCALE_MAX_AGE = Duration.seconds(Number(/max-age=(\d+)/.exec(LOCALE_FILE_HEADERS['cache-control'])![1]));

/** The versioned widget file: `widget.<first 16 hex of its SHA-256>.js`, a new name for every new content. */
export const widgetVersionedName = (code: string): string => `widget.${createHash('sha256').update(code, 'utf8').digest('hex').slice(0, 16)}.js`;

/**
 * The viewer-request function of the bucket's behaviours: a page's path is a folder with an
 * index.html (`/admin/` → `/admin/index.html`, `/claim` → `/claim/index.html`); a path whose last
 * segment has an extension (`/assets/claim.js`, `/config.json`) is a file and passes as it is.
 * CloudFront Functions run cloudfront-js-2.0, ES 5.1 plus a few later features.
 */
export const PAGE_INDEX_FUNCTION = `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  if (uri.charAt(uri.length - 1) === '/') request.uri = uri + 'index.html';
  else if (uri.lastIndexOf('.') < uri.lastIndexOf('/')) request.uri = uri + '/index.html';
  return request;
}`;

export interface WebProps {
  api: HttpApi;
  /** The widget bundle (widget/build.ts), served as /widget.js and as its versioned name. */
  widgetCode: string;
  /** What `npm run build:site` wrote (a folder per page with an index.html), if it exists at synth. */
  siteDirectory?: string;
  /** The API reference's HTML (/docs/index.html of the site), if any: its inline scripts are let in by hash. */
  apiReferenceHtml?: string;
  /** Origins the pages may fetch from besides their own: the sign-in's token endpoint. */
  connectSources: string[];
}

/** The headers of a policy as npm start names them (lower case), for the stack test to compare. */
export interface SecurityHeaders {
  'content-security-policy': string;
  'x-content-type-options': string;
  'referrer-policy': string;
  'x-frame-options': string;
}

/** The four security headers of a page, as scripts/local/page-headers.ts makes them for npm start. */
function securityHeadersOf(headers: Record<string, string>): SecurityHeaders {
  const named = (name: keyof SecurityHeaders) => {
    const value = headers[name];
    if (value === undefined) throw new Error(`npm start's page headers have no ${name}`);
    return value;
  };
  return {
    'content-security-policy': named('content-security-policy'),
    'x-content-type-options': named('x-content-type-options'),
    'referrer-policy': named('referrer-policy'),
    'x-frame-options': named('x-frame-options'),
  };
}

const FRAME_OPTIONS: Record<string, HeadersFrameOption> = { DENY: HeadersFrameOption.DENY, SAMEORIGIN: HeadersFrameOption.SAMEORIGIN };

/**
 * The pages and the widget from a private bucket behind CloudFront (Origin Access Control), the API
 * under /api/* of the same distribution, the web ACL of the edge stack, and /config.json.
 */
export class Web extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  /** The distribution's origin, `https://<id>.cloudfront.net`. */
  readonly origin: string;
  private readonly sources: ISource[] = [];

  constructor(scope: Construct, id: string, props: WebProps) {
    super(scope, id);
    const stack = Stack.of(this);

    // Logs of the site bucket (S3 server access logs) and of the distribution (standard logs, which
    // CloudFront writes with an ACL: object writer ownership). Kept 90 days.
    const logs = new Bucket(this, 'Logs', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.OBJECT_WRITER,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.RETAIN,
      lifecycleRules: [{ id: 'expire-after-90-days', expiration: Duration.days(90) }],
    });
    NagSuppressions.addResourceSuppressions(logs, [
      { id: 'AwsSolutions-S1', reason: 'This is the access-log bucket of the site bucket and the distribution; logging it into itself would loop.' },
    ]);

    this.bucket = new Bucket(this, 'Site', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      serverAccessLogsBucket: logs,
      serverAccessLogsPrefix: 'site/',
      // Holds only what a deploy writes: kept when the stack goes, so that nothing a page still names disappears under it.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const pageHeaders = (name: string, headers: SecurityHeaders, comment: string) =>
      new ResponseHeadersPolicy(this, name, {
        comment,
        securityHeadersBehavior: {
          contentSecurityPolicy: { contentSecurityPolicy: headers['content-security-policy'], override: true },
          contentTypeOptions: { override: true },
          frameOptions: { frameOption: FRAME_OPTIONS[headers['x-frame-options']]!, override: true },
          referrerPolicy: { referrerPolicy: headers['referrer-policy'] as HeadersReferrerPolicy, override: true },
          // Deployed the pages are HTTPS only (npm start's plain HTTP sends no HSTS).
          strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
        },
        // A deploy invalidates the distribution; browsers ask again each time (an unchanged page is a 304).
        customHeadersBehavior: { customHeaders: [{ header: 'cache-control', value: 'no-cache', override: false }] },
      });
    // npm start's own function, the hosted sign-in's origin as the pages' one other connect-src (npm start names its provider's).
    const pages = pageHeaders(
      'PageHeaders',
      securityHeadersOf(pageSecurityHeaders({ connectSources: props.connectSources })),
      "The pages' security headers: npm start's.",
    );
    const reference = props.apiReferenceHtml
      ? pageHeaders('ApiReferenceHeaders', securityHeadersOf(apiReferenceSecurityHeaders(props.apiReferenceHtml)), "The API reference's headers: npm start's.")
      : pages;
    const cacheFor = (name: string, maxAge: Duration, immutable: boolean) =>
      new ResponseHeadersPolicy(this, name, {
        comment: `The widget, cached ${maxAge.toHumanString()}.`,
        securityHeadersBehavior: { contentTypeOptions: { override: true } },
        customHeadersBehavior: {
          customHeaders: [{ header: 'cache-control', value: `public, max-age=${maxAge.toSeconds()}${immutable ? ', immutable' : ''}`, override: true }],
        },
      });
    const widgetCache = (name: string, maxAge: Duration) =>
      new CachePolicy(this, name, {
        defaultTtl: maxAge,
        minTtl: Duration.seconds(0),
        maxTtl: maxAge,
        enableAcceptEncodingBrotli: true,
        enableAcceptEncodingGzip: true,
      });

    const site = S3BucketOrigin.withOriginAccessControl(this.bucket);
    const pageIndex = new CloudFrontFunction(this, 'PageIndex', {
      code: FunctionCode.fromInline(PAGE_INDEX_FUNCTION),
      comment: 'A page path is a folder with an index.html.',
    });
    const fromBucket = (responseHeadersPolicy: ResponseHeadersPolicy): BehaviorOptions => ({
      origin: site,
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      cachePolicy: CachePolicy.CACHING_OPTIMIZED,
      responseHeadersPolicy,
      functionAssociations: [{ function: pageIndex, eventType: FunctionEventType.VIEWER_REQUEST }],
    });

    // The API: nothing cached; every viewer header but Host (API Gateway answers for its own host
    // name only), the query string and cookies passed on. Authorization reaches API Gateway: an
    // origin request policy may not name it, but with caching disabled CloudFront forwards it
    // under the AllViewer policies.
    const api = new HttpOrigin(`${props.api.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`, {
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
    });

    const webAclArn = new AwsCustomResource(this, 'WebAclArn', {
      onUpdate: {
        service: 'SSM',
        action: 'GetParameter',
        parameters: { Name: WEB_ACL_ARN_PARAMETER },
        region: EDGE_REGION,
        physicalResourceId: PhysicalResourceId.of(WEB_ACL_ARN_PARAMETER),
      },
      policy: AwsCustomResourcePolicy.fromSdkCalls({
        resources: [stack.formatArn({ service: 'ssm', region: EDGE_REGION, resource: 'parameter', resourceName: WEB_ACL_ARN_PARAMETER.slice(1) })],
      }),
      installLatestAwsSdk: false,
    });

    // A domain of one's own (`-c siteDomain=pages.example.com -c siteCertificateArn=<ACM, us-east-1>`)
    // gets TLS 1.2 or later; on its cloudfront.net name CloudFront's default certificate fixes the policy.
    const domain = this.node.tryGetContext('siteDomain') as string | undefined;
    const certificateArn = this.node.tryGetContext('siteCertificateArn') as string | undefined;
    if (Boolean(domain) !== Boolean(certificateArn)) throw new Error('siteDomain and siteCertificateArn go together');
    const ownDomain =
      domain && certificateArn
        ? {
            domainNames: [domain],
            certificate: Certificate.fromCertificateArn(this, 'Certificate', certificateArn),
            minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {};
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Order Protection: the widget, the pages and the API',
      defaultBehavior: fromBucket(pages),
      additionalBehaviors: {
        [API_PATH_PATTERN]: {
          origin: api,
          viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        },
        [PAGE_PATHS.widget]: {
          origin: site,
          viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          cachePolicy: widgetCache('WidgetStable', WIDGET_STABLE_MAX_AGE),
          responseHeadersPolicy: cacheFor('WidgetStableHeaders', WIDGET_STABLE_MAX_AGE, false),
        },
        '/widget.*.js': {
          origin: site,
          viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          cachePolicy: widgetCache('WidgetVersioned', WIDGET_VERSIONED_MAX_AGE),
          responseHeadersPolicy: cacheFor('WidgetVersionedHeaders', WIDGET_VERSIONED_MAX_AGE, true),
        },
        // A merchant's page fetches the widget's catalogue from another origin: CORS, GET only, any origin (it is public text).
        [LOCALE_PATH_PATTERN]: {
          origin: site,
          viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          cachePolicy: widgetCache('LocaleFiles', LOCALE_MAX_AGE),
          responseHeadersPolicy: new ResponseHeadersPolicy(this, 'LocaleFileHeaders', {
            comment: `The locale files, cached ${LOCALE_MAX_AGE.toHumanString()}, immutable, readable from any origin.`,
            securityHeadersBehavior: { contentTypeOptions: { override: true } },
            corsBehavior: {
              accessControlAllowCredentials: false,
              accessControlAllowHeaders: ['*'],
              accessControlAllowMethods: ['GET', 'HEAD'],
              accessControlAllowOrigins: ['*'],
              originOverride: true,
            },
            customHeadersBehavior: {
              customHeaders: [{ header: 'cache-control', value: LOCALE_FILE_HEADERS['cache-control'], override: true }], // npm start's
            },
          }),
        },
        [`${PAGE_PATHS.docs}*`]: fromBucket(reference),
      },
      httpVersion: HttpVersion.HTTP2_AND_3,
      ...ownDomain,
      priceClass: PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: logs,
      logFilePrefix: 'cloudfront/',
      webAclId: webAclArn.getResponseField('Parameter.Value'),
    });
    this.origin = `https://${domain ?? this.distribution.distributionDomainName}`;

    NagSuppressions.addResourceSuppressions(this.distribution, [
      {
        id: 'AwsSolutions-CFR1',
        reason: "Customers claim and merchants sign in from anywhere the merchants sell; the web ACL's rules and rate limit apply everywhere instead.",
      },
      {
        id: 'AwsSolutions-CFR4',
        reason:
          "Without -c siteDomain/siteCertificateArn the distribution answers on its cloudfront.net name with CloudFront's default certificate, whose TLS policy CloudFront fixes; with them it requires TLSv1.2_2021 (docs/deployment.md).",
      },
    ]);

    this.sources.push(
      Source.data(PAGE_PATHS.widget.slice(1), props.widgetCode),
      Source.data(widgetVersionedName(props.widgetCode), props.widgetCode),
      ...(props.siteDirectory ? [Source.asset(props.siteDirectory)] : []),
    );
  }

  /**
   * Writes the site, the widget and /config.json to the bucket and invalidates the distribution.
   * Never prunes: a page a browser has open and a merchant's pinned `widget.<hash>.js` keep working
   * after a deploy.
   */
  publish(config: PagesConfig): BucketDeployment {
    const deployment = new BucketDeployment(this, 'Deploy', {
      sources: [...this.sources, Source.jsonData(PAGE_PATHS.config.slice(1), config)],
      destinationBucket: this.bucket,
      prune: false,
      distribution: this.distribution,
      distributionPaths: ['/*'],
      memoryLimit: 512,
    });
    // The two functions CDK provides for this (the deployment's copier, the web ACL's lookup) are
    // singletons of the stack, made by CDK with its own roles.
    const stack = Stack.of(this);
    const provided = (prefix: string) => stack.node.children.filter((child) => child.node.id.startsWith(prefix));
    for (const copier of provided('Custom::CDKBucketDeployment')) {
      NagSuppressions.addResourceSuppressions(
        copier,
        [
          { id: 'AwsSolutions-IAM4', reason: "CDK's BucketDeployment function writes its own logs through AWSLambdaBasicExecutionRole, as CDK makes it." },
          {
            id: 'AwsSolutions-IAM5',
            reason:
              "CDK's grants to the copier: read the CDK asset bucket's objects, write and delete objects of the site bucket (any key: it copies the site), and invalidate this distribution (CloudFront's CreateInvalidation takes no resource narrower than '*').",
            appliesTo: [
              'Action::s3:GetObject*',
              'Action::s3:GetBucket*',
              'Action::s3:List*',
              'Action::s3:DeleteObject*',
              'Action::s3:Abort*',
              { regex: '/^Resource::arn:<AWS::Partition>:s3:::cdk-[a-z0-9]+-assets-<AWS::AccountId>-<AWS::Region>\\/\\*$/g' },
              { regex: '/^Resource::<.*Site.*\\.Arn>\\/\\*$/g' },
              'Resource::*',
            ],
          },
          { id: 'AwsSolutions-L1', reason: "The copier's runtime is the one CDK pins for its bundled AWS CLI layer; it runs only during a deploy." },
        ],
        true,
      );
    }
    for (const lookup of provided('AWS679f53fac002430cb0da5b7982bd2287')) {
      NagSuppressions.addResourceSuppressions(
        lookup,
        [
          {
            id: 'AwsSolutions-IAM4',
            reason: "CDK's AwsCustomResource function (the web ACL lookup) writes its own logs through AWSLambdaBasicExecutionRole, as CDK makes it.",
          },
        ],
        true,
      );
    }
    return deployment;
  }
}

/**
 * What the distribution serves from its bucket: the widget, and the pages in `directory` (a folder
 * per page path with its index.html; /docs/index.html is the API reference), which bin/app.ts
 * builds there at every synth. A test that gives no folder deploys the widget and /config.json only.
 */
export function siteFrom(widgetCode: string, directory: string): Pick<WebProps, 'widgetCode' | 'siteDirectory' | 'apiReferenceHtml'> {
  if (!existsSync(directory)) return { widgetCode };
  const reference = join(directory, 'docs', 'index.html');
  return { widgetCode, siteDirectory: directory, ...(existsSync(reference) ? { apiReferenceHtml: readFileSync(reference, 'utf8') } : {}) };
}
