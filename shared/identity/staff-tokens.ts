import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import type { TokenClaims } from '../platform/staff.js';

/** The issuer whose access tokens are accepted, and the client ids they may be issued to. */
export interface StaffIssuer {
  issuer: string;
  /** Client ids (the pages' and the scripts'): a token's `client_id` (Cognito) or `aud` must name one. */
  audiences: readonly string[];
}

/** Only asymmetric signatures: an HMAC token signed with a public key is refused by algorithm. */
export const STAFF_TOKEN_ALGORITHMS = ['RS256', 'ES256', 'PS256'];
/** Clock skew tolerated on `exp` and `nbf`, as API Gateway's JWT authorizer allows none: none here either. */
export const STAFF_TOKEN_CLOCK_TOLERANCE_SECONDS = 0;

/**
 * Verifies an access token as API Gateway's JWT authorizer does (deployed, the admin routes are
 * checked there): signature by the issuer's JWKS (fetched once, refreshed on an unknown `kid`),
 * `iss`, `exp`/`nbf`, and `aud` or `client_id` among the audiences. Answers the claims, or
 * undefined for any token that fails. Used by npm start's gateway on the admin routes and by the
 * merchant routes' authorizer for merchant users' tokens.
 */
export function staffTokenVerifier(config: StaffIssuer, jwksUri = new URL(`${config.issuer.replace(/\/$/, '')}/.well-known/jwks.json`)) {
  const keys = createRemoteJWKSet(jwksUri, { timeoutDuration: 3000, cooldownDuration: 30_000 });
  return async (token: string): Promise<TokenClaims | undefined> => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: config.issuer,
        algorithms: STAFF_TOKEN_ALGORITHMS,
        clockTolerance: STAFF_TOKEN_CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['exp', 'sub'],
      }));
    } catch (err) {
      if (err instanceof errors.JWKSTimeout) throw err;
      if (err instanceof errors.JOSEError) return undefined;
      throw err; // the issuer unreachable is not the caller's fault
    }
    const audiences = [...(Array.isArray(payload.aud) ? payload.aud : payload.aud ? [payload.aud] : []), payload.client_id].filter(
      (a): a is string => typeof a === 'string',
    );
    return audiences.some((a) => config.audiences.includes(a)) ? payload : undefined;
  };
}

/** Whether a JWT (unverified) names this issuer: which verifier a bearer token is for. */
export function issuerOf(token: string): string | undefined {
  const [, body] = token.split('.');
  if (!body) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { iss?: unknown };
    return typeof payload.iss === 'string' ? payload.iss : undefined;
  } catch {
    return undefined;
  }
}
