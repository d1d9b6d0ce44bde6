import { cachedTermsVersions } from '#shared/terms/index.js';
import { DynamoTermsStore } from '#shared/terms/dynamo-terms-store.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { loadConfig } from '#shared/platform/config.js';
import { changeOrder } from '#shared/orders/change-order.js';
import { randomIds } from '#shared/platform/ids.js';
import { systemClock } from '#shared/platform/clock.js';
import { jsonResponse } from '#shared/platform/http/envelope.js';
import { idempotent } from '#shared/platform/http/idempotency.js';
import { countMetric } from '#shared/platform/http/metrics.js';
import { clientIdOf, httpHandler } from '#shared/platform/http/middleware.js';
import { orderReplayer, orderView } from '#shared/orders/order-view.js';
import { ChangeOrderRequest, orderIdOf } from '#shared/orders/schemas.js';
import { parseInput } from '#shared/platform/http/validation.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { DynamoIdempotencyStore } from '#shared/platform/dynamo/idempotency-store.js';
import { DynamoOrderStore } from '#shared/orders/dynamo-order-store.js';

const config = loadConfig();
const deps = {
  orders: new DynamoOrderStore(sharedDocumentClient(), config.tableName, config.metricsTableName),
  // A change prices under the replaced policy's terms version, kept per container (versions never change).
  terms: cachedTermsVersions(new DynamoTermsStore(sharedDocumentClient(), config.tableName), systemClock),
  clients: new DynamoClientStore(sharedDocumentClient(), config.tableName),
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
