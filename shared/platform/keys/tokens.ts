import { errors, jwtVerify, SignJWT, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { loadConfig } from '../config.js';
import { keySet, verificationKeys, type SigningKey, type TokenKind } from './signing-keys.js';

/**
 * Access, quote and claim tokens, signed and verified with jose: HS256 with a `kid`, each kind
 * with its own keys, `aud` and `typ`. Verification pins the algorithm, issuer, audience, type and
 * the claims every token must carry, and bounds its age by the kind's lifetime, so one kind can
 * never pass as the other and `alg: none` or an asymmetric algorithm is refused outright.
 */
const ISSUER = 'order-protection';
const PROFILE: Record<TokenKind, { aud: string; typ: string }> = {
  access: { aud: 'order-protection:api', typ: 'at+jwt' },
  quote: { aud: 'order-protection:quote', typ: 'op-quote+jwt' },
  claim: { aud: 'order-protection:claim', typ: 'op-claim+jwt' },
};
const config = loadConfig();
const LIFETIME: Record<TokenKind, number> = { access: config.accessTokenTtlSeconds, quote: config.quoteTokenTtlSeconds, claim: config.claimTokenTtlSeconds };
/**
 * Clock skew allowed between the instance that signed and the one that verifies (`iat` is whole
 * seconds, so even a few milliseconds of skew can put it a second ahead). Also how long past `exp`
 * a token is still taken. Well inside the contract's 60 s.
 */
const CLOCK_TOLERANCE_SECONDS = 5;
/** Far above any token we issue (about 500 characters); anything longer is not read. */
const MAX_TOKEN_LENGTH = 4096;

export type TokenClaims = { [claim: string]: unknown; sub?: string; iat?: number; exp?: number };

/**
 * Each secret imported once as an HMAC CryptoKey: given the raw bytes, jose imports a key on every
 * sign and verify, which was a third of a checkout's own CPU (bench/profile.ts).
 */
const cryptoKeys = new Map<string, Promise<CryptoKey>>();
const cryptoKeyOf = (key: SigningKey): Promise<CryptoKey> => {
  let imported = cryptoKeys.get(key.secret);
  if (!imported) {
    imported = crypto.subtle.importKey('raw', new TextEncoder().encode(key.secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    cryptoKeys.set(key.secret, imported);
  }
  return imported;
};

export async function signToken(kind: TokenKind, subject: string, claims: TokenClaims, ttlSeconds: number, now = new Date()): Promise<string> {
  const current = await keySet(kind);
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', kid: current.kid, typ: PROFILE[kind].typ })
    .setIssuer(ISSUER)
    .setAudience(PROFILE[kind].aud)
    .setSubject(subject)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttlSeconds)
    .sign(await cryptoKeyOf(current));
}

/** Why a token was refused; callers map it to their own status (401 for access, 422 for quotes). */
export type TokenFailure = 'expired' | 'invalid';

export type VerifyResult<T> = { ok: true; payload: T & JWTPayload } | { ok: false; reason: TokenFailure };

/**
 * Each segment in its one canonical base64url spelling. jose decodes leniently (the unused low
 * bits of a signature's last character are ignored), so without this a token would have several
 * valid spellings.
 */
const canonical = (token: string): boolean =>
  token.split('.').every((segment) => /^[A-Za-z0-9_-]+$/.test(segment) && Buffer.from(segment, 'base64url').toString('base64url') === segment);

export async function verifyToken<T extends TokenClaims>(kind: TokenKind, token: string, now = new Date()): Promise<VerifyResult<T>> {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH || !canonical(token)) return { ok: false, reason: 'invalid' };
  const keys = verificationKeys(await keySet(kind));
  const keyFor: JWTVerifyGetKey = ({ kid }) => {
    const key = keys.find((candidate) => candidate.kid === kid);
    if (!key) throw new errors.JWKSNoMatchingKey();
    return cryptoKeyOf(key);
  };
  try {
    const { payload } = await jwtVerify(token, keyFor, {
      algorithms: ['HS256'],
      typ: PROFILE[kind].typ,
      issuer: ISSUER,
      audience: PROFILE[kind].aud,
      requiredClaims: ['sub', 'iat', 'exp'],
      maxTokenAge: LIFETIME[kind],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      currentDate: now,
    });
    if (typeof payload.sub !== 'string') return { ok: false, reason: 'invalid' };
    return { ok: true, payload: payload as T & JWTPayload };
  } catch (err) {
    return { ok: false, reason: err instanceof errors.JWTExpired ? 'expired' : 'invalid' };
  }
}
