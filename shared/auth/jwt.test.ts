import fc from 'fast-check';
import { SignJWT, jwtVerify } from 'jose';
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signJwt, verifyJwt, type JwtClaims, type JwtExpectations } from './jwt.js';

/**
 * The run-time JWT module, checked against jose (the reference implementation, a dev dependency
 * here): what one signs the other verifies, and ours never accepts what jose refuses.
 */
const key = { kid: 'k-1', secret: 'a-secret-of-at-least-thirty-two-characters' };
const NOW = 1_900_000_000;
const expect_ = (overrides: Partial<JwtExpectations> = {}): JwtExpectations => ({ keys: [key], typ: 'at+jwt', iss: 'op', aud: 'op:api', now: NOW, ...overrides });
const claims = (overrides: JwtClaims = {}): JwtClaims => ({ iss: 'op', aud: 'op:api', sub: 'cl_1', iat: NOW - 10, exp: NOW + 60, ...overrides });
const secretBytes = (secret: string) => new TextEncoder().encode(secret);
const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** A token with any header and payload, signed (HS256 over the given segments) with `secret`. */
function forge(header: unknown, payload: unknown, secret = key.secret, algorithm = 'sha256') {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${createHmac(algorithm, secret).update(input).digest('base64url')}`;
}

const joseVerify = (token: string, options: JwtExpectations) =>
  jwtVerify(token, secretBytes(key.secret), { algorithms: ['HS256'], typ: options.typ, issuer: options.iss, audience: options.aud, currentDate: new Date(options.now * 1000), requiredClaims: ['sub', 'iat', 'exp'] })
    .then(() => true, () => false);

const claimsArbitrary = fc.record({
  sub: fc.string({ minLength: 1, maxLength: 40 }),
  qid: fc.option(fc.string(), { nil: undefined }),
  opt_in: fc.option(fc.boolean(), { nil: undefined }),
  items: fc.option(fc.array(fc.record({ r: fc.string(), c: fc.integer() }), { maxLength: 4 }), { nil: undefined }),
}, { requiredKeys: ['sub'] });

describe('HS256 JWT against jose', () => {
  it('what we sign, jose verifies with the same claims', async () => {
    await fc.assert(fc.asyncProperty(claimsArbitrary, async (extra) => {
      const token = signJwt(key, 'at+jwt', claims(JSON.parse(JSON.stringify(extra))));
      const { payload, protectedHeader } = await jwtVerify(token, secretBytes(key.secret), { algorithms: ['HS256'], typ: 'at+jwt', issuer: 'op', audience: 'op:api', currentDate: new Date(NOW * 1000) });
      expect(protectedHeader).toEqual({ alg: 'HS256', kid: 'k-1', typ: 'at+jwt' });
      expect(payload).toEqual(claims(JSON.parse(JSON.stringify(extra))));
    }), { numRuns: 200 });
  });

  it('what jose signs, we verify with the same claims', async () => {
    await fc.assert(fc.asyncProperty(claimsArbitrary, async (extra) => {
      const body = JSON.parse(JSON.stringify(extra));
      const token = await new SignJWT(body).setProtectedHeader({ alg: 'HS256', kid: 'k-1', typ: 'at+jwt' }).setIssuer('op').setAudience('op:api').setIssuedAt(NOW - 10).setExpirationTime(NOW + 60).sign(secretBytes(key.secret));
      expect(verifyJwt(token, expect_())).toEqual({ ok: true, payload: { ...body, iss: 'op', aud: 'op:api', iat: NOW - 10, exp: NOW + 60 } });
    }), { numRuns: 200 });
  });

  it('refuses every one-character change of a valid token', () => {
    const token = signJwt(key, 'at+jwt', claims());
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=';
    fc.assert(fc.property(fc.nat(token.length - 1), fc.constantFrom(...alphabet), (at, char) => {
      fc.pre(token[at] !== char);
      expect(verifyJwt(token.slice(0, at) + char + token.slice(at + 1), expect_()).ok).toBe(false);
    }), { numRuns: 1000 });
  });

  it('never accepts a correctly signed token that jose refuses (random headers and claims)', async () => {
    // Each field is mostly valid, so that both acceptance and each single refusal are common.
    const mostly = <T>(valid: T, ...others: T[]) => fc.oneof({ arbitrary: fc.constant(valid), weight: 12 }, { arbitrary: fc.constantFrom(...others), weight: 1 });
    const time = (valid: fc.Arbitrary<number | undefined>) => fc.oneof({ arbitrary: valid, weight: 12 }, { arbitrary: fc.constantFrom<unknown>(undefined, String(NOW), Number.NaN, null), weight: 1 });
    const header = fc.record({
      alg: mostly('HS256', 'HS384', 'none', 'RS256', 'hs256'),
      typ: mostly<string | undefined>('at+jwt', 'AT+JWT', 'application/at+jwt', 'jwt', undefined),
      kid: mostly<string | undefined>('k-1', 'k-2', undefined),
      crit: mostly<string[] | undefined>(undefined, ['exp'], []),
    });
    const payload = fc.record({
      iss: mostly<string | undefined>('op', 'them', undefined),
      aud: mostly<unknown>('op:api', ['op:api', 'x'], ['x'], 'op:quote', undefined),
      sub: mostly<unknown>('cl_1', undefined, 7, ''),
      iat: time(fc.integer({ min: NOW - 100, max: NOW + 100 })),
      exp: time(fc.integer({ min: NOW - 50, max: NOW + 300 })),
      nbf: time(fc.option(fc.integer({ min: NOW - 100, max: NOW + 20 }), { nil: undefined })),
    });
    let accepted = 0;
    await fc.assert(fc.asyncProperty(header, payload, async (h, p) => {
      const token = forge(JSON.parse(JSON.stringify(h)), JSON.parse(JSON.stringify(p)));
      if (verifyJwt(token, expect_()).ok) {
        accepted += 1;
        expect(await joseVerify(token, expect_())).toBe(true);
      }
    }), { numRuns: 1000 });
    expect(accepted).toBeGreaterThan(100);
  });
});

describe('HS256 JWT refusals', () => {
  const refused: [string, string, 'invalid' | 'expired'][] = [
    ['alg none, no signature', `${b64({ alg: 'none', kid: 'k-1', typ: 'at+jwt' })}.${b64(claims())}.`, 'invalid'],
    ['alg none with a signature', forge({ alg: 'none', kid: 'k-1', typ: 'at+jwt' }, claims()), 'invalid'],
    ['HS512 with our key', forge({ alg: 'HS512', kid: 'k-1', typ: 'at+jwt' }, claims(), key.secret, 'sha512'), 'invalid'],
    ['RS256 header over an HMAC', forge({ alg: 'RS256', kid: 'k-1', typ: 'at+jwt' }, claims()), 'invalid'],
    ['another typ', forge({ alg: 'HS256', kid: 'k-1', typ: 'op-quote+jwt' }, claims()), 'invalid'],
    ['no typ', forge({ alg: 'HS256', kid: 'k-1' }, claims()), 'invalid'],
    ['a crit header', forge({ alg: 'HS256', kid: 'k-1', typ: 'at+jwt', crit: ['exp'] }, claims()), 'invalid'],
    ['an unknown kid', forge({ alg: 'HS256', kid: 'k-2', typ: 'at+jwt' }, claims()), 'invalid'],
    ['no kid', forge({ alg: 'HS256', typ: 'at+jwt' }, claims()), 'invalid'],
    ['signed with another secret', forge({ alg: 'HS256', kid: 'k-1', typ: 'at+jwt' }, claims(), 'another-secret-of-at-least-thirty-two-chars'), 'invalid'],
    ['another issuer', signJwt(key, 'at+jwt', claims({ iss: 'them' })), 'invalid'],
    ['another audience', signJwt(key, 'at+jwt', claims({ aud: 'op:quote' })), 'invalid'],
    ['no sub', signJwt(key, 'at+jwt', claims({ sub: undefined })), 'invalid'],
    ['a numeric sub', signJwt(key, 'at+jwt', claims({ sub: 42 as unknown as string })), 'invalid'],
    ['no iat', signJwt(key, 'at+jwt', claims({ iat: undefined })), 'invalid'],
    ['no exp', signJwt(key, 'at+jwt', claims({ exp: undefined })), 'invalid'],
    ['exp as a string', signJwt(key, 'at+jwt', claims({ exp: String(NOW + 60) as unknown as number })), 'invalid'],
    ['nbf in the future', signJwt(key, 'at+jwt', claims({ nbf: NOW + 30 })), 'invalid'],
    ['expired', signJwt(key, 'at+jwt', claims({ exp: NOW })), 'expired'],
    ['expired but badly signed', forge({ alg: 'HS256', kid: 'k-1', typ: 'at+jwt' }, claims({ exp: NOW - 1 }), 'another-secret-of-at-least-thirty-two-chars'), 'invalid'],
    ['an array payload', forge({ alg: 'HS256', kid: 'k-1', typ: 'at+jwt' }, [claims()]), 'invalid'],
    ['a null payload', forge({ alg: 'HS256', kid: 'k-1', typ: 'at+jwt' }, null), 'invalid'],
    ['a payload that is not JSON', forge({ alg: 'HS256', kid: 'k-1', typ: 'at+jwt' }, 'not json'), 'invalid'],
    ['four segments', `${signJwt(key, 'at+jwt', claims())}.x`, 'invalid'],
    ['padded base64', signJwt(key, 'at+jwt', claims()).replace(/\.([^.]+)$/, '.$1='), 'invalid'],
    ['an empty string', '', 'invalid'],
    ['an oversized token', signJwt(key, 'at+jwt', claims({ filler: 'x'.repeat(9000) })), 'invalid'],
  ];
  it.each(refused)('refuses %s', (_, token, reason) => {
    expect(verifyJwt(token, expect_())).toEqual({ ok: false, reason });
  });

  it('accepts an audience list that names us, a past nbf, and any key of the set by kid', () => {
    const next = { kid: 'k-2', secret: 'the-next-secret-of-at-least-thirty-two-chars' };
    expect(verifyJwt(signJwt(key, 'at+jwt', claims({ aud: ['other', 'op:api'], nbf: NOW - 5 })), expect_()).ok).toBe(true);
    expect(verifyJwt(signJwt(next, 'at+jwt', claims()), expect_({ keys: [next, key] })).ok).toBe(true);
    expect(verifyJwt(signJwt(key, 'at+jwt', claims()), expect_({ keys: [next, key] })).ok).toBe(true);
  });
});
