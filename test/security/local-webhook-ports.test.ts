import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEndpoint } from '../support/dynamo.js';
import { http } from '../support/http.js';
import { useTestServer } from '../support/server.js';

/**
 * Under npm start a webhook endpoint may be an http://localhost receiver, but never on the
 * service's own port or its database's: else the delivery log would tell which local ports are
 * open (a port scan through the API).
 */
const server = useTestServer();
const receiver = createServer((_req, res) => res.end());
let receiverPort = 0;
beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverPort = (receiver.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

const register = (url: string) => http('POST', `${server.baseUrl}/api/v2/webhook_endpoints`, { headers: server.auth, body: { url } });

describe('local webhook URLs', () => {
  it('refuses the API’s own port, DynamoDB Local’s and the sign-in provider’s with 422 invalid_url, under every loopback spelling', async () => {
    const apiPort = new URL(server.baseUrl).port;
    const dynamoPort = new URL(testEndpoint()).port;
    const issuerPort = new URL(server.staff.issuer).port;
    for (const host of ['localhost', '127.0.0.1', '[::1]']) {
      for (const port of [apiPort, dynamoPort, issuerPort]) {
        const res = await register(`http://${host}:${port}/hooks`);
        expect(res.status, `${host}:${port}`).toBe(422);
        expect(res.json.error).toMatchObject({ code: 'invalid_url', param: 'url' });
        expect(res.json.error.message).toContain(`port ${port}`);
      }
    }
  });

  it('takes a receiver on any other local port', async () => {
    const res = await register(`http://127.0.0.1:${receiverPort}/hooks`);
    expect(res.status).toBe(201);
  });
});
