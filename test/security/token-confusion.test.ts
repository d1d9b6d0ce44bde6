import { SignJWT, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '#shared/platform/keys/tokens.js';
import { accessToken, http } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** Adversarial: every kind of token confusion is refused, with the right status. */
let server: TestServer;
let token: string;
let quote: { tokens: { opt_in: string; opt_out: string } };
const items = [{ name: 'Seat', reference_number: 'tc-1', cost: '80.00' }];

beforeAll(async () => {
  server = await startTestServer();
  token = await accessToken(server.baseUrl, server.demo);
  quote = (await http('POST', `${server.baseUrl}/api/v2/quotes`, { headers: { 'x-public-key': server.demo.public_key }, body: { currency: 'USD', items } }))
    .json;
});
afterAll(() => server.stop());

const keyOf = (kind: 'access' | 'quote') => {
  const set = JSON.parse(process.env.SIGNING_KEYS ?? '{}')[kind];
  return { kid: set.kid as string, secret: new TextEncoder().encode(set.secret) };
};
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

/** An access-token-shaped JWT with overrides, signed with the real access key unless told otherwise. */
async function accessLike(overrides: { aud?: string; iss?: string; typ?: string; exp?: number; nbf?: number } = {}) {
  const jwt = new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', kid: keyOf('access').kid, typ: overrides.typ ?? 'at+jwt' })
    .setIssuer(overrides.iss ?? 'order-protection')
    .setAudience(overrides.aud ?? 'order-protection:api')
    .setSubject(server.demo.client_id)
    .setIssuedAt()
    .setExpirationTime(overrides.exp ?? now() + 300);
  if (overrides.nbf) jwt.setNotBefore(overrides.nbf);
  return jwt.sign(keyOf('access').secret);
}

const placeOrder = (authorization: string, quoteToken?: string, orderNumber = `tc-${Math.random()}`) =>
  http('POST', `${server.baseUrl}/api/v2/orders`, {
    headers: { authorization },
    body: { ...(quoteToken ? { token: quoteToken } : {}), order_number: orderNumber, currency: 'USD', items },
  });

describe('access tokens', () => {
  const refused: [string, () => Promise<string>][] = [
    ['a quote token used as access token', async () => quote.tokens.opt_in],
    [
      'alg: none',
      async () =>
        `${b64({ alg: 'none', typ: 'at+jwt' })}.${b64({ sub: server.demo.client_id, iss: 'order-protection', aud: 'order-protection:api', iat: now(), exp: now() + 300 })}.`,
    ],
    [
      'an RS256 token with our kid (HS/RS swap)',
      async () => {
        const { privateKey } = await generateKeyPair('RS256');
        return new SignJWT({})
          .setProtectedHeader({ alg: 'RS256', kid: keyOf('access').kid, typ: 'at+jwt' })
          .setIssuer('order-protection')
          .setAudience('order-protection:api')
          .setSubject(server.demo.client_id)
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(privateKey);
      },
    ],
    ['another audience', () => accessLike({ aud: 'order-protection:quote' })],
    ['another issuer', () => accessLike({ iss: 'evil' })],
    ['another typ', () => accessLike({ typ: 'op-quote+jwt' })],
    ['expired', () => accessLike({ exp: now() - 5 })],
    ['not yet valid', () => accessLike({ nbf: now() + 600 })],
    [
      'a tampered payload',
      async () => {
        const [header, , signature] = token.split('.');
        return `${header}.${b64({ sub: 'cl_someone_else', iss: 'order-protection', aud: 'order-protection:api', iat: now(), exp: now() + 300 })}.${signature}`;
      },
    ],
    [
      'signed with the quote key',
      async () =>
        new SignJWT({})
          .setProtectedHeader({ alg: 'HS256', kid: keyOf('quote').kid, typ: 'at+jwt' })
          .setIssuer('order-protection')
          .setAudience('order-protection:api')
          .setSubject(server.demo.client_id)
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(keyOf('quote').secret),
    ],
  ];

  it.each(refused)('refuses %s with 401', async (_name, make) => {
    const res = await placeOrder(`JWT ${await make()}`, quote.tokens.opt_out);

    expect(res.status).toBe(401);
    expect(res.json.error.type).toBe('authentication_error');
  });

  it('names an expired token as such', async () => {
    const res = await placeOrder(`JWT ${await accessLike({ exp: now() - 5 })}`);
    expect(res.json.error.code).toBe('token_expired');
  });
});

describe('quote tokens', () => {
  const refused: [string, string, () => Promise<string>][] = [
    ['an access token used as quote token', 'invalid_quote_token', async () => token],
    [
      'an expired quote token',
      'quote_expired',
      () => signToken('quote', server.demo.client_id, { qid: 'qt_x', opt_in: false, currency: 'USD', rate: '0.085', n: 1, items: 'digest' }, -5),
    ],
    [
      'a quote token with a tampered rate',
      'invalid_quote_token',
      async () => {
        const [header, payload, signature] = quote.tokens.opt_in.split('.');
        const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
        claims.rate = '0.0001';
        return `${header}.${b64(claims)}.${signature}`;
      },
    ],
    [
      'alg: none quote token',
      'invalid_quote_token',
      async () => {
        const claims = JSON.parse(Buffer.from(quote.tokens.opt_in.split('.')[1]!, 'base64url').toString());
        return `${b64({ alg: 'none', typ: 'op-quote+jwt' })}.${b64(claims)}.`;
      },
    ],
    [
      'a forged quote token (another key)',
      'invalid_quote_token',
      () =>
        new SignJWT({ qid: 'qt_x', opt_in: true, currency: 'USD', rate: '0.0001', n: 1, items: 'digest' })
          .setProtectedHeader({ alg: 'HS256', kid: keyOf('quote').kid, typ: 'op-quote+jwt' })
          .setIssuer('order-protection')
          .setAudience('order-protection:quote')
          .setSubject(server.demo.client_id)
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(new TextEncoder().encode('x'.repeat(40))),
    ],
  ];

  it.each(refused)('refuses %s with 422 %s', async (_name, code, make) => {
    const res = await placeOrder(`JWT ${token}`, await make());

    expect(res.status).toBe(422);
    expect(res.json.error).toMatchObject({ code, param: 'token' });
  });

  it("refuses another client's quote token with 422", async () => {
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const { stdout } = await promisify(execFile)('npx', ['tsx', 'scripts/client-cli.ts', 'create', '--name', 'Other', '--json']);
    const keys = JSON.parse(stdout) as { public_key: string };
    const theirs = (await http('POST', `${server.baseUrl}/api/v2/quotes`, { headers: { 'x-public-key': keys.public_key }, body: { currency: 'USD', items } }))
      .json;

    const res = await placeOrder(`JWT ${token}`, theirs.tokens.opt_in);

    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe('invalid_quote_token');
  });
});

describe('claim tokens and the operator key', () => {
  const claimPath = '/api/v2/claims/clm_AAAAAAAAAAAAAAAAAAAAAAAA';
  const claimToken = () => signToken('claim', server.demo.client_id, { ord: '00000000-0000-4000-8000-000000000000' }, 1800);

  it('never takes a claim token as an access token, nor an access or quote token as a claim token', async () => {
    const asAccess = await http('GET', `${server.baseUrl}/api/v2/orders`, { headers: { authorization: `JWT ${await claimToken()}` } });
    expect(asAccess.status).toBe(401);
    for (const other of [token, quote.tokens.opt_in]) {
      const asClaim = await http('GET', `${server.baseUrl}${claimPath}`, { headers: { authorization: `Bearer ${other}` } });
      expect(asClaim.status).toBe(401);
      expect(asClaim.json.error.code).toBe('invalid_claim_token');
    }
    // A claim-shaped token signed with the access key is no claim token either.
    const forged = await new SignJWT({ ord: '00000000-0000-4000-8000-000000000000' })
      .setProtectedHeader({ alg: 'HS256', kid: keyOf('access').kid, typ: 'op-claim+jwt' })
      .setIssuer('order-protection')
      .setAudience('order-protection:claim')
      .setSubject(server.demo.client_id)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(keyOf('access').secret);
    expect((await http('GET', `${server.baseUrl}${claimPath}`, { headers: { authorization: `Bearer ${forged}` } })).status).toBe(401);
    // A genuine claim token reaches the claim routes (this claim does not exist: 404).
    expect((await http('GET', `${server.baseUrl}${claimPath}`, { headers: { authorization: `Bearer ${await claimToken()}` } })).status).toBe(404);
  });

  it('opens the operator routes to the operator key only: not an access token, a claim token, a wrong or missing key', async () => {
    const queue = (authorization?: string) =>
      http('GET', `${server.baseUrl}/api/v2/admin/claims`, { headers: authorization === undefined ? {} : { authorization } });
    for (const authorization of [
      undefined,
      `JWT ${token}`,
      `Bearer ${await claimToken()}`,
      'Operator wrong',
      `Operator ${server.operatorKey}x`,
      server.operatorKey,
    ]) {
      const res = await queue(authorization);
      expect(res.status).toBe(401);
      expect(res.json.error.code).toBe('operator_credentials_required');
    }
    expect((await queue(`Operator ${server.operatorKey}`)).status).toBe(200);
  });
});
