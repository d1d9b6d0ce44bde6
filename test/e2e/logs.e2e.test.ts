import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { http } from '../support/http.js';
import type { TestServer } from '../support/server.js';

/**
 * No secret key, token or hash in any log line. Every line written while the auth flow runs
 * (at DEBUG, the most talkative level) is captured and searched.
 */
let server: TestServer;
const lines: string[] = [];

beforeAll(async () => {
  process.env.POWERTOOLS_LOG_LEVEL = 'DEBUG'; // before the handlers, and so the logger, load
  const { startTestServer } = await import('../support/server.js');
  server = await startTestServer();
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
  }
});
afterAll(async () => {
  vi.restoreAllMocks();
  await server.stop();
});

describe('logs of the auth flow', () => {
  it('hold request lines but no secret key, token or key hash', async () => {
    const { hashSecretKey } = await import('#shared/clients/client-keys.js');
    const good = await http('POST', `${server.baseUrl}/api/v2/auth/token`, {
      body: { public_key: server.demo.public_key, secret_key: server.demo.secret_key },
    });
    const bad = await http('POST', `${server.baseUrl}/api/v2/auth/token`, {
      body: { public_key: server.demo.public_key, secret_key: 'sk_test_guessing-a-secret' },
    });
    const token: string = good.json.token;
    const used = await http('GET', `${server.baseUrl}/api/v2/orders/00000000-0000-4000-8000-000000000000`, { headers: { authorization: `JWT ${token}` } });
    const forged = await http('GET', `${server.baseUrl}/api/v2/orders/x`, { headers: { authorization: `JWT ${token.slice(0, -4)}abcd` } });

    const log = lines.join('');
    expect([good.status, bad.status, used.status, forged.status]).toEqual([200, 401, 404, 401]);
    expect(log).toContain('"message":"request"'); // the capture saw the log lines
    expect(log).toContain(`"request_id":"${bad.json.error.request_id}"`); // an error's request_id leads to its log line
    for (const secret of [
      server.demo.secret_key,
      'sk_test_guessing-a-secret',
      hashSecretKey(server.demo.secret_key),
      token,
      token.split('.')[2]!,
      token.split('.')[1]!,
    ]) {
      expect(log).not.toContain(secret);
    }
  });
});
