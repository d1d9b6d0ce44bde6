import { claimSessionOf } from '#shared/claims/claim-tokens.js';
import { loadConfig } from '#shared/platform/config.js';
import { answerClaim, claimEligibility, fileClaimOnOrder, readClaim, withdrawClaim } from '#shared/claims/claims.js';
import { hashCustomerEmail } from '#shared/platform/keys/order-number-hash.js';
import { formatMoney } from '#shared/platform/money/index.js';
import { prefixedId } from '#shared/platform/ids.js';
import { systemClock } from '#shared/platform/clock.js';
import { claimView } from '#shared/claims/claim-view.js';
import { jsonResponse } from '#shared/platform/http/envelope.js';
import { httpHandler } from '#shared/platform/http/middleware.js';
import { ClaimMessageRequest, claimIdOf, EligibilityQuery, FileClaimRequest } from '#shared/claims/schemas.js';
import { EmptyRequest } from '#shared/platform/http/schemas.js';
import { parseInput } from '#shared/platform/http/validation.js';
import { DynamoClaimStore } from '#shared/claims/dynamo-claim-store.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { DynamoOrderStore } from '#shared/orders/dynamo-order-store.js';

const config = loadConfig();
const doc = sharedDocumentClient();
const claims = new DynamoClaimStore(doc, config.tableName);
const deps = {
  orders: new DynamoOrderStore(doc, config.tableName, config.metricsTableName),
  claims,
  claimId: () => prefixedId('clm'),
  clock: systemClock,
  customerKey: hashCustomerEmail,
};

/**
 * The customer's claim routes, with the claim token of their session (Authorization: Bearer):
 * GET /api/v2/claims/eligibility?policy_numbers=… (the checks, before filing), POST /api/v2/claims
 * (file), GET /api/v2/claims/{id}, POST …/{id}/withdraw, POST …/{id}/respond.
 */
export const handler = httpHandler(
  async (event) => {
    const session = await claimSessionOf(event.headers.authorization, deps.clock.now());
    if (event.routeKey === 'POST /api/v2/claims') {
      return jsonResponse(201, claimView(await fileClaimOnOrder(deps, session, parseInput(FileClaimRequest, event.body))));
    }
    if (event.routeKey === 'GET /api/v2/claims/eligibility') {
      const { policy_numbers } = parseInput(EligibilityQuery, event.queryStringParameters ?? {});
      const eligibility = await claimEligibility(deps, session, policy_numbers);
      return jsonResponse(200, { ...eligibility, claimable_amount: formatMoney(eligibility.claimable_amount, eligibility.currency) });
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
