import { loadConfig } from '#shared/platform/config.js';
import { jsonResponse } from '#shared/platform/http/envelope.js';
import { clientIdOf, httpHandler } from '#shared/platform/http/middleware.js';
import { orderView } from '#shared/orders/order-view.js';
import { orderIdOf } from '#shared/orders/schemas.js';
import { orderNotFound } from '#shared/orders/order.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { DynamoOrderStore } from '#shared/orders/dynamo-order-store.js';

const config = loadConfig();
const orders = new DynamoOrderStore(sharedDocumentClient(), config.tableName, config.metricsTableName);

/** GET /api/v2/orders/{id}/: the whole order, only for the client that owns it. */
export const handler = httpHandler(
  async (event, info) => {
    const order = await orders.get(clientIdOf(info), orderIdOf(event.pathParameters));
    if (!order) throw orderNotFound();
    return jsonResponse(200, orderView(order));
  },
  { authenticated: true },
);
