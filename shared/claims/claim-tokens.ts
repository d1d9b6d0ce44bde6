import { AuthenticationError } from '../platform/errors.js';
import { signToken, verifyToken } from '../platform/keys/tokens.js';

/**
 * Claim tokens: what a customer gets for proving an order is theirs (its number, the e-mail on it,
 * the merchant's public key). Short-lived, bound to one order of one client, signed with a key of
 * their own under their own `typ` and `aud`: never an access or quote token, nor the reverse.
 */
export interface ClaimSession {
  clientId: string;
  orderId: string;
}

export const signClaimToken = (session: ClaimSession, ttlSeconds: number, now: Date): Promise<string> =>
  signToken('claim', session.clientId, { ord: session.orderId }, ttlSeconds, now);

/** The session an `Authorization: Bearer <claim_token>` header (or `Claim <token>`) carries; 401 otherwise. */
export async function claimSessionOf(authorization: string | undefined, now = new Date()): Promise<ClaimSession> {
  const match = /^(?:Bearer|Claim) +(\S+)$/i.exec(authorization ?? '');
  if (!match)
    throw new AuthenticationError('invalid_claim_token', 'A claim token is required: Authorization: Bearer <claim_token> (POST /api/v2/claims/sessions).');
  const verified = await verifyToken<{ ord?: unknown }>('claim', match[1]!, now);
  if (!verified.ok) {
    throw verified.reason === 'expired'
      ? new AuthenticationError('claim_token_expired', 'The claim session has expired; start a new one (POST /api/v2/claims/sessions).')
      : new AuthenticationError('invalid_claim_token', 'The claim token is not valid.');
  }
  const { sub, ord } = verified.payload;
  if (typeof sub !== 'string' || typeof ord !== 'string') throw new AuthenticationError('invalid_claim_token', 'The claim token is not valid.');
  return { clientId: sub, orderId: ord };
}
