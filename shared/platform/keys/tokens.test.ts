import { SignJWT } from 'jose';
import { beforeEach, describe, expect, it } from 'vitest';
import { forgetKeySets, generateKeySet, type KeySet } from './signing-keys.js';
import { signToken, verifyToken } from './tokens.js';

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
