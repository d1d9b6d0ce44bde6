import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiEvent } from '../scripts/local/api-events.js';
import { localDynamoCredentials } from '#shared/platform/dynamo/dynamo-client.js';
import { freshTables } from '../test/support/dynamo.js';
import { esbuildOptionsFor } from './service-function.js';

/**
 * A bundle built exactly as deployed (BUNDLING, with the credentials alias) runs in a fresh
 * process set up like a Lambda: no DYNAMODB_ENDPOINT, the role's credentials in the environment,
 * the endpoint from the SDK's own AWS_ENDPOINT_URL_DYNAMODB (pointed at DynamoDB Local here).
 */
let tables: Awaited<ReturnType<typeof freshTables>>;
let work: string;
let code: string;
beforeAll(async () => {
  tables = await freshTables();
  work = mkdtempSync(join(tmpdir(), 'op-bundle-'));
  const result = await build({ ...esbuildOptionsFor('functions/orders-read/handler.ts'), write: false, outfile: join(work, 'index.mjs') });
  code = result.outputFiles[0]!.text;
  writeFileSync(join(work, 'index.mjs'), code);
});
afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  await tables.cleanup();
});

function invoke(env: Record<string, string>): { statusCode: number; body: string } {
  const event = apiEvent({ method: 'GET', path: '/api/v2/orders/0b6f1b4c-9d7e-4f5a-8c3b-2a1d0e9f8c7b', clientId: 'cl_bundle_test' });
  const script = `const m=await import(${JSON.stringify(join(work, 'index.mjs'))});const r=await m.handler(${JSON.stringify(event)},{awsRequestId:'t',getRemainingTimeInMillis:()=>9e3});process.stdout.write(JSON.stringify(r));`;
  const { PATH, HOME } = process.env;
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      env: {
        PATH: PATH ?? '',
        HOME: HOME ?? '',
        AWS_REGION: 'us-east-1',
        TABLE_NAME: tables.main,
        METRICS_TABLE_NAME: tables.metrics,
        POWERTOOLS_LOG_LEVEL: 'SILENT',
        POWERTOOLS_METRICS_DISABLED: 'true',
        AWS_ENDPOINT_URL_DYNAMODB: tables.endpoint,
        ...env,
      },
      encoding: 'utf8',
    }),
  );
}

describe('deployed bundle', () => {
  it("leaves the SDK's file, SSO and metadata credential providers out", () => {
    // (Checked as booleans: a failing toContain would print the whole bundle.)
    expect(code.includes('defaultProvider::fromSSO')).toBe(false);
    expect(code.includes('defaultProvider::remoteProvider')).toBe(false);
  });

  it('reads DynamoDB with the credentials Lambda puts in the environment, whatever AWS_PROFILE says', () => {
    const response = invoke({
      // This file's database in DynamoDB Local, which keeps one per access key (test/support/dynamo.ts): the
      // query finds the file's tables only if the bundle signed with these credentials.
      AWS_ACCESS_KEY_ID: localDynamoCredentials().accessKeyId,
      AWS_SECRET_ACCESS_KEY: 'secret',
      AWS_SESSION_TOKEN: 'session',
      AWS_PROFILE: 'no-such-profile',
    });

    // 404 is the answer of a query that ran: the order does not exist. A credentials failure would be a 500.
    expect(response.statusCode).toBe(404);
    expect(JSON.parse(response.body).error.code).toBe('order_not_found');
  });

  it('answers 500 at once when the environment has no credentials (no metadata-service waits)', () => {
    const response = invoke({});

    expect(response.statusCode).toBe(500);
    expect(response.body).not.toMatch(/credential|dynamo/i);
  });
});
