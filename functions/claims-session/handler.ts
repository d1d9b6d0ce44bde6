import { signClaimToken } from '#shared/claims/claim-tokens.js';
import { hashOrderNumber } from '#shared/platform/keys/order-number-hash.js';
import { loadConfig } from '#shared/platform/config.js';
import { openSession } from '#shared/claims/claims.js';
import { systemClock } from '#shared/platform/clock.js';
import { claimSessionView } from '#shared/claims/claim-view.js';
import { jsonResponse } from '#shared/platform/http/envelope.js';
import { httpHandler } from '#shared/platform/http/middleware.js';
import { ClaimSessionRequest } from '#shared/claims/schemas.js';
import { parseInput } from '#shared/platform/http/validation.js';
import { DynamoAttemptLimits } from '#shared/claims/dynamo-attempt-limits.js';
import { DynamoClaimStore } from '#shared/claims/dynamo-claim-store.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { DynamoMetricsStore } from '#shared/conversion/dynamo-metrics-store.js';
import { DynamoOrderStore } from '#shared/orders/dynamo-order-store.js';

const config = loadConfig();
const doc = sharedDocumentClient();
const metrics = new DynamoMetricsStore(doc, config.metricsTableName);
const deps = {
  clients: new DynamoClientStore(doc, config.tableName),
  orderHash: hashOrderNumber,
  orderIdByHash: (clientId: string, hash: string) => metrics.orderIdByHash(clientId, hash),
  orders: new DynamoOrderStore(doc, config.tableName, config.metricsTableName),
  claims: new DynamoClaimStore(doc, config.tableName),
  limits: new DynamoAttemptLimits(doc, config.tableName),
  clock: systemClock,
};

/** POST /api/v2/claims/sessions: order number + e-mail + the shop (client id or public key) → a claim token and the order's claimable policies and claims. */
export const handler = httpHandler(
  async (event) => {
    const input = parseInput(ClaimSessionRequest, event.body);
    const { order, claimable, claims } = await openSession(deps, input);
    const token = await signClaimToken({ clientId: order.client_id, orderId: order.service_order_id }, config.claimTokenTtlSeconds, deps.clock.now());
    return jsonResponse(201, claimSessionView(token, config.claimTokenTtlSeconds, order, claimable, claims));
  },
  { jsonBody: true },
);
