import { type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { createS3Client, LOCAL_S3_KEY_ENV, LOCAL_S3_SECRET_ENV, sharedS3Client } from '#shared/platform/s3/s3-client.js';
import { holdObjectsToGrants } from '../../scripts/local/local-grants.js';
import { randomBytes } from 'node:crypto';
import { localClient } from '../../scripts/local/local-stack.js';
import { createDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { createTables, deleteTables, type TableNames } from '#shared/platform/dynamo/table-admin.js';

/**
 * This file's database, named once per file (each test file loads this module afresh). DynamoDB
 * Local never frees a deleted table's stream records, and every later call to the same database
 * slows with them; a database per file starts clean. Its clients name it by their access key
 * (localDynamoCredentials), so processes this file starts, which inherit the environment, too.
 */
const fileDatabase = `testfile${randomBytes(6).toString('hex')}`;

/**
 * The run's DynamoDB Local (`test/support/global-setup.ts` starts it), with this file's clients
 * pointed at a database of its own there.
 */
export function testEndpoint(): string {
  const endpoint = process.env.TEST_DYNAMODB_ENDPOINT;
  if (!endpoint) throw new Error('TEST_DYNAMODB_ENDPOINT is not set: run the tests through vitest (global setup starts DynamoDB Local)');
  process.env.DYNAMODB_LOCAL_DATABASE = fileDatabase;
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

/**
 * A bucket of its own for one test file in the run's local S3 (s3rver), and the functions'
 * configuration pointed at it (S3_ENDPOINT and the run's own S3 credentials, BORDEREAUX_BUCKET).
 */
export async function freshBucket(): Promise<{ endpoint: string; bucket: string }> {
  const endpoint = process.env.TEST_S3_ENDPOINT;
  const accessKeyId = process.env.TEST_S3_ACCESS_KEY_ID;
  const secretAccessKey = process.env.TEST_S3_SECRET_ACCESS_KEY;
  if (!endpoint || !accessKeyId || !secretAccessKey)
    throw new Error('TEST_S3_ENDPOINT or its credentials are not set: run the tests through vitest (global setup starts the local S3)');
  const bucket = `test-bordereaux-${randomBytes(4).toString('hex')}`;
  const s3 = createS3Client(endpoint, 'us-east-1', { accessKeyId, secretAccessKey });
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  s3.destroy();
  process.env.S3_ENDPOINT = endpoint;
  process.env[LOCAL_S3_KEY_ENV] = accessKeyId;
  process.env[LOCAL_S3_SECRET_ENV] = secretAccessKey;
  process.env.BORDEREAUX_BUCKET = bucket;
  holdObjectsToGrants(sharedS3Client()); // the functions' client, now that it can be made: held to their grants (local-grants.ts)
  return { endpoint, bucket };
}
