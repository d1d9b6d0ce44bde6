import { loadConfig } from '../../shared/config.js';
import { changeOrder } from '../../shared/domain/change-order.js';
import { randomIds } from '../../shared/domain/ids.js';
import { systemClock } from '../../shared/domain/ports.js';
import { jsonResponse } from '../../shared/http/envelope.js';
import { idempotent } from '../../shared/http/idempotency.js';
import { countMetric } from '../../shared/http/metrics.js';
import { clientIdOf, httpHandler } from '../../shared/http/middleware.js';
import { orderReplayer, orderView } from '../../shared/http/order-view.js';
import { ChangeOrderRequest, orderIdOf } from '../../shared/http/schemas.js';
import { parseInput } from '../../shared/http/validation.js';
import { sharedDocumentClient } from '../../shared/infra/dynamo-client.js';
import { DynamoIdempotencyStore } from '../../shared/infra/idempotency-store.js';
import { DynamoOrderStore } from '../../shared/infra/order-store.js';

const config = loadConfig();
const deps = {
  orders: new DynamoOrderStore(sharedDocumentClient(), config.tableName, config.metricsTableName),
  clock: systemClock,
  ids: randomIds,
};
const idempotency = new DynamoIdempotencyStore(sharedDocumentClient(), config.tableName);
const replay = orderReplayer(deps.orders, 200);

/** PATCH /api/v2/orders/{id}/: upgrade, downgrade or exchange items; 200 with only the new ones. */
export const handler = httpHandler(
  async (event, info) => {
    const { items } = parseInput(ChangeOrderRequest, event.body);
    const id = orderIdOf(event.pathParameters);
    return idempotent(
      idempotency,
      event,
      info,
      async (receipt) => {
        const { order, replacements } = await changeOrder(deps, clientIdOf(info), id, items, receipt);
        for (const type of ['upgrade', 'downgrade', 'exchange'] as const) {
          const count = replacements.filter((item) => item.policy.change_type === type).length;
          if (count) countMetric('PolicyChanges', count, { change_type: type });
        }
        return jsonResponse(200, orderView(order, replacements));
      },
      replay,
    );
  },
  { jsonBody: true, authenticated: true },
);
