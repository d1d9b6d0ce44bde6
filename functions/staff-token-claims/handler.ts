import type { PreTokenGenerationV2TriggerEvent } from 'aws-lambda';
import { MERCHANT_CLIENT_CLAIM, SCOPE_PREFIX } from '#shared/platform/staff.js';

/** The user pool's attribute binding a merchant user to one client (lib/identity-stack.ts declares it; only an administrator sets it). */
export const MERCHANT_CLIENT_ATTRIBUTE = 'custom:client_id';

/**
 * The claims a person's access token gains: Cognito's access tokens carry neither the e-mail
 * address nor custom attributes, and the API reads both from the access token
 * (shared/platform/staff.ts): the e-mail names the actor in the audit log, `merchant_client_id`
 * the one client a merchant user may see. Taken from the pool's own attributes, never from the
 * request; absent attributes add nothing.
 */
export function accessTokenClaims(userAttributes: Record<string, string | undefined>): Record<string, string> {
  const claims: Record<string, string> = {};
  const email = userAttributes.email;
  if (email) claims.email = email;
  const client = userAttributes[MERCHANT_CLIENT_ATTRIBUTE];
  if (client) claims[MERCHANT_CLIENT_CLAIM] = client;
  return claims;
}

/**
 * The service's role scopes (`order-protection/<role>`) a person's token must not carry: a person's
 * roles are their groups, and staffFromClaims grants a scope's role as it does a group's, so a
 * scope asked for at sign-in would be a role without the group. Only the scripts' client may be
 * granted these scopes (client credentials, which this trigger never sees); the pages' client is
 * not allowed them either: this is the second lock.
 */
export const roleScopesToSuppress = (scopes: readonly string[] | undefined): string[] => (scopes ?? []).filter((scope) => scope.startsWith(SCOPE_PREFIX));

/** The user pool's pre-token-generation trigger (event version 2, which may change the access token). */
export const handler = (event: PreTokenGenerationV2TriggerEvent): Promise<PreTokenGenerationV2TriggerEvent> => {
  const suppress = roleScopesToSuppress(event.request.scopes);
  event.response = {
    claimsAndScopeOverrideDetails: {
      ...event.response?.claimsAndScopeOverrideDetails,
      accessTokenGeneration: {
        claimsToAddOrOverride: accessTokenClaims(event.request.userAttributes),
        ...(suppress.length ? { scopesToSuppress: suppress } : {}),
      },
    },
  };
  return Promise.resolve(event);
};
