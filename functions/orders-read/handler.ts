import { loadConfig } from '../../shared/config.js';
import { isOrderId } from '../../shared/domain/ids.js';
import { NotFoundError } from '../../shared/errors.js';
import { jsonResponse } from '../../shared/http/envelope.js';
import { clientIdOf, httpHandler } from '../../shared/http/middleware.js';
import { orderView } from '../../shared/http/order-view.js';
import { sharedDocumentClient } from '../../shared/infra/dynamo-client.js';
import { DynamoOrderStore } from '../../shared/infra/order-store.js';

const config = loadConfig();
const orders = new DynamoOrderStore(sharedDocumentClient(), config.tableName, config.metricsTableName);

/** GET /api/v2/orders/{id}/: the whole order, only for the client that owns it. */
export const handler = httpHandler(
  async (event, info) => {
    const id = event.pathParameters?.id;
    const order = isOrderId(id) ? await orders.get(clientIdOf(info), id) : undefined;
    if (!order) throw new NotFoundError('order_not_found', 'No order with this id.');
    return jsonResponse(200, orderView(order));
  },
  { authenticated: true },
);
