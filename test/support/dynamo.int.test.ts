import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDynamoCredentials } from '#shared/platform/dynamo/dynamo-client.js';
import { freshTables, testEndpoint } from './dynamo.js';

/**
 * Each test file has a database of its own in the run's DynamoDB Local (global-setup.ts starts it
 * without -sharedDb; dynamo.ts names the file's database): a deleted table's stream records
 * stay in its database for good and slow every later call there, so no file may inherit another's.
 */
let tables: Awaited<ReturnType<typeof freshTables>>;
beforeAll(async () => {
  tables = await freshTables();
});
afterAll(() => tables.cleanup());

const tablesSeenBy = async (accessKeyId: string): Promise<string[]> => {
  const client = new DynamoDBClient({ endpoint: testEndpoint(), region: 'us-east-1', credentials: { accessKeyId, secretAccessKey: 'local' } });
  try {
    return (await client.send(new ListTablesCommand({}))).TableNames ?? [];
  } finally {
    client.destroy();
  }
};

describe("a test file's database", () => {
  it('is named by the access key of every client the file makes, and holds the tables the file made', async () => {
    const { accessKeyId } = localDynamoCredentials();
    expect(accessKeyId).toMatch(/^testfile[0-9a-f]{12}$/);
    expect(process.env.DYNAMODB_LOCAL_DATABASE).toBe(accessKeyId);
    expect(await tablesSeenBy(accessKeyId)).toEqual(expect.arrayContaining([tables.main, tables.metrics]));
  });

  it("is not another file's: a client naming another database sees none of this file's tables", async () => {
    const other = await tablesSeenBy('testfileanother');
    expect(other).not.toContain(tables.main);
    expect(other).not.toContain(tables.metrics);
    // npm start's and the bench's database (-sharedDb there; here, the one named "local") is not this file's either.
    expect(await tablesSeenBy('local')).not.toContain(tables.main);
  });
});
