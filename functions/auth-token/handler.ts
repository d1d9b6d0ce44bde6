import * as v from 'valibot';
import { issueAccessToken } from '#shared/clients/manage-clients.js';
import { loadConfig } from '#shared/platform/config.js';
import { systemClock } from '#shared/platform/clock.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { jsonResponse } from '#shared/platform/http/envelope.js';
import { httpHandler } from '#shared/platform/http/middleware.js';
import { parseInput } from '#shared/platform/http/validation.js';

const config = loadConfig();
const deps = { clients: new DynamoClientStore(sharedDocumentClient(), config.tableName), clock: systemClock, ttlSeconds: config.accessTokenTtlSeconds };

const TokenRequest = v.strictObject({
  public_key: v.pipe(v.string(), v.minLength(1), v.maxLength(255)),
  secret_key: v.pipe(v.string(), v.minLength(1), v.maxLength(255)),
});

/** POST /api/v2/auth/token: exchanges a client's keys for a short-lived access token (429 while the key is locked). */
export const handler = httpHandler(
  async (event) => {
    const { public_key, secret_key } = parseInput(TokenRequest, event.body);
    const token = await issueAccessToken(deps, public_key, secret_key);
    return jsonResponse(200, token, { 'cache-control': 'no-store' });
  },
  { jsonBody: true },
);
