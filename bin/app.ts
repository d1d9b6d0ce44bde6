import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ApiStack } from '../lib/api-stack.js';
import { DataStack } from '../lib/data-stack.js';

/**
 * Two stacks: data (tables, signing-key secrets; retained) and the API (functions, routes;
 * stateless, safe to destroy and redeploy). Environment-agnostic, so `cdk synth` needs no account.
 */
const app = new App();
const data = new DataStack(app, 'OrderProtectionData');
new ApiStack(app, 'OrderProtectionApi', { tables: data.tables, signingKeys: data.signingKeys, bordereaux: data.bordereaux });
// cdk-nag's AwsSolutions rules on everything; a finding fails `cdk synth` (suppressions sit next to what they excuse).
Aspects.of(app).add(new AwsSolutionsChecks());
app.synth();
