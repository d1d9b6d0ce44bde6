import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { SignJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '#shared/platform/keys/tokens.js';
import { accessToken, http } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** Issue "walking skeleton": access tokens over HTTP, and every way a bad one is refused. */
let server: TestServer;
const run = promisify(execFile);

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const tokenCall = (body: unknown) => http('POST', `${server.baseUrl}/api/v2/auth/token`, { body });
const ordersWith = (authorization?: string) =>
  http('POST', `${server.baseUrl}/api/v2/orders`, {
    body: { order_number: 'auth-check', currency: 'USD', items: [] },
    headers: authorization ? { authorization } : {},
  });

function accessKey(): { kid: string; secret: Uint8Array } {
  const { access } = JSON.parse(process.env.SIGNING_KEYS ?? '{}');
  return { kid: access.kid, secret: new TextEncoder().encode(access.secret) };
}

describe('POST /api/v2/auth/token', () => {
  it('exchanges the demo keys for a 15-minute JWT', async () => {
    const res = await tokenCall({ public_key: server.demo.public_key, secret_key: server.demo.secret_key });

    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ token_type: 'JWT', expires_in: 900 });
    expect(decodeJwt(res.json.token)).toMatchObject({ sub: server.demo.client_id, iss: 'order-protection', aud: 'order-protection:api' });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('answers a wrong secret and an unknown public key with the same 401', async () => {
    const wrongSecret = await tokenCall({ public_key: server.demo.public_key, secret_key: 'sk_test_not-the-secret' });
    const unknownKey = await tokenCall({ public_key: 'pk_test_unknown', secret_key: server.demo.secret_key });

    for (const res of [wrongSecret, unknownKey]) {
      expect(res.status).toBe(401);
      expect(res.json.error).toMatchObject({ type: 'authentication_error', code: 'invalid_credentials' });
      expect(res.json.error.request_id).toEqual(expect.any(String));
    }
    expect(unknownKey.json.error.message).toBe(wrongSecret.json.error.message);
  });
});

describe('merchant routes refuse bad access tokens with 401 in the envelope', () => {
  const cases: [string, () => Promise<string | undefined>][] = [
    ['no Authorization header', async () => undefined],
    ['a malformed token', async () => 'JWT not.a.token'],
    ['an expired token', async () => `JWT ${await signToken('access', server.demo.client_id, {}, -10)}`],
    [
      'a token signed with another key',
      async () =>
        `JWT ${await new SignJWT({}).setProtectedHeader({ alg: 'HS256', kid: accessKey().kid, typ: 'at+jwt' }).setIssuer('order-protection').setAudience('order-protection:api').setSubject(server.demo.client_id).setIssuedAt().setExpirationTime('5m').sign(new TextEncoder().encode('another-key-another-key-another-key!'))}`,
    ],
    [
      'an alg: none token',
      async () => {
        const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
        const now = Math.floor(Date.now() / 1000);
        return `JWT ${part({ alg: 'none', typ: 'at+jwt' })}.${part({ sub: server.demo.client_id, iss: 'order-protection', aud: 'order-protection:api', iat: now, exp: now + 300 })}.`;
      },
    ],
    ['a quote token (other aud and typ)', async () => `JWT ${await signToken('quote', server.demo.client_id, { opt_in: true }, 300)}`],
    [
      'a token with another audience, signed with the access key',
      async () =>
        `Bearer ${await new SignJWT({}).setProtectedHeader({ alg: 'HS256', kid: accessKey().kid, typ: 'at+jwt' }).setIssuer('order-protection').setAudience('someone-else').setSubject(server.demo.client_id).setIssuedAt().setExpirationTime('5m').sign(accessKey().secret)}`,
    ],
  ];

  it.each(cases)('%s', async (_name, authorization) => {
    const res = await ordersWith(await authorization());

    expect(res.status).toBe(401);
    expect(res.json.error).toMatchObject({ type: 'authentication_error', request_id: expect.any(String) });
  });

  it('accepts both the JWT and the Bearer scheme with a valid token', async () => {
    const token = await accessToken(server.baseUrl, server.demo);

    const jwt = await http('GET', `${server.baseUrl}/api/v2/orders/00000000-0000-4000-8000-000000000000/`, { headers: { authorization: `JWT ${token}` } });
    const bearer = await http('GET', `${server.baseUrl}/api/v2/orders/00000000-0000-4000-8000-000000000000`, { headers: { authorization: `Bearer ${token}` } });

    expect([jwt.status, bearer.status]).toEqual([404, 404]);
  });
});

describe('operator CLI', () => {
  it('creates clients whose keys work, and whose tokens carry their own client id', async () => {
    const env = { ...process.env, DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT };
    const create = async (name: string) =>
      JSON.parse((await run('npx', ['tsx', 'scripts/client-cli.ts', 'create', '--name', name, '--rate', '0.1', '--json'], { env })).stdout);

    const [first, second] = [await create('CLI Shop One'), await create('CLI Shop Two')];
    const [tokenOne, tokenTwo] = [await accessToken(server.baseUrl, first), await accessToken(server.baseUrl, second)];

    expect(first).toEqual({
      client_id: expect.stringMatching(/^cl_/),
      public_key: expect.stringMatching(/^pk_test_/),
      secret_key: expect.stringMatching(/^sk_test_/),
    });
    expect(decodeJwt(tokenOne).sub).toBe(first.client_id);
    expect(decodeJwt(tokenTwo).sub).toBe(second.client_id);
    expect(first.client_id).not.toBe(second.client_id);
  });

  it('refuses a bad rate with a clear message and exit code 2', async () => {
    const failure = await run('npx', ['tsx', 'scripts/client-cli.ts', 'create', '--name', 'X', '--rate', '8.5']).catch(
      (err: { code: number; stderr: string }) => err,
    );

    expect(failure).toMatchObject({ code: 2, stderr: expect.stringContaining('--rate must be') });
  });
});
