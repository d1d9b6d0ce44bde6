import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ApiStack } from '../lib/api-stack.js';
import { DataStack } from '../lib/data-stack.js';
import { EdgeStack } from '../lib/edge-stack.js';
import { IdentityStack } from '../lib/identity-stack.js';
import { siteFrom } from '../lib/web.js';
import { buildSite, buildWidget } from '../widget/build.js';

/**
 * Four stacks. Retained: data (tables, signing-key secrets, the bordereaux) and identity (the
 * staff user pool and its trigger: it holds people). Stateless: the API (functions, routes, the
 * app clients, the pages' bucket and distribution, alarms). Edge: the web ACL, pinned to us-east-1
 * as CloudFront requires. Data, identity and API are environment-agnostic, so `cdk synth` needs no
 * account; the API stack deploys after the edge stack (it reads the web ACL's ARN).
 */
/** The deployed pages, written afresh into `directory` at every synth (as `npm run build:site` does). */
async function builtSite(directory: string): Promise<string> {
  await buildSite(directory);
  return directory;
}

const app = new App();
const data = new DataStack(app, 'OrderProtectionData');
const identity = new IdentityStack(app, 'OrderProtectionIdentity');
const edge = new EdgeStack(app, 'OrderProtectionEdge');
const api = new ApiStack(app, 'OrderProtectionApi', {
  tables: data.tables,
  signingKeys: data.signingKeys,
  bordereaux: data.bordereaux,
  evidence: data.evidence,
  identity: {
    userPool: identity.userPool,
    issuer: identity.userPool.userPoolProviderUrl,
    signInUrl: identity.domain.baseUrl(),
    tokenClaims: identity.tokenClaims.fn,
  },
  // The widget and the pages are built here from this checkout (esbuild and Redocly, offline, a few
  // seconds), so a deploy never ships pages older than its API, nor none at all.
  site: siteFrom(await buildWidget(), await builtSite('widget/dist/site')),
});
api.addStackDependency(edge, "the distribution reads the web ACL's ARN that the edge stack writes");
// cdk-nag's AwsSolutions rules on everything; a finding fails `cdk synth` (suppressions sit next to what they excuse).
Aspects.of(app).add(new AwsSolutionsChecks());
app.synth();
