import { loadConfig } from '#shared/platform/config.js';
import { systemClock } from '#shared/platform/clock.js';
import { requireTestClient } from '#shared/clients/index.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { advanceOrder } from '#shared/orders/advance-order.js';
import { orderView } from '#shared/orders/order-view.js';
import { AdvanceOrderRequest, orderIdOf } from '#shared/orders/schemas.js';
import { DynamoOrderStore } from '#shared/orders/dynamo-order-store.js';
import { decideOwnTestClaim } from '#shared/claims/claims.js';
import { claimSummaryView } from '#shared/claims/claim-view.js';
import { ClaimDecisionRequest, claimIdOf } from '#shared/claims/schemas.js';
import { DynamoClaimStore } from '#shared/claims/dynamo-claim-store.js';
import { jsonResponse } from '#shared/platform/http/envelope.js';
import { clientIdOf, httpHandler } from '#shared/platform/http/middleware.js';
import { parseInput } from '#shared/platform/http/validation.js';
import { idempotent } from '#shared/platform/http/idempotency.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { DynamoIdempotencyStore } from '#shared/platform/dynamo/idempotency-store.js';

const config = loadConfig();
const doc = sharedDocumentClient();
const clients = new DynamoClientStore(doc, config.tableName);
const orders = new DynamoOrderStore(doc, config.tableName, config.metricsTableName);
const claims = new DynamoClaimStore(doc, config.tableName);
const idempotency = new DynamoIdempotencyStore(doc, config.tableName);

/**
 * Test helpers, for test clients only (a live client's token: 403 `test_mode_only`):
 * POST /api/v2/test_helpers/orders/{id}/advance {days} makes an order `days` older (Idempotency-Key honoured);
 * POST /api/v2/test_helpers/claims/{id}/decision decides a claim on the client's own orders as the operator would.
 * The body is read before the client's mode (docs/api.md § Test mode): a malformed one is its 400/415/422 for any client.
 */
export const handler = httpHandler(
  async (event, info) => {
    const clientId = clientIdOf(info);
    if (event.routeKey.startsWith('POST /api/v2/test_helpers/orders/')) {
      const { days } = parseInput(AdvanceOrderRequest, event.body);
      await requireTestClient(clients, clientId);
      const id = orderIdOf(event.pathParameters);
      // An advance is not idempotent by nature (each call ages the order again): with a key, a retry replays the first answer.
      return idempotent(idempotency, event, info, async () =>
        jsonResponse(200, orderView(await advanceOrder({ orders, clock: systemClock }, clientId, id, days))),
      );
    }
    const input = parseInput(ClaimDecisionRequest, event.body);
    await requireTestClient(clients, clientId);
    const { claim } = await decideOwnTestClaim({ claims, clock: systemClock }, clientId, claimIdOf(event.pathParameters), input);
    return jsonResponse(200, claimSummaryView(claim));
  },
  { authenticated: true, jsonBody: true },
);
