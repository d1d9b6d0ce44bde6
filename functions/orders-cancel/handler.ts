import { loadConfig } from '#shared/platform/config.js';
import { cancelOrder } from '#shared/orders/cancel-order.js';
import { systemClock } from '#shared/platform/clock.js';
import { jsonResponse } from '#shared/platform/http/envelope.js';
import { idempotent } from '#shared/platform/http/idempotency.js';
import { clientIdOf, httpHandler } from '#shared/platform/http/middleware.js';
import { orderReplayer, orderView } from '#shared/orders/order-view.js';
import { CancelOrderRequest, orderIdOf } from '#shared/orders/schemas.js';
import { parseInput } from '#shared/platform/http/validation.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { DynamoIdempotencyStore } from '#shared/platform/dynamo/idempotency-store.js';
import { DynamoOrderStore } from '#shared/orders/dynamo-order-store.js';

const config = loadConfig();
const doc = sharedDocumentClient();
const deps = {
  orders: new DynamoOrderStore(doc, config.tableName, config.metricsTableName),
  clients: new DynamoClientStore(doc, config.tableName),
  clock: systemClock,
};
const idempotency = new DynamoIdempotencyStore(doc, config.tableName);
const replay = orderReplayer(deps.orders, 200);

/** POST /api/v2/orders/{id}/cancel: every Issued policy canceled or voided, all or nothing; 200 with the whole order. */
export const handler = httpHandler(
  async (event, info) => {
    const { mode, reason = 'other' } = parseInput(CancelOrderRequest, event.body);
    const id = orderIdOf(event.pathParameters);
    return idempotent(
      idempotency,
      event,
      info,
      async (receipt) => jsonResponse(200, orderView(await cancelOrder(deps, clientIdOf(info), id, mode, reason, receipt))),
      replay,
    );
  },
  { jsonBody: true, authenticated: true },
);
