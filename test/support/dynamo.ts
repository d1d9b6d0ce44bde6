import { type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomBytes } from 'node:crypto';
import { localClient } from '../../scripts/local/local-stack.js';
import { createDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { createTables, deleteTables, type TableNames } from '#shared/platform/dynamo/table-admin.js';

/** The DynamoDB Local that `test/support/global-setup.ts` started for this test run. */
export function testEndpoint(): string {
  const endpoint = process.env.TEST_DYNAMODB_ENDPOINT;
  if (!endpoint) throw new Error('TEST_DYNAMODB_ENDPOINT is not set: run the tests through vitest (global setup starts DynamoDB Local)');
  return endpoint;
}

/**
 * Tables of its own for one test file (random names), so files run in parallel without seeing
 * each other's rows. Also points the functions' configuration at them.
 */
export async function freshTables(): Promise<TableNames & { endpoint: string; doc: DynamoDBDocumentClient; cleanup(): Promise<void> }> {
  const endpoint = testEndpoint();
  const suffix = randomBytes(4).toString('hex');
  const names = { main: `test-main-${suffix}`, metrics: `test-metrics-${suffix}` };
  const admin = localClient(endpoint);
  await createTables(admin, names);
  process.env.DYNAMODB_ENDPOINT = endpoint;
  const doc = createDocumentClient(endpoint, 'us-east-1');
  return {
    ...names,
    endpoint,
    doc,
    cleanup: async () => {
      await deleteTables(admin, names);
      admin.destroy();
      doc.destroy();
    },
  };
}
