import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Compact JWS / JWT with HS256 only, on node:crypto.
 *
 * Why not jose at run time: jose works on WebCrypto, and touching WebCrypto in Node costs every
 * cold start ~10–15 ms (the bench measured it on orders-create, where a customer is waiting at
 * checkout) and 15 KB of bundle, for the one algorithm we use. What this module accepts is
 * deliberately narrow: `alg` exactly HS256, `typ` and `kid` exactly as expected, no `crit`, the
 * signature checked (constant time) before any claim is read, canonical base64url everywhere.
 * jose stays a dev dependency: `jwt.test.ts` checks this module against it both ways.
 */
export interface JwtKey { kid: string; secret: string }

export type JwtClaims = { [claim: string]: unknown; iss?: string; aud?: string | string[]; sub?: string; iat?: number; exp?: number; nbf?: number };

export interface JwtExpectations {
  /** The keys that may have signed it, looked up by the header's `kid`. */
  keys: readonly JwtKey[];
  typ: string;
  iss: string;
  aud: string;
  /** Seconds since the epoch. */
  now: number;
}

export type JwtResult<T> = { ok: true; payload: T } | { ok: false; reason: 'expired' | 'invalid' };

const ALG = 'HS256';
const MAX_TOKEN_LENGTH = 8192;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

const encode = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');
const mac = (secret: string, input: string): Buffer => createHmac('sha256', secret).update(input).digest();

export function signJwt(key: JwtKey, typ: string, claims: JwtClaims): string {
  const input = `${encode({ alg: ALG, kid: key.kid, typ })}.${encode(claims)}`;
  return `${input}.${mac(key.secret, input).toString('base64url')}`;
}

/** A base64url segment decoded only if it is canonical (what re-encoding gives back). */
function decodeSegment(segment: string): Buffer | undefined {
  if (!BASE64URL.test(segment)) return undefined;
  const bytes = Buffer.from(segment, 'base64url');
  return bytes.toString('base64url') === segment ? bytes : undefined;
}

function decodeObject(segment: string): Record<string, unknown> | undefined {
  const bytes = decodeSegment(segment);
  if (!bytes) return undefined;
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

export function verifyJwt<T extends JwtClaims>(token: string, expected: JwtExpectations): JwtResult<T> {
  const invalid = { ok: false, reason: 'invalid' } as const;
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return invalid;
  const segments = token.split('.');
  if (segments.length !== 3) return invalid;
  const [encodedHeader, encodedPayload, encodedSignature] = segments as [string, string, string];

  const header = decodeObject(encodedHeader);
  if (!header || header.alg !== ALG || header.typ !== expected.typ || 'crit' in header || typeof header.kid !== 'string') return invalid;
  const key = expected.keys.find((candidate) => candidate.kid === header.kid);
  if (!key) return invalid;
  const signature = decodeSegment(encodedSignature);
  const wanted = mac(key.secret, `${encodedHeader}.${encodedPayload}`);
  if (!signature || signature.length !== wanted.length || !timingSafeEqual(signature, wanted)) return invalid;

  // Only a payload we signed is read.
  const payload = decodeObject(encodedPayload);
  if (!payload) return invalid;
  const audience = payload.aud;
  const audienceMatches = audience === expected.aud || (Array.isArray(audience) && audience.includes(expected.aud));
  if (payload.iss !== expected.iss || !audienceMatches || typeof payload.sub !== 'string' || !isTime(payload.iat) || !isTime(payload.exp)) return invalid;
  if (payload.nbf !== undefined && (!isTime(payload.nbf) || payload.nbf > expected.now)) return invalid;
  if (payload.exp <= expected.now) return { ok: false, reason: 'expired' };
  return { ok: true, payload: payload as T };
}
