import { App, Stack } from 'aws-cdk-lib';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { scratchFolder } from '../test/support/scratch.js';
import { LOCALE_FILE_HEADERS } from '../widget/locale-files.js';
import { LOCALE_PATH_PATTERN, Web } from './web.js';

/** The app's assembly in a folder of the file's own (an App left alone leaves a `cdk.out…` in /tmp). */
const outdir = scratchFolder('web-locales-test');

/**
 * The locale files at the edge (widget/locale-files.ts; the site ships them: widget/build.test.ts):
 * /locales/* cached for good and readable from a merchant's page on any origin, as npm start serves
 * them. A Web construct in a stack of its own (lib/stacks.test.ts tests the whole app).
 */
describe('the locale files behind CloudFront', () => {
  it('routes /locales/* at the edge as npm start serves them: cached for good, readable from any origin', () => {
    const stack = new Stack(new App({ outdir }), 'Locales', { env: { account: '111122223333', region: 'us-east-1' } });
    new Web(stack, 'Web', { api: new HttpApi(stack, 'Api'), widgetCode: 'widget', connectSources: [] });
    const template = Template.fromStack(stack);
    const [distribution] = Object.values(template.findResources('AWS::CloudFront::Distribution')) as { Properties: { DistributionConfig: any } }[];
    const behaviour = distribution!.Properties.DistributionConfig.CacheBehaviors.find((b: { PathPattern: string }) => b.PathPattern === LOCALE_PATH_PATTERN);
    expect(behaviour).toMatchObject({ ViewerProtocolPolicy: 'redirect-to-https' });
    const policy = (template.findResources('AWS::CloudFront::ResponseHeadersPolicy')[behaviour.ResponseHeadersPolicyId.Ref] as { Properties: any }).Properties
      .ResponseHeadersPolicyConfig;
    expect(policy.CustomHeadersConfig.Items).toEqual([{ Header: 'cache-control', Value: LOCALE_FILE_HEADERS['cache-control'], Override: true }]);
    expect(policy.CorsConfig).toMatchObject({ AccessControlAllowOrigins: { Items: ['*'] }, AccessControlAllowMethods: { Items: ['GET', 'HEAD'] } });
    expect(LOCALE_FILE_HEADERS['access-control-allow-origin']).toBe('*');
    const cache = (template.findResources('AWS::CloudFront::CachePolicy')[behaviour.CachePolicyId.Ref] as { Properties: any }).Properties.CachePolicyConfig;
    expect(cache.DefaultTTL).toBe(365 * 24 * 3600);
  });
});
