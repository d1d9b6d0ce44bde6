import { randomBytes } from 'node:crypto';
import { startLocalStack } from '../scripts/local/local-stack.js';
import { generateKeySet } from '#shared/platform/keys/signing-keys.js';
import { freePort } from './npm-start.js';

/**
 * What `npm run bench` and `npm run bench:profile` run on: quiet Powertools, fresh signing keys, the
 * baselines' JWT secret, and a DynamoDB Local of their own with tables named `<prefix>-main` and
 * `<prefix>-metrics`, all set in the environment the handlers read when first imported.
 */
export async function startBenchEnvironment(prefix: string) {
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  process.env.SIGNING_KEYS = JSON.stringify({
    access: generateKeySet('access'),
    quote: generateKeySet('quote'),
    claim: generateKeySet('claim'),
    'order-number': generateKeySet('order-number'),
  });
  // The baselines read it as the service's handlers read theirs: from the environment.
  process.env.BASELINE_JWT_SECRET = randomBytes(32).toString('base64url');
  const tables = { main: `${prefix}-main`, metrics: `${prefix}-metrics` };
  process.env.TABLE_NAME = tables.main;
  process.env.METRICS_TABLE_NAME = tables.metrics;
  const dynamo = await startLocalStack({ port: await freePort(), tables });
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  return dynamo;
}
