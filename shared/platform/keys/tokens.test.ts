import fc from 'fast-check';
import { SignJWT } from 'jose';
import { beforeEach, describe, expect, it } from 'vitest';
import { forgetKeySets, generateKeySet, type KeySet } from './signing-keys.js';
import { canonicalSegment, signToken, verifyToken } from './tokens.js';

/** Signing and verification, key rotation by kid, and the two token kinds never crossing. */
let access: KeySet;
let quote: KeySet;
function useKeys(next: { access: KeySet; quote: KeySet }) {
  process.env.SIGNING_KEYS = JSON.stringify(next);
  forgetKeySets();
}

beforeEach(() => {
  access = generateKeySet('access');
  quote = generateKeySet('quote');
  useKeys({ access, quote });
});

describe('tokens', () => {
  it('verify with the key that signed them and carry the subject', async () => {
    const token = await signToken('access', 'cl_1', {}, 60);
    expect(await verifyToken('access', token)).toMatchObject({ ok: true, payload: { sub: 'cl_1', iss: 'order-protection', aud: 'order-protection:api' } });
  });

  it('never pass as the other kind', async () => {
    expect(await verifyToken('quote', await signToken('access', 'cl_1', {}, 60))).toEqual({ ok: false, reason: 'invalid' });
    expect(await verifyToken('access', await signToken('quote', 'cl_1', {}, 60))).toEqual({ ok: false, reason: 'invalid' });
  });

  it('say expired when expired', async () => {
    expect(await verifyToken('access', await signToken('access', 'cl_1', {}, -10))).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuse a token with an unknown kid, even if the key happens to be right', async () => {
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', kid: 'someone-elses', typ: 'at+jwt' })
      .setIssuer('order-protection')
      .setAudience('order-protection:api')
      .setSubject('cl_1')
      .setIssuedAt()
      .setExpirationTime('1m')
      .sign(new TextEncoder().encode(access.secret));
    expect(await verifyToken('access', token)).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('rotation by kid', () => {
  it('keeps verifying tokens of the previous key during the grace period, and signs with the new one', async () => {
    const before = await signToken('access', 'cl_1', {}, 60);
    const next = generateKeySet('access');
    useKeys({ access: { ...next, previous: [access] }, quote });

    const after = await signToken('access', 'cl_1', {}, 60);

    expect((await verifyToken('access', before)).ok).toBe(true);
    expect(JSON.parse(Buffer.from(after.split('.')[0]!, 'base64url').toString()).kid).toBe(next.kid);
  });

  it('stops verifying them once the previous key is dropped', async () => {
    const before = await signToken('access', 'cl_1', {}, 60);
    useKeys({ access: generateKeySet('access'), quote });
    expect(await verifyToken('access', before)).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('canonicalSegment', () => {
  const reencoded = (segment: string) => /^[A-Za-z0-9_-]+$/.test(segment) && Buffer.from(segment, 'base64url').toString('base64url') === segment;
  const base64urlText = fc.string({
    unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'),
    minLength: 1,
    maxLength: 12,
  });

  it('agrees with decoding and re-encoding, on base64url text and on anything else', () => {
    fc.assert(
      fc.property(fc.oneof(base64urlText, fc.string({ maxLength: 12 })), (segment) => {
        expect(canonicalSegment(segment)).toBe(reencoded(segment));
      }),
      { numRuns: 5_000 },
    );
  });

  it('refuses a signature whose last character carries spare bits', () => {
    const bytes = Buffer.from('0123456789abcdef0123456789abcdef');
    const exact = bytes.toString('base64url');
    expect(canonicalSegment(exact)).toBe(true);
    const last = exact[exact.length - 1]!;
    const sibling = String.fromCharCode(last.charCodeAt(0) + 1);
    expect(Buffer.from(exact.slice(0, -1) + sibling, 'base64url').equals(bytes)).toBe(true);
    expect(canonicalSegment(exact.slice(0, -1) + sibling)).toBe(false);
  });
});
