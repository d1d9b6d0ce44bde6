import { SignJWT, type JWTPayload } from 'jose';
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { loadConfig } from '../config.js';
import { keySet, verificationKeys, type SigningKey, type TokenKind } from './signing-keys.js';

/**
 * Access, quote and claim tokens, signed with jose and verified on node:crypto: HS256 with a `kid`, each kind
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
const canonical = (token: string): boolean => token.split('.').every(canonicalSegment);

/**
 * A base64url segment is canonical when its length leaves no lone character (length % 4 ≠ 1) and
 * the bits its last character holds beyond the last whole byte are zero: 4 spare bits after two
 * trailing characters, 2 after three. The same verdict as a decode and re-encode compared with the
 * text (tokens.test.ts holds the two equal on random segments), without making two buffers a segment.
 */
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
export function canonicalSegment(segment: string): boolean {
  if (!BASE64URL.test(segment)) return false;
  const spare = segment.length % 4;
  if (spare === 0) return true;
  if (spare === 1) return false;
  const last = ALPHABET.indexOf(segment[segment.length - 1]!);
  return (last & (spare === 2 ? 0b1111 : 0b11)) === 0;
}

/** Each secret as a node:crypto key, made once. */
const hmacKeys = new Map<string, KeyObject>();
const hmacKeyOf = (key: SigningKey): KeyObject => {
  let made = hmacKeys.get(key.secret);
  if (!made) {
    made = createSecretKey(Buffer.from(key.secret, 'utf8'));
    hmacKeys.set(key.secret, made);
  }
  return made;
};

/** The header every token of ours carries, and nothing else: `{alg: 'HS256', kid, typ}`. */
const HEADER_NAMES = new Set(['alg', 'kid', 'typ']);
const HS256_BYTES = 32;

const segmentJson = (segment: string): unknown => {
  try {
    return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
};
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * Verification on node:crypto's HMAC rather than jose's: jose verifies through WebCrypto, about
 * 35 µs an HMAC against 4 µs here, and a checkout verifies a token on every request (the bench's
 * CPU-per-request goal; bench/README.md). Signing stays jose's. The checks are jose's, stricter
 * where ours can be (the exact header; what jose refuses is refused here too, which
 * tokens.forgery.test.ts holds against jose itself on random tokens): the one canonical spelling,
 * `{alg: HS256, kid, typ}` with this kind's `typ` and a known `kid`, the HMAC in constant time, then
 * issuer, audience (or an audience list naming it), a string subject, `iat` and `exp` as numbers,
 * expiry, age within the kind's lifetime, `iat` and `nbf` not ahead, each with the clock tolerance.
 */
export async function verifyToken<T extends TokenClaims>(kind: TokenKind, token: string, now = new Date()): Promise<VerifyResult<T>> {
  const invalid = { ok: false, reason: 'invalid' } as const;
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH || !canonical(token)) return invalid;
  const segments = token.split('.');
  if (segments.length !== 3) return invalid;
  const [head, body, signature] = segments as [string, string, string];
  const header = segmentJson(head);
  if (!isObject(header) || header.alg !== 'HS256' || header.typ !== PROFILE[kind].typ || typeof header.kid !== 'string') return invalid;
  for (const name in header) if (!HEADER_NAMES.has(name)) return invalid;
  const key = verificationKeys(await keySet(kind)).find((candidate) => candidate.kid === header.kid);
  if (!key) return invalid;
  const given = Buffer.from(signature, 'base64url');
  const expected = createHmac('sha256', hmacKeyOf(key)).update(`${head}.${body}`).digest();
  if (given.length !== HS256_BYTES || !timingSafeEqual(given, expected)) return invalid;

  const payload = segmentJson(body);
  if (!isObject(payload) || payload.iss !== ISSUER) return invalid;
  const aud = payload.aud;
  if (!(aud === PROFILE[kind].aud || (Array.isArray(aud) && aud.includes(PROFILE[kind].aud)))) return invalid;
  if (typeof payload.sub !== 'string' || payload.sub === '' || !isTime(payload.iat) || !isTime(payload.exp)) return invalid;
  if (payload.nbf !== undefined && !isTime(payload.nbf)) return invalid;
  const seconds = Math.floor(now.getTime() / 1000);
  const age = seconds - payload.iat;
  if (age < -CLOCK_TOLERANCE_SECONDS || (isTime(payload.nbf) && payload.nbf > seconds + CLOCK_TOLERANCE_SECONDS)) return invalid;
  if (payload.exp <= seconds - CLOCK_TOLERANCE_SECONDS || age - CLOCK_TOLERANCE_SECONDS > LIFETIME[kind]) return { ok: false, reason: 'expired' };
  return { ok: true, payload: payload as T & JWTPayload };
}
