import { createServer } from 'node:net';
import { startLocalDynamo, type LocalDynamo } from '../../scripts/local/local-stack.js';
import { startLocalS3, type LocalS3 } from '../../scripts/local/local-s3.js';

/**
 * One DynamoDB Local and one local S3 (s3rver) for the whole run; each test file makes its own
 * tables and bucket in them. DynamoDB Local runs without -sharedDb: each file's clients name a
 * database of the file's own there (test/support/dynamo.ts), so no file pays for the stream
 * records the files before it left, and each database has its own SQLite thread, so the workers'
 * files never queue behind each other's writes (as they did in one shared database). One JVM
 * compiles DynamoDB Local's code once for the run, not once per worker.
 */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

let dynamo: LocalDynamo | undefined;
let s3: LocalS3 | undefined;

export async function setup(): Promise<void> {
  if (!process.env.TEST_S3_ENDPOINT) {
    s3 = await startLocalS3();
    process.env.TEST_S3_ENDPOINT = s3.endpoint;
    // This run's own random credentials: the only ones its local S3 lets through.
    process.env.TEST_S3_ACCESS_KEY_ID = s3.credentials.accessKeyId;
    process.env.TEST_S3_SECRET_ACCESS_KEY = s3.credentials.secretAccessKey;
  }
  if (process.env.TEST_DYNAMODB_ENDPOINT) return; // an outer run already started it
  dynamo = await startLocalDynamo({ port: await freePort(), sharedDb: false });
  process.env.TEST_DYNAMODB_ENDPOINT = dynamo.endpoint;
}

export async function teardown(): Promise<void> {
  await dynamo?.stop();
  await s3?.stop();
}
