import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { startLocalServer, type LocalServerOptions } from '../../scripts/local/local-server.js';
import { refusals } from '../../scripts/local/local-grants.js';
import { testEndpoint } from './dynamo.js';
import { accessToken } from './http.js';

/**
 * The local server (`npm start`'s) in this test process, on a free port, over the run's DynamoDB
 * Local with tables of its own. Stopping it leaves DynamoDB Local to the global teardown.
 */
export async function startTestServer(options: Pick<LocalServerOptions, 'staticRoutes' | 'seedLiveDemo' | 'staffFile'> = {}) {
  const suffix = randomBytes(4).toString('hex');
  process.env.TABLE_NAME = `e2e-main-${suffix}`;
  process.env.METRICS_TABLE_NAME = `e2e-metrics-${suffix}`;
  const local = await startLocalServer({ port: 0, dynamoEndpoint: testEndpoint(), ...options });
  const stop = async () => {
    await local.stop();
    // A call a deployed function's role would refuse fails the file, even where the code caught it (local-grants.ts).
    if (refusals.length > 0) throw new Error(`calls the deployed roles would refuse: ${JSON.stringify(refusals)}`);
  };
  return { baseUrl: local.baseUrl, demo: local.demo, operatorKey: local.operatorKey, staff: local.staff, seeded: local.seeded, stop };
}
export type TestServer = Awaited<ReturnType<typeof startTestServer>>;

/**
 * The test server for a whole test file: started before its tests, stopped after them, with the
 * demo client's `Authorization` header in `auth`. Read its fields inside tests (they are set by
 * the `beforeAll` this registers).
 */
export function useTestServer(options: Pick<LocalServerOptions, 'staticRoutes'> = {}): TestServer & { auth: Record<string, string> } {
  const server = {} as TestServer & { auth: Record<string, string> };
  beforeAll(async () => {
    Object.assign(server, await startTestServer(options));
    server.auth = { authorization: `JWT ${await accessToken(server.baseUrl, server.demo)}` };
  });
  afterAll(() => server.stop());
  return server;
}
