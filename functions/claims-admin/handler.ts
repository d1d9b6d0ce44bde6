import { openCursor, sealCursor } from '../../shared/auth/cursors.js';
import { loadConfig } from '../../shared/config.js';
import { claimQueue, decideClaim, payClaim, readClaim } from '../../shared/domain/claims.js';
import { systemClock } from '../../shared/domain/ports.js';
import { operatorClaimSummaryView, operatorClaimView } from '../../shared/http/claim-view.js';
import { jsonResponse } from '../../shared/http/envelope.js';
import { httpHandler, operatorOf } from '../../shared/http/middleware.js';
import { ClaimDecisionRequest, claimIdOf, ClaimPaidRequest, ClaimQueueQuery } from '../../shared/http/schemas.js';
import { parseInput } from '../../shared/http/validation.js';
import { DynamoClaimStore } from '../../shared/infra/claim-store.js';
import { sharedDocumentClient } from '../../shared/infra/dynamo-client.js';

const config = loadConfig();
const claims = new DynamoClaimStore(sharedDocumentClient(), config.tableName);
const deps = { claims, clock: systemClock };
// Queue cursors are sealed like every list cursor, under a scope of their own instead of a client.
const QUEUE_SCOPE = 'operator:claims';
const cursors = {
  seal: (filters: Record<string, string>, position: string) => sealCursor(QUEUE_SCOPE, filters, position),
  open: (filters: Record<string, string>, cursor: string) => openCursor(QUEUE_SCOPE, filters, cursor),
};

/**
 * The operator's routes (IAM-authorized deployed; the operator key locally): GET /api/v2/admin/claims
 * (the queue), GET …/{id}, POST …/{id}/decision, POST …/{id}/paid.
 */
export const handler = httpHandler(
  async (event, info) => {
    const operator = operatorOf(info);
    if (event.routeKey === 'GET /api/v2/admin/claims') {
      const query = parseInput(ClaimQueueQuery, event.queryStringParameters ?? {});
      const page = await claimQueue({ claims, cursors }, query);
      return jsonResponse(200, {
        data: page.claims.map(operatorClaimSummaryView),
        has_more: page.nextCursor !== undefined,
        next_cursor: page.nextCursor ?? null,
      });
    }
    const id = claimIdOf(event.pathParameters);
    if (event.routeKey.endsWith('/decision')) {
      const input = parseInput(ClaimDecisionRequest, event.body);
      return jsonResponse(200, operatorClaimView(await decideClaim(deps, id, input, operator)));
    }
    if (event.routeKey.endsWith('/paid')) {
      const { payout_reference } = parseInput(ClaimPaidRequest, event.body);
      return jsonResponse(200, operatorClaimView(await payClaim(deps, id, payout_reference, operator)));
    }
    return jsonResponse(200, operatorClaimView(await readClaim(deps, id)));
  },
  { jsonBody: 'optional', operator: true },
);
