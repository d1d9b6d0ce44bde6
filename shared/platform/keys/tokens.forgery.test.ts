import fc from 'fast-check';
import { SignJWT, jwtVerify } from 'jose';
import { createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { forgetKeySets, generateKeySet } from './signing-keys.js';
import { signToken, verifyToken, type TokenClaims } from './tokens.js';

/**
 * The token verifier from outside: tokens jose signs with our key verify, ours verify in jose,
 * and no forgery — another algorithm, type, key, claim set or spelling — is ever accepted.
 */
const key = { kid: 'k-1', secret: 'a-secret-of-at-least-thirty-two-characters' };
const NOW = 1_900_000_000;
const at = (seconds: number) => new Date(seconds * 1000);
const secretBytes = (secret: string) => new TextEncoder().encode(secret);
const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const claims = (overrides: TokenClaims = {}): TokenClaims => ({
  iss: 'order-protection',
  aud: 'order-protection:api',
  sub: 'cl_1',
  iat: NOW - 10,
  exp: NOW + 60,
  ...overrides,
});
const header = (overrides: Record<string, unknown> = {}) => ({ alg: 'HS256', kid: 'k-1', typ: 'at+jwt', ...overrides });
const verify = (token: string) => verifyToken('access', token, at(NOW));

/** A token with any header and payload, HMAC-signed over the given segments with `secret`. */
function forge(head: unknown, payload: unknown, secret = key.secret, algorithm = 'sha256') {
  const input = `${b64(head)}.${b64(payload)}`;
  return `${input}.${createHmac(algorithm, secret).update(input).digest('base64url')}`;
}

beforeAll(() => {
  process.env.SIGNING_KEYS = JSON.stringify({ access: key, quote: generateKeySet('quote'), 'order-number': generateKeySet('order-number') });
  forgetKeySets();
});

const extraClaims = fc.record({
  qid: fc.option(fc.string(), { nil: undefined }),
  opt_in: fc.option(fc.boolean(), { nil: undefined }),
  items: fc.option(fc.array(fc.record({ r: fc.string(), c: fc.integer() }), { maxLength: 4 }), { nil: undefined }),
});
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('tokens against jose used directly', () => {
  it('what we sign, jose verifies with the same claims', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 40 }), extraClaims, async (sub, extra) => {
        const token = await signToken('access', sub, plain(extra), 60, at(NOW));
        const { payload, protectedHeader } = await jwtVerify(token, secretBytes(key.secret), { algorithms: ['HS256'], currentDate: at(NOW) });
        expect(protectedHeader).toEqual(header());
        expect(payload).toEqual({ ...plain(extra), iss: 'order-protection', aud: 'order-protection:api', sub, iat: NOW, exp: NOW + 60 });
      }),
      { numRuns: 100 },
    );
  });

  it('what jose signs with our key and profile, we verify with the same claims', async () => {
    await fc.assert(
      fc.asyncProperty(extraClaims, async (extra) => {
        const token = await new SignJWT(plain(extra))
          .setProtectedHeader(header())
          .setIssuer('order-protection')
          .setAudience('order-protection:api')
          .setSubject('cl_1')
          .setIssuedAt(NOW - 10)
          .setExpirationTime(NOW + 60)
          .sign(secretBytes(key.secret));
        expect(await verify(token)).toEqual({ ok: true, payload: { ...plain(extra), ...claims() } });
      }),
      { numRuns: 100 },
    );
  });

  it('refuses every one-character change of a valid token (one spelling per token)', async () => {
    const token = await signToken('access', 'cl_1', {}, 60, at(NOW));
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=';
    await fc.assert(
      fc.asyncProperty(fc.nat(token.length - 1), fc.constantFrom(...alphabet), async (i, char) => {
        fc.pre(token[i] !== char);
        expect((await verify(token.slice(0, i) + char + token.slice(i + 1))).ok).toBe(false);
      }),
      { numRuns: 500 },
    );
    // The signature's last character carries two unused bits: its twin (lowest bit flipped) decodes to the same bytes.
    const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const twin = BASE64URL[BASE64URL.indexOf(token.at(-1)!) ^ 1]!;
    expect((await verify(token.slice(0, -1) + twin)).ok).toBe(false);
  });

  it('never accepts a correctly signed token that jose, given our profile, refuses (random headers and claims)', async () => {
    const mostly = <T>(valid: T, ...others: T[]) =>
      fc.oneof({ arbitrary: fc.constant(valid), weight: 12 }, { arbitrary: fc.constantFrom(...others), weight: 1 });
    const time = (valid: fc.Arbitrary<number | undefined>) =>
      fc.oneof({ arbitrary: valid, weight: 12 }, { arbitrary: fc.constantFrom<unknown>(undefined, String(NOW), Number.NaN, null), weight: 1 });
    const heads = fc.record({
      alg: mostly('HS256', 'HS384', 'none', 'RS256', 'hs256'),
      typ: mostly<string | undefined>('at+jwt', 'AT+JWT', 'jwt', 'op-quote+jwt', undefined),
      kid: mostly<string | undefined>('k-1', 'k-2', undefined),
      crit: mostly<string[] | undefined>(undefined, ['exp'], []),
    });
    const payloads = fc.record({
      iss: mostly<string | undefined>('order-protection', 'them', undefined),
      aud: mostly<unknown>('order-protection:api', ['order-protection:api', 'x'], ['x'], 'order-protection:quote', undefined),
      sub: mostly<unknown>('cl_1', undefined, 7, ''),
      iat: time(fc.integer({ min: NOW - 1000, max: NOW + 20 })),
      exp: time(fc.integer({ min: NOW - 50, max: NOW + 300 })),
      nbf: time(fc.option(fc.integer({ min: NOW - 100, max: NOW + 20 }), { nil: undefined })),
    });
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(heads, payloads, async (h, p) => {
        const token = forge(plain(h), plain(p));
        if ((await verify(token)).ok) {
          accepted += 1;
          const reference = await jwtVerify(token, secretBytes(key.secret), {
            algorithms: ['HS256'],
            typ: 'at+jwt',
            issuer: 'order-protection',
            audience: 'order-protection:api',
            requiredClaims: ['sub', 'iat', 'exp'],
            maxTokenAge: 900,
            clockTolerance: 5,
            currentDate: at(NOW),
          }).then(
            () => true,
            () => false,
          );
          expect(reference).toBe(true);
          expect(typeof p.sub).toBe('string');
        }
      }),
      { numRuns: 600 },
    );
    expect(accepted).toBeGreaterThan(50);
  });
});

describe('refusals', () => {
  const other = 'another-secret-of-at-least-thirty-two-chars';
  const refused: [string, () => Promise<string> | string, 'invalid' | 'expired'][] = [
    ['alg none, no signature', () => `${b64(header({ alg: 'none' }))}.${b64(claims())}.`, 'invalid'],
    ['alg none with a signature', () => forge(header({ alg: 'none' }), claims()), 'invalid'],
    ['HS512 with our key', () => forge(header({ alg: 'HS512' }), claims(), key.secret, 'sha512'), 'invalid'],
    ['RS256 header over an HMAC', () => forge(header({ alg: 'RS256' }), claims()), 'invalid'],
    ['another typ', () => forge(header({ typ: 'op-quote+jwt' }), claims()), 'invalid'],
    ['no typ', () => forge(header({ typ: undefined }), claims()), 'invalid'],
    ['a crit header', () => forge(header({ crit: ['exp'] }), claims()), 'invalid'],
    ['an unknown kid', () => forge(header({ kid: 'k-2' }), claims()), 'invalid'],
    ['no kid', () => forge(header({ kid: undefined }), claims()), 'invalid'],
    ['signed with another secret', () => forge(header(), claims(), other), 'invalid'],
    ['another issuer', () => forge(header(), claims({ iss: 'them' })), 'invalid'],
    ['another audience', () => forge(header(), claims({ aud: 'order-protection:quote' })), 'invalid'],
    ['no sub', () => forge(header(), claims({ sub: undefined })), 'invalid'],
    ['a numeric sub', () => forge(header(), claims({ sub: 42 as unknown as string })), 'invalid'],
    ['no iat', () => forge(header(), claims({ iat: undefined })), 'invalid'],
    ['an iat 6 s ahead', () => forge(header(), claims({ iat: NOW + 6 })), 'invalid'],
    ['an iat older than the lifetime (and the 5 s tolerance)', () => forge(header(), claims({ iat: NOW - 906 })), 'expired'],
    ['no exp', () => forge(header(), claims({ exp: undefined })), 'invalid'],
    ['exp as a string', () => forge(header(), claims({ exp: String(NOW + 60) as unknown as number })), 'invalid'],
    ['nbf in the future', () => forge(header(), claims({ nbf: NOW + 30 })), 'invalid'],
    ['expired', () => forge(header(), claims({ exp: NOW - 5 })), 'expired'],
    ['expired but badly signed', () => forge(header(), claims({ exp: NOW - 6 }), other), 'invalid'],
    ['an array payload', () => forge(header(), [claims()]), 'invalid'],
    ['a null payload', () => forge(header(), null), 'invalid'],
    ['a payload that is not JSON', () => forge(header(), 'not json'), 'invalid'],
    ['four segments', () => `${forge(header(), claims())}.x`, 'invalid'],
    ['padded base64', () => forge(header(), claims()).replace(/\.([^.]+)$/, '.$1='), 'invalid'],
    ['an empty string', () => '', 'invalid'],
    ['an oversized token', () => forge(header(), claims({ filler: 'x'.repeat(5000) })), 'invalid'],
  ];
  it.each(refused)('refuses %s', async (_, make, reason) => {
    expect(await verify(await make())).toEqual({ ok: false, reason });
  });

  it('accepts an audience list that names us, a past nbf, an iat up to 5 s ahead', async () => {
    expect((await verify(forge(header(), claims({ aud: ['other', 'order-protection:api'], nbf: NOW - 5 })))).ok).toBe(true);
    expect((await verify(forge(header(), claims({ iat: NOW + 5 })))).ok).toBe(true);
  });
});
