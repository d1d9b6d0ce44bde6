import { SignJWT, jwtVerify, errors, type JWTPayload, type JWTHeaderParameters } from 'jose';
import { keySet, verificationKeys, type SigningKey, type TokenKind } from './signing-keys.js';

/**
 * Access tokens and quote tokens: HS256 with a `kid`, each kind with its own keys, `aud` and
 * `typ`. Verification pins the algorithm, issuer, audience and type, so one kind can never pass
 * as the other, and `alg: none` or an asymmetric algorithm is refused outright.
 */
export const ISSUER = 'order-protection';
const ALG = 'HS256';
const PROFILE: Record<TokenKind, { aud: string; typ: string }> = {
  access: { aud: 'order-protection:api', typ: 'at+jwt' },
  quote: { aud: 'order-protection:quote', typ: 'op-quote+jwt' },
};

const keyBytes = (key: SigningKey): Uint8Array => new TextEncoder().encode(key.secret);

export async function signToken(kind: TokenKind, subject: string, claims: JWTPayload, ttlSeconds: number, now = new Date()): Promise<string> {
  const current = await keySet(kind);
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: ALG, kid: current.kid, typ: PROFILE[kind].typ })
    .setIssuer(ISSUER)
    .setAudience(PROFILE[kind].aud)
    .setSubject(subject)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttlSeconds)
    .sign(keyBytes(current));
}

/** Why a token was refused; callers map it to their own status (401 for access, 422 for quotes). */
export type TokenFailure = 'expired' | 'invalid';

export type VerifyResult<T> = { ok: true; payload: T } | { ok: false; reason: TokenFailure };

export async function verifyToken<T extends JWTPayload>(kind: TokenKind, token: string): Promise<VerifyResult<T>> {
  const keys = verificationKeys(await keySet(kind));
  const resolveKey = (header: JWTHeaderParameters): Uint8Array => {
    const key = keys.find((k) => k.kid === header.kid);
    if (!key) throw new errors.JWKSNoMatchingKey();
    return keyBytes(key);
  };
  try {
    const { payload } = await jwtVerify<T>(token, resolveKey, {
      algorithms: [ALG],
      issuer: ISSUER,
      audience: PROFILE[kind].aud,
      typ: PROFILE[kind].typ,
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    return { ok: true, payload };
  } catch (err) {
    if (err instanceof errors.JWTExpired) return { ok: false, reason: 'expired' };
    return { ok: false, reason: 'invalid' };
  }
}
