import type { APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult } from 'aws-lambda';
import { authorizeAccessToken, cachedClientStatuses } from '#shared/clients/access-tokens.js';
import { loadConfig } from '#shared/platform/config.js';
import { systemClock } from '#shared/platform/clock.js';
import type { AuthorizerContext } from '#shared/platform/http/middleware.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';

const SCHEME = /^(?:JWT|Bearer) +([A-Za-z0-9_.-]+)$/i;

const config = loadConfig();
const deps = {
  statuses: cachedClientStatuses(new DynamoClientStore(sharedDocumentClient(), config.tableName), systemClock),
  clock: systemClock,
  ttlSeconds: config.accessTokenTtlSeconds,
};

/**
 * Lambda authorizer (HTTP API, simple responses) for every merchant route. Verifies the access
 * token, then its client's status (cached a minute per container), and hands the client id to
 * the handler.
 *
 * It always answers isAuthorized: true: HTTP APIs cannot shape an authorizer's rejection, so a
 * failed check travels as `auth_error` and the handler's middleware answers 401 in the error
 * envelope before any business code runs (see docs/security.md).
 */
export async function handler(
  event: Pick<APIGatewayRequestAuthorizerEventV2, 'headers'>,
): Promise<APIGatewaySimpleAuthorizerWithContextResult<AuthorizerContext>> {
  const header = event.headers?.authorization ?? event.headers?.Authorization;
  const token = header ? SCHEME.exec(header.trim())?.[1] : undefined;
  if (!token) return { isAuthorized: true, context: { auth_error: 'missing' } };
  const result = await authorizeAccessToken(deps, token);
  if (!result.ok) return { isAuthorized: true, context: { auth_error: result.reason } };
  return { isAuthorized: true, context: { client_id: result.clientId } };
}
