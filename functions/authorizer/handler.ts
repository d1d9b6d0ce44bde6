import type { APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult } from 'aws-lambda';
import { authorizeAccessToken, cachedClientStatuses } from '#shared/clients/access-tokens.js';
import { authorizeMerchantUser, issuerOf, staffIssuerFromEnv, staffTokenVerifier } from '#shared/identity/index.js';
import { loadConfig } from '#shared/platform/config.js';
import { systemClock } from '#shared/platform/clock.js';
import { portalRouteKeys } from '#shared/platform/functions.js';
import type { AuthorizerContext } from '#shared/platform/http/middleware.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';

const SCHEME = /^(?:JWT|Bearer) +([A-Za-z0-9_.-]+)$/i;

const config = loadConfig();
const statuses = cachedClientStatuses(new DynamoClientStore(sharedDocumentClient(), config.tableName), systemClock);
const deps = { statuses, clock: systemClock, ttlSeconds: config.accessTokenTtlSeconds };
// Merchant users of the portal sign in with the staff issuer (deployed: the Cognito user pool).
const staffIssuer = staffIssuerFromEnv();
const merchantUsers = staffIssuer && { issuer: staffIssuer.issuer, verify: staffTokenVerifier(staffIssuer), statuses, portalRoutes: portalRouteKeys };

/**
 * Lambda authorizer (HTTP API, simple responses) for every merchant route. Verifies the access
 * token, then its client's status (cached a minute per container), and hands the client id to
 * the handler. On the portal's routes a merchant user's sign-in is taken too: the client is the one
 * its token names (never one the request names).
 *
 * It always answers isAuthorized: true: HTTP APIs cannot shape an authorizer's rejection, so a
 * failed check travels as `auth_error` and the handler's middleware answers 401 in the error
 * envelope before any business code runs (see docs/security.md).
 */
export async function handler(
  event: Pick<APIGatewayRequestAuthorizerEventV2, 'headers'> & { routeKey?: string },
): Promise<APIGatewaySimpleAuthorizerWithContextResult<AuthorizerContext>> {
  const header = event.headers?.authorization ?? event.headers?.Authorization;
  const token = header ? SCHEME.exec(header.trim())?.[1] : undefined;
  if (!token) return { isAuthorized: true, context: { auth_error: 'missing' } };
  const result =
    merchantUsers && issuerOf(token) === merchantUsers.issuer
      ? await authorizeMerchantUser(merchantUsers, token, event.routeKey ?? '')
      : await authorizeAccessToken(deps, token);
  if (!result.ok) return { isAuthorized: true, context: { auth_error: result.reason } };
  return { isAuthorized: true, context: { client_id: result.clientId } };
}
