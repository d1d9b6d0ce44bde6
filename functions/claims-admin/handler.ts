import { openCursor, sealCursor } from '#shared/platform/keys/cursors.js';
import { loadConfig } from '#shared/platform/config.js';
import { decideClaim, payClaim, readClaim } from '#shared/claims/claims.js';
import { operatorClaimsOfOrder, operatorQueue, withContext } from '#shared/claims/operator-claims.js';
import { hashOrderNumber } from '#shared/platform/keys/order-number-hash.js';
import { DynamoMetricsStore } from '#shared/conversion/dynamo-metrics-store.js';
import { systemClock } from '#shared/platform/clock.js';
import { operatorClaimSummaryView, operatorClaimView, operatorMovedView } from '#shared/claims/claim-view.js';
import { jsonResponse } from '#shared/platform/http/envelope.js';
import { httpHandler, staffOf } from '#shared/platform/http/middleware.js';
import { routeRoles } from '#shared/platform/functions.js';
import { ClaimDecisionRequest, claimIdOf, ClaimPaidRequest, ClaimQueueQuery } from '#shared/claims/schemas.js';
import { parseInput } from '#shared/platform/http/validation.js';
import { DynamoClaimStore } from '#shared/claims/dynamo-claim-store.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { DynamoOrderStore } from '#shared/orders/dynamo-order-store.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';

const config = loadConfig();
const claims = new DynamoClaimStore(sharedDocumentClient(), config.tableName);
const deps = { claims, clock: systemClock };
// What a claim is shown with: its order's number and items, its merchant's name.
const context = {
  orders: new DynamoOrderStore(sharedDocumentClient(), config.tableName, config.metricsTableName),
  clients: new DynamoClientStore(sharedDocumentClient(), config.tableName),
};
// The search by order number: the metrics table keeps each order's id under its number's keyed hash.
const metrics = new DynamoMetricsStore(sharedDocumentClient(), config.metricsTableName);
const orderIdByNumber = async (clientId: string, orderNumber: string) => metrics.orderIdByHash(clientId, await hashOrderNumber(clientId, orderNumber));
// Queue cursors are sealed like every list cursor, under a scope of their own instead of a client.
const QUEUE_SCOPE = 'operator:claims';
const cursors = {
  seal: (filters: Record<string, string>, position: string) => sealCursor(QUEUE_SCOPE, filters, position),
  open: (filters: Record<string, string>, cursor: string) => openCursor(QUEUE_SCOPE, filters, cursor),
};

/**
 * The operator's routes (the staff sign-in, by role: shared/platform/functions.ts): GET /api/v2/admin/claims
 * (the queue, or with client_id and order_number the claims of that order), GET …/{id}, POST …/{id}/decision, POST …/{id}/paid.
 */
export const handler = httpHandler(
  async (event, info) => {
    const actor = staffOf(info);
    if (event.routeKey === 'GET /api/v2/admin/claims') {
      const query = parseInput(ClaimQueueQuery, event.queryStringParameters ?? {});
      if (query.client_id !== undefined && query.order_number !== undefined) {
        const found = await operatorClaimsOfOrder({ claims, orderIdByNumber, ...context }, { client_id: query.client_id, order_number: query.order_number });
        return jsonResponse(200, { data: found.claims.map(operatorClaimSummaryView), has_more: false, next_cursor: null });
      }
      const page = await operatorQueue({ claims, cursors, ...context }, query);
      return jsonResponse(200, {
        data: page.claims.map(operatorClaimSummaryView),
        has_more: page.nextCursor !== undefined,
        next_cursor: page.nextCursor ?? null,
      });
    }
    const id = claimIdOf(event.pathParameters);
    if (event.routeKey.endsWith('/decision')) {
      const input = parseInput(ClaimDecisionRequest, event.body);
      return jsonResponse(200, operatorMovedView(await decideClaim(deps, id, input, actor)));
    }
    if (event.routeKey.endsWith('/paid')) {
      const { payout_reference } = parseInput(ClaimPaidRequest, event.body);
      return jsonResponse(200, operatorMovedView(await payClaim(deps, id, payout_reference, actor)));
    }
    return jsonResponse(200, operatorClaimView(await withContext(context, await readClaim(deps, id))));
  },
  { jsonBody: 'optional', staff: routeRoles('claims-admin') },
);
