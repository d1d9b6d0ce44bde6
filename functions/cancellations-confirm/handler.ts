import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { cancellationDeps } from '#shared/orders/cancellations/cancellation-deps.js';
import { confirmCancellation } from '#shared/orders/cancellations/cancellation-previews.js';
import { isCancellationId } from '#shared/orders/cancellations/cancellation.js';
import { NotFoundError } from '#shared/platform/errors.js';
import { jsonResponse } from '#shared/platform/http/envelope.js';
import { idempotent } from '#shared/platform/http/idempotency.js';
import { clientIdOf, httpHandler } from '#shared/platform/http/middleware.js';
import { orderReplayer, orderView, policyDetailView } from '#shared/orders/order-view.js';
import { ConfirmCancellationRequest } from '#shared/orders/schemas.js';
import { parseInput } from '#shared/platform/http/validation.js';

const deps = cancellationDeps((doc, tableName) => new DynamoClientStore(doc, tableName));
const replay = orderReplayer(deps.orders, 200);

/**
 * POST /api/v2/cancellations/{id}/confirm: applies the preview exactly and answers as the direct
 * call does (the whole order, or the one policy); a repeat answers the same.
 */
export const handler = httpHandler(
  async (event, info) => {
    parseInput(ConfirmCancellationRequest, event.body);
    const id = event.pathParameters?.id;
    if (!isCancellationId(id)) throw new NotFoundError('cancellation_not_found', 'No cancellation with this id.');
    return idempotent(
      deps.idempotency,
      event,
      info,
      async (receipt) => {
        const confirmed = await confirmCancellation(deps, clientIdOf(info), id, receipt);
        return jsonResponse(200, confirmed.scope === 'order' ? orderView(confirmed.order) : policyDetailView(confirmed.policy));
      },
      replay,
    );
  },
  { jsonBody: 'optional', authenticated: true },
);
