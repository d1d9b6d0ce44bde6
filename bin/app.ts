import { App } from 'aws-cdk-lib';
import { ApiStack } from '../lib/api-stack.js';
import { DataStack } from '../lib/data-stack.js';

/**
 * Two stacks: data (tables, signing-key secrets; retained) and the API (functions, routes;
 * stateless, safe to destroy and redeploy). Environment-agnostic, so `cdk synth` needs no account.
 */
const app = new App();
const data = new DataStack(app, 'OrderProtectionData');
new ApiStack(app, 'OrderProtectionApi', { tables: data.tables, signingKeys: data.signingKeys });
app.synth();
