import { staffFromClaims, type TokenClaims } from '../platform/staff.js';

export interface MerchantUserDeps {
  verify: (token: string) => Promise<TokenClaims | undefined>;
  statuses: { status(clientId: string): Promise<{ disabled?: boolean } | undefined> };
  /** The route keys (`GET /api/v2/ledger`) a merchant user may call: the portal's. */
  portalRoutes: ReadonlySet<string>;
}

export type MerchantUserCheck = { ok: true; clientId: string } | { ok: false; reason: 'invalid' | 'forbidden_role' | 'client_disabled' };

/**
 * A merchant user's access token on a merchant route: verified against the staff issuer, in the
 * `merchant` group with the client its token names (the issuer adds it; a request never chooses
 * it), on a route of the portal, for a client that is not disabled.
 */
export async function authorizeMerchantUser(deps: MerchantUserDeps, token: string, routeKey: string): Promise<MerchantUserCheck> {
  const identity = staffFromClaims(await deps.verify(token));
  if (!identity) return { ok: false, reason: 'invalid' };
  if (!identity.roles.includes('merchant') || !identity.merchantClientId || !deps.portalRoutes.has(routeKey)) return { ok: false, reason: 'forbidden_role' };
  const status = await deps.statuses.status(identity.merchantClientId);
  // The person's sign-in is fine; their shop is not: signing in again would not help, so not a 401.
  if (!status || status.disabled) return { ok: false, reason: 'client_disabled' };
  return { ok: true, clientId: identity.merchantClientId };
}
