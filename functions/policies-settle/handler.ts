import { loadConfig } from '#shared/platform/config.js';
import { systemClock } from '#shared/platform/clock.js';
import { settlePolicy } from '#shared/orders/settle-policy.js';
import { NotFoundError } from '#shared/platform/errors.js';
import { jsonResponse } from '#shared/platform/http/envelope.js';
import { idempotent } from '#shared/platform/http/idempotency.js';
import { clientIdOf, httpHandler } from '#shared/platform/http/middleware.js';
import { policyDetailView } from '#shared/orders/order-view.js';
import { SettlePolicyRequest } from '#shared/orders/schemas.js';
import { parseInput } from '#shared/platform/http/validation.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { DynamoIdempotencyStore } from '#shared/platform/dynamo/idempotency-store.js';
import { DynamoOrderStore } from '#shared/orders/dynamo-order-store.js';

const config = loadConfig();
const doc = sharedDocumentClient();
const deps = {
  policies: new DynamoOrderStore(doc, config.tableName, config.metricsTableName),
  clients: new DynamoClientStore(doc, config.tableName),
  clock: systemClock,
};
const idempotency = new DynamoIdempotencyStore(doc, config.tableName);

const POLICY_NUMBER = /^OP-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/;

/** PUT|POST /api/v2/policies/{policy_number}/cancel and POST …/void: 200 with the policy as it now is. */
export const handler = httpHandler(
  async (event, info) => {
    const { reason = 'other' } = parseInput(SettlePolicyRequest, event.body);
    const policyNumber = event.pathParameters?.policy_number ?? '';
    if (!POLICY_NUMBER.test(policyNumber)) throw new NotFoundError('policy_not_found', 'No policy with this number.', 'policy_number');
    const action = event.routeKey.endsWith('/void') ? 'void' : 'cancel';
    return idempotent(idempotency, event, info, async () =>
      jsonResponse(200, policyDetailView(await settlePolicy(deps, clientIdOf(info), policyNumber, action, reason))),
    );
  },
  { jsonBody: 'optional', authenticated: true },
);
