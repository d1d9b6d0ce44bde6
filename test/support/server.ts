import { randomBytes } from 'node:crypto';
import { startLocalServer, type LocalServerOptions } from '../../scripts/local-server.js';
import { testEndpoint } from './dynamo.js';

/**
 * The local server (`npm start`'s) in this test process, on a free port, over the run's DynamoDB
 * Local with tables of its own. Stopping it leaves DynamoDB Local to the global teardown.
 */
export async function startTestServer(options: Pick<LocalServerOptions, 'staticRoutes'> = {}) {
  const suffix = randomBytes(4).toString('hex');
  process.env.TABLE_NAME = `e2e-main-${suffix}`;
  process.env.METRICS_TABLE_NAME = `e2e-metrics-${suffix}`;
  const local = await startLocalServer({ port: 0, dynamoEndpoint: testEndpoint(), ...options });
  return { baseUrl: local.baseUrl, demo: local.demo, stop: local.stop };
}
export type TestServer = Awaited<ReturnType<typeof startTestServer>>;
