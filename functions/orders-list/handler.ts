import { openCursor, sealCursor } from '../../shared/auth/cursors.js';
import { hashOrderNumber } from '../../shared/auth/order-number-hash.js';
import { loadConfig } from '../../shared/config.js';
import { listOrders } from '../../shared/domain/list-orders.js';
import { jsonResponse } from '../../shared/http/envelope.js';
import { clientIdOf, httpHandler } from '../../shared/http/middleware.js';
import { orderView } from '../../shared/http/order-view.js';
import { ListOrdersQuery } from '../../shared/http/schemas.js';
import { parseInput } from '../../shared/http/validation.js';
import { sharedDocumentClient } from '../../shared/infra/dynamo-client.js';
import { DynamoMetricsStore } from '../../shared/infra/metrics-store.js';
import { DynamoOrderStore } from '../../shared/infra/order-store.js';

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
