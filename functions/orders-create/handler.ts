import { cachedTermsVersions } from '#shared/terms/index.js';
import { DynamoTermsStore } from '#shared/terms/dynamo-terms-store.js';
import { hashOrderNumber } from '#shared/platform/keys/order-number-hash.js';
import { sealOrderNumber } from '#shared/platform/keys/order-number-seal.js';
import { quoteTokenReader } from '#shared/quotes/quote-tokens.js';
import { loadConfig } from '#shared/platform/config.js';
import { cachedReads } from '#shared/platform/cache.js';
import { createOrder } from '#shared/orders/create-order.js';
import { randomIds } from '#shared/platform/ids.js';
import { systemClock } from '#shared/platform/clock.js';
import { emptyResponse, jsonResponse } from '#shared/platform/http/envelope.js';
import { idempotent } from '#shared/platform/http/idempotency.js';
import { countMetric } from '#shared/platform/http/metrics.js';
import { clientIdOf, httpHandler } from '#shared/platform/http/middleware.js';
import { orderReplayer, orderView } from '#shared/orders/order-view.js';
import { CreateOrderRequest } from '#shared/orders/schemas.js';
import { parseInput } from '#shared/platform/http/validation.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { DynamoIdempotencyStore } from '#shared/platform/dynamo/idempotency-store.js';
import { DynamoMetricsStore } from '#shared/conversion/dynamo-metrics-store.js';
import { DynamoOrderStore } from '#shared/orders/dynamo-order-store.js';

const config = loadConfig();
const doc = sharedDocumentClient();
const clientStore = new DynamoClientStore(doc, config.tableName);
const deps = {
  orders: new DynamoOrderStore(doc, config.tableName, config.metricsTableName),
  metrics: new DynamoMetricsStore(doc, config.metricsTableName, config.tableName),
  // An opt-in without a token reads the client's terms in force: kept a minute per container, so an
  // on-sale of such orders does not read one item per checkout (a new version applies within a minute).
  clients: { get: cachedReads((clientId) => clientStore.get(clientId), systemClock, 60_000) },
  // An opt-in with a token prices under the version its quote sealed: kept per container (versions never change).
  terms: cachedTermsVersions(new DynamoTermsStore(doc, config.tableName), systemClock),
  quotes: quoteTokenReader,
  hashOrderNumber,
  sealOrderNumber,
  clock: systemClock,
  ids: randomIds,
};
const idempotency = new DynamoIdempotencyStore(doc, config.tableName);
const replay = orderReplayer(deps.orders, 201);

/** POST /api/v2/orders: 204 for a logged opt-out, 201 with the Order for a protected order. */
export const handler = httpHandler(
  async (event, info) => {
    const input = parseInput(CreateOrderRequest, event.body);
    return idempotent(
      idempotency,
      event,
      info,
      async (receipt) => {
        const result = await createOrder(deps, clientIdOf(info), input, receipt);
        countMetric(result.kind === 'opted_out' ? 'OrdersOptedOut' : 'OrdersOptedIn', 1);
        return result.kind === 'opted_out' ? emptyResponse(204) : jsonResponse(201, orderView(result.order));
      },
      replay,
    );
  },
  { jsonBody: true, authenticated: true },
);
