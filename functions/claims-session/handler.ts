import { signClaimToken } from '../../shared/auth/claim-tokens.js';
import { hashOrderNumber } from '../../shared/auth/order-number-hash.js';
import { loadConfig } from '../../shared/config.js';
import { openSession } from '../../shared/domain/claims.js';
import { systemClock } from '../../shared/domain/ports.js';
import { claimSessionView } from '../../shared/http/claim-view.js';
import { jsonResponse } from '../../shared/http/envelope.js';
import { httpHandler } from '../../shared/http/middleware.js';
import { ClaimSessionRequest } from '../../shared/http/schemas.js';
import { parseInput } from '../../shared/http/validation.js';
import { DynamoAttemptLimits } from '../../shared/infra/attempt-limits.js';
import { DynamoClaimStore } from '../../shared/infra/claim-store.js';
import { DynamoClientStore } from '../../shared/infra/client-store.js';
import { sharedDocumentClient } from '../../shared/infra/dynamo-client.js';
import { DynamoMetricsStore } from '../../shared/infra/metrics-store.js';
import { DynamoOrderStore } from '../../shared/infra/order-store.js';

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

/** POST /api/v2/claims/sessions: order number + e-mail + public key → a claim token and the order's claimable policies and claims. */
export const handler = httpHandler(
  async (event) => {
    const input = parseInput(ClaimSessionRequest, event.body);
    const { order, claimable, claims } = await openSession(deps, input);
    const token = await signClaimToken({ clientId: order.client_id, orderId: order.service_order_id }, config.claimTokenTtlSeconds, deps.clock.now());
    return jsonResponse(201, claimSessionView(token, config.claimTokenTtlSeconds, order, claimable, claims));
  },
  { jsonBody: true },
);
