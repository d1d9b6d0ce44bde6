import { claimSessionOf } from '../../shared/auth/claim-tokens.js';
import { loadConfig } from '../../shared/config.js';
import { answerClaim, fileClaimOnOrder, readClaim, withdrawClaim } from '../../shared/domain/claims.js';
import { prefixedId } from '../../shared/domain/ids.js';
import { systemClock } from '../../shared/domain/ports.js';
import { claimView } from '../../shared/http/claim-view.js';
import { jsonResponse } from '../../shared/http/envelope.js';
import { httpHandler } from '../../shared/http/middleware.js';
import { ClaimMessageRequest, claimIdOf, EmptyRequest, FileClaimRequest } from '../../shared/http/schemas.js';
import { parseInput } from '../../shared/http/validation.js';
import { DynamoClaimStore } from '../../shared/infra/claim-store.js';
import { sharedDocumentClient } from '../../shared/infra/dynamo-client.js';
import { DynamoOrderStore } from '../../shared/infra/order-store.js';

const config = loadConfig();
const doc = sharedDocumentClient();
const claims = new DynamoClaimStore(doc, config.tableName);
const deps = {
  orders: new DynamoOrderStore(doc, config.tableName, config.metricsTableName),
  claims,
  claimId: () => prefixedId('clm'),
  clock: systemClock,
};

/**
 * The customer's claim routes, with the claim token of their session (Authorization: Bearer):
 * POST /api/v2/claims (file), GET /api/v2/claims/{id}, POST …/{id}/withdraw, POST …/{id}/respond.
 */
export const handler = httpHandler(
  async (event) => {
    const session = await claimSessionOf(event.headers.authorization, deps.clock.now());
    if (event.routeKey === 'POST /api/v2/claims') {
      return jsonResponse(201, claimView(await fileClaimOnOrder(deps, session, parseInput(FileClaimRequest, event.body))));
    }
    const id = claimIdOf(event.pathParameters);
    if (event.routeKey.endsWith('/withdraw')) {
      parseInput(EmptyRequest, event.body);
      return jsonResponse(200, claimView(await withdrawClaim(deps, session, id)));
    }
    if (event.routeKey.endsWith('/respond')) {
      const { message } = parseInput(ClaimMessageRequest, event.body);
      return jsonResponse(200, claimView(await answerClaim(deps, session, id, message)));
    }
    return jsonResponse(200, claimView(await readClaim(deps, id, session)));
  },
  { jsonBody: 'optional' },
);
