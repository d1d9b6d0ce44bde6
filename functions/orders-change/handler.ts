import { loadConfig } from '../../shared/config.js';
import { changeOrder } from '../../shared/domain/change-order.js';
import { randomIds } from '../../shared/domain/ids.js';
import { systemClock } from '../../shared/domain/ports.js';
import { jsonResponse } from '../../shared/http/envelope.js';
import { clientIdOf, httpHandler } from '../../shared/http/middleware.js';
import { orderView } from '../../shared/http/order-view.js';
import { ChangeOrderRequest } from '../../shared/http/schemas.js';
import { parseInput } from '../../shared/http/validation.js';
import { sharedDocumentClient } from '../../shared/infra/dynamo-client.js';
import { DynamoOrderStore } from '../../shared/infra/order-store.js';

const config = loadConfig();
const deps = {
  orders: new DynamoOrderStore(sharedDocumentClient(), config.tableName, config.metricsTableName),
  clock: systemClock,
  ids: randomIds,
};

/** PATCH /api/v2/orders/{id}/: upgrade, downgrade or exchange items; 200 with only the new ones. */
export const handler = httpHandler(async (event, info) => {
  const { items } = parseInput(ChangeOrderRequest, event.body);
  const { order, replacements } = await changeOrder(deps, clientIdOf(info), event.pathParameters?.id ?? '', items);
  return jsonResponse(200, orderView(order, replacements));
}, { jsonBody: true, authenticated: true });
