import { signJwt, verifyJwt, type JwtClaims } from './jwt.js';
import { keySet, verificationKeys, type TokenKind } from './signing-keys.js';

/**
 * Access tokens and quote tokens: HS256 with a `kid`, each kind with its own keys, `aud` and
 * `typ`. Verification pins the algorithm, issuer, audience and type, so one kind can never pass
 * as the other, and `alg: none` or an asymmetric algorithm is refused outright (shared/auth/jwt.ts).
 */
export const ISSUER = 'order-protection';
const PROFILE: Record<TokenKind, { aud: string; typ: string }> = {
  access: { aud: 'order-protection:api', typ: 'at+jwt' },
  quote: { aud: 'order-protection:quote', typ: 'op-quote+jwt' },
};

export async function signToken(kind: TokenKind, subject: string, claims: JwtClaims, ttlSeconds: number, now = new Date()): Promise<string> {
  const current = await keySet(kind);
  const iat = Math.floor(now.getTime() / 1000);
  return signJwt(current, PROFILE[kind].typ, { ...claims, iss: ISSUER, aud: PROFILE[kind].aud, sub: subject, iat, exp: iat + ttlSeconds });
}

/** Why a token was refused; callers map it to their own status (401 for access, 422 for quotes). */
export type TokenFailure = 'expired' | 'invalid';

export type VerifyResult<T> = { ok: true; payload: T } | { ok: false; reason: TokenFailure };

export async function verifyToken<T extends JwtClaims>(kind: TokenKind, token: string, now = new Date()): Promise<VerifyResult<T>> {
  const keys = verificationKeys(await keySet(kind));
  return verifyJwt<T>(token, { keys, ...PROFILE[kind], iss: ISSUER, now: Math.floor(now.getTime() / 1000) });
}
