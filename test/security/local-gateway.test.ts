import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestServer } from '../support/server.js';

/**
 * The local server (`npm start`) against what the outside review found: the gateway logs an
 * unexpected failure redacted, as the handlers do; a malformed percent-escape in the path is a 400
 * before authentication, as on API Gateway; and the demo back-end serves only its own pages — its
 * own Host, and orders posted as JSON from its own origin (no DNS rebinding, no cross-site forms).
 */
let server: TestServer;
const logs: string[] = [];
const fragment = { email: 'ada.lovelace@example.com', phone: '+1 (415) 555-0142' };

beforeAll(async () => {
  process.env.POWERTOOLS_LOG_LEVEL = 'INFO'; // before the gateway, and so the logger, load
  const { startTestServer } = await import('../support/server.js');
  const { demoSiteRoutes } = await import('../../scripts/local/demo-site.js');
  server = await startTestServer({
    staticRoutes: (site) => ({
      ...demoSiteRoutes(site),
      // A route whose handling fails the way a parser or driver does: its message quotes the request.
      'POST /test/boom': async (_req, body) => {
        throw new Error(`could not handle ${body}`);
      },
    }),
  });
  const capture = (chunk: unknown) => {
    logs.push(String(chunk));
    return true;
  };
  for (const stream of [process.stdout, process.stderr]) vi.spyOn(stream, 'write').mockImplementation(capture);
  for (const method of ['log', 'info', 'warn', 'error'] as const)
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      capture(args.join(' '));
    });
});
afterAll(async () => {
  vi.restoreAllMocks();
  await server.stop();
});

interface Answer {
  status: number;
  connection?: string;
  outcome?: string;
  error?: { type: string; code: string; message: string; request_id: string };
}

/** A raw HTTP request to the server, so that Host and Origin are exactly as given. */
function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const { port } = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { host: `localhost:${port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res
        .on('data', (chunk: Buffer) => chunks.push(chunk))
        .on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            connection: res.headers.connection,
            ...(res.headers['content-type']?.includes('json') ? (JSON.parse(text) as Omit<Answer, 'status'>) : {}),
          });
        });
    });
    req.on('error', reject).end(body);
  });
}

const order = JSON.stringify({ order_number: 'LG-1', currency: 'USD', items: [{ name: 'Seat', reference_number: 's1', cost: '10.00' }] }); // no token: placed without calling the API

describe('local gateway', () => {
  it('logs an unexpected failure redacted under its request id, never the request fragment it quotes', async () => {
    logs.length = 0;

    const answer = await send(
      'POST',
      '/test/boom',
      { 'content-type': 'application/json' },
      JSON.stringify({ note: `call ${fragment.phone} or write ${fragment.email}` }),
    );

    const log = logs.join('');
    expect(answer.status).toBe(500);
    expect(answer.error).toMatchObject({ type: 'api_error', code: 'internal_error' });
    expect(log).toContain(`"request_id":"${answer.error?.request_id}"`);
    expect(log).toContain('[redacted]');
    expect(log).not.toContain(fragment.email);
    expect(log).not.toContain('555-0142');
  });

  it('answers a malformed percent-escape in the path with 400 invalid_path, before authentication', async () => {
    const answer = await send('GET', '/api/v2/orders/%E0%A4%A', {});

    expect(answer.status).toBe(400);
    expect(answer.error).toEqual({ type: 'invalid_request_error', code: 'invalid_path', message: expect.any(String), request_id: expect.any(String) });
  });

  it('joins a query parameter given twice with commas, as API Gateway does, never keeping the last alone', async () => {
    const { accessToken } = await import('../support/http.js');
    const authorization = `JWT ${await accessToken(server.baseUrl, server.demo)}`;
    const answer = await send('GET', '/api/v2/ledger?type=premium_refunded&type=premium_written', { authorization });

    expect(answer.status).toBe(422); // "premium_refunded,premium_written" is no entry type, deployed or here
    expect(answer.error).toMatchObject({ param: 'type' });
  });

  it('answers 400 invalid_path on routes without path parameters too', async () => {
    const answers = await Promise.all(
      ['/api/v2/quotes%', '/api/v2/auth/token%zz', '/%C0%AF'].map((path) => send('POST', path, { 'content-type': 'application/json' }, '{}')),
    );
    for (const answer of answers) expect([answer.status, answer.error?.code]).toEqual([400, 'invalid_path']);
  });

  it('answers 400 invalid_path on every route with a path parameter, and openapi.yaml declares that 400 for each', async () => {
    const { routes } = await import('#shared/platform/functions.js');
    const { contractViolation } = await import('../support/contract.js');
    const withParameter = routes.filter((route) => route.path.includes('{'));
    expect(withParameter.length).toBeGreaterThan(10);
    for (const route of withParameter) {
      const answer = await send(route.method, route.path.replace(/\{[^}]+\}/, '%E0%A4%A'), { 'content-type': 'application/json' }, '{}');
      expect([answer.status, answer.error?.code], route.path).toEqual([400, 'invalid_path']);
      const concrete = route.path.replace(/\{[^}]+\}/g, 'x');
      expect(contractViolation(route.method, concrete, 400, JSON.stringify({ error: answer.error })), `${route.method} ${route.path}`).toBeUndefined();
    }
  });

  it('closes the connection after a 413, whose unread body must not be taken for the next request', async () => {
    const answer = await send('POST', '/api/v2/quotes', { 'content-type': 'application/json' }, `{"x":"${'a'.repeat(300 * 1024)}"}`);
    expect([answer.status, answer.error?.code, answer.connection]).toEqual([413, 'payload_too_large', 'close']);
  });

  it('answers what Node refuses before any route (headers over its limit) in the error envelope too', async () => {
    const answer = await send('GET', '/api/v2/orders/x', { authorization: `JWT ${'a'.repeat(64 * 1024)}` });
    expect([answer.status, answer.error?.type, answer.error?.code]).toEqual([431, 'invalid_request_error', 'headers_too_large']);
  });
});

describe('demo back-end', () => {
  it('answers on its own Host only: every demo route refuses another name (DNS rebinding)', async () => {
    const { port } = new URL(server.baseUrl);
    const foreign = { host: `rebound.attacker.example:${port}` };
    const routes = [
      ['GET', '/'],
      ['GET', '/dashboard'],
      ['GET', '/widget.js'],
      ['GET', '/demo/metrics'],
      ['POST', '/demo/place-order'],
    ] as const;

    const own = await Promise.all([`localhost:${port}`, `127.0.0.1:${port}`].map((host) => send('GET', '/', { host })));
    const refused = await Promise.all(
      routes.map(([method, path]) =>
        send(method, path, { ...foreign, origin: `http://${foreign.host}`, 'content-type': 'application/json' }, method === 'POST' ? order : undefined),
      ),
    );

    expect(own.map((answer) => answer.status)).toEqual([200, 200]);
    for (const answer of refused) {
      expect(answer.status).toBe(403);
      expect(answer.error).toMatchObject({ type: 'invalid_request_error', code: 'forbidden_host' });
    }
  });

  it('takes orders only as JSON posted from its own origin: a foreign or missing Origin, or a form, is refused', async () => {
    const { origin } = new URL(server.baseUrl);
    const json = { 'content-type': 'application/json' };

    const sameOrigin = await send('POST', '/demo/place-order', { ...json, origin }, order);
    const crossSite = await send('POST', '/demo/place-order', { ...json, origin: 'https://shop.attacker.example' }, order);
    const noOrigin = await send('POST', '/demo/place-order', json, order);
    const form = await send('POST', '/demo/place-order', { origin, 'content-type': 'text/plain' }, order);

    expect(sameOrigin).toMatchObject({ status: 200, outcome: 'placed_without_protection' });
    expect(crossSite).toMatchObject({ status: 403, error: { type: 'invalid_request_error', code: 'forbidden_origin' } });
    expect(noOrigin).toMatchObject({ status: 403, error: { type: 'invalid_request_error', code: 'forbidden_origin' } });
    expect(form).toMatchObject({ status: 415, error: { type: 'invalid_request_error', code: 'unsupported_media_type' } });
  });

  it('refuses an order body that is not an order with a 4xx in the envelope, never a 500 or a made-up order', async () => {
    const { origin } = new URL(server.baseUrl);
    const bodies = [
      'null',
      '"x"',
      '[]',
      '1',
      '{}',
      '{"a":1,"a":2}',
      `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
      '{"order_number":"x","currency":"USD","items":[]}',
    ];

    const answers = await Promise.all(bodies.map((body) => send('POST', '/demo/place-order', { 'content-type': 'application/json', origin }, body)));

    for (const [i, answer] of answers.entries()) {
      expect([bodies[i]!.slice(0, 30), answer.status >= 400 && answer.status < 500, answer.error?.type]).toEqual([
        bodies[i]!.slice(0, 30),
        true,
        'invalid_request_error',
      ]);
    }
  });
});
