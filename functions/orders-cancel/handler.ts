import { cancelOrder } from '#shared/orders/cancel-order.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { cancellationDeps } from '#shared/orders/cancellations/cancellation-deps.js';
import { previewOrderCancel } from '#shared/orders/cancellations/cancellation-previews.js';
import { cancellationView } from '#shared/orders/cancellations/cancellation.js';
import { jsonResponse } from '#shared/platform/http/envelope.js';
import { idempotent } from '#shared/platform/http/idempotency.js';
import { clientIdOf, httpHandler } from '#shared/platform/http/middleware.js';
import { orderReplayer, orderView } from '#shared/orders/order-view.js';
import { CancelOrderRequest, orderIdOf } from '#shared/orders/schemas.js';
import { parseInput } from '#shared/platform/http/validation.js';

const deps = cancellationDeps((doc, tableName) => new DynamoClientStore(doc, tableName));
const replay = orderReplayer(deps.orders, 200);

/**
 * POST /api/v2/orders/{id}/cancel: every Issued policy canceled or voided, all or nothing; 200 with
 * the whole order. With `preview: true`: 200 with the cancellation it would be, and nothing changed.
 */
export const handler = httpHandler(
  async (event, info) => {
    const { mode, reason = 'other', preview = false } = parseInput(CancelOrderRequest, event.body);
    const id = orderIdOf(event.pathParameters);
    const clientId = clientIdOf(info);
    return idempotent(
      deps.idempotency,
      event,
      info,
      async (receipt) =>
        preview
          ? jsonResponse(200, cancellationView(await previewOrderCancel(deps, clientId, id, mode, reason)))
          : jsonResponse(200, orderView(await cancelOrder(deps, clientId, id, mode, reason, receipt))),
      replay,
    );
  },
  { jsonBody: true, authenticated: true },
);
