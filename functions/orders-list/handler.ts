import { openCursor, sealCursor } from '#shared/platform/keys/cursors.js';
import { hashOrderNumber } from '#shared/platform/keys/order-number-hash.js';
import { loadConfig } from '#shared/platform/config.js';
import { listOrders } from '#shared/orders/list-orders.js';
import { jsonResponse } from '#shared/platform/http/envelope.js';
import { clientIdOf, httpHandler } from '#shared/platform/http/middleware.js';
import { orderView } from '#shared/orders/order-view.js';
import { ListOrdersQuery } from '#shared/orders/schemas.js';
import { parseInput } from '#shared/platform/http/validation.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { DynamoMetricsStore } from '#shared/conversion/dynamo-metrics-store.js';
import { DynamoOrderStore } from '#shared/orders/dynamo-order-store.js';

const config = loadConfig();
const doc = sharedDocumentClient();
const metrics = new DynamoMetricsStore(doc, config.metricsTableName);
const deps = {
  orders: new DynamoOrderStore(doc, config.tableName, config.metricsTableName),
  cursors: { seal: sealCursor, open: openCursor },
  orderIdByNumber: async (clientId: string, orderNumber: string) => metrics.orderIdByHash(clientId, await hashOrderNumber(clientId, orderNumber)),
};

/** GET /api/v2/orders?limit&cursor&created_gte&created_lt&order_number&status: newest first, a page at a time. */
export const handler = httpHandler(
  async (event, info) => {
    const query = parseInput(ListOrdersQuery, event.queryStringParameters ?? {});
    const { orders, nextCursor } = await listOrders(deps, clientIdOf(info), query);
    return jsonResponse(200, { data: orders.map((order) => orderView(order)), has_more: nextCursor !== undefined, next_cursor: nextCursor ?? null });
  },
  { authenticated: true },
);
