import { createServer } from 'node:net';
import { startLocalDynamo, type LocalDynamo } from '../../scripts/local/local-stack.js';

/** One DynamoDB Local for the whole test run; each test file makes its own tables in it. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

let dynamo: LocalDynamo | undefined;

export async function setup(): Promise<void> {
  if (process.env.TEST_DYNAMODB_ENDPOINT) return; // an outer run already started one
  dynamo = await startLocalDynamo({ port: await freePort() });
  process.env.TEST_DYNAMODB_ENDPOINT = dynamo.endpoint;
}

export async function teardown(): Promise<void> {
  await dynamo?.stop();
}
