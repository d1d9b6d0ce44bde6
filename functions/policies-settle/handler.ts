import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { cancellationDeps } from '#shared/orders/cancellations/cancellation-deps.js';
import { previewPolicySettle } from '#shared/orders/cancellations/cancellation-previews.js';
import { cancellationView } from '#shared/orders/cancellations/cancellation.js';
import { settlePolicy } from '#shared/orders/settle-policy.js';
import { NotFoundError } from '#shared/platform/errors.js';
import { jsonResponse } from '#shared/platform/http/envelope.js';
import { idempotent } from '#shared/platform/http/idempotency.js';
import { clientIdOf, httpHandler } from '#shared/platform/http/middleware.js';
import { policyDetailView } from '#shared/orders/order-view.js';
import { SettlePolicyRequest } from '#shared/orders/schemas.js';
import { parseInput } from '#shared/platform/http/validation.js';

const deps = cancellationDeps((doc, tableName) => new DynamoClientStore(doc, tableName));

const POLICY_NUMBER = /^OP-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/;

/**
 * PUT|POST /api/v2/policies/{policy_number}/cancel and POST …/void: 200 with the policy as it now
 * is. With `preview: true`: 200 with the cancellation it would be, and nothing changed.
 */
export const handler = httpHandler(
  async (event, info) => {
    const { reason = 'other', preview = false } = parseInput(SettlePolicyRequest, event.body);
    const policyNumber = event.pathParameters?.policy_number ?? '';
    if (!POLICY_NUMBER.test(policyNumber)) throw new NotFoundError('policy_not_found', 'No policy with this number.', 'policy_number');
    const action = event.routeKey.endsWith('/void') ? 'void' : 'cancel';
    const clientId = clientIdOf(info);
    return idempotent(deps.idempotency, event, info, async () =>
      preview
        ? jsonResponse(200, cancellationView(await previewPolicySettle(deps, clientId, policyNumber, action, reason)))
        : jsonResponse(200, policyDetailView(await settlePolicy(deps, clientId, policyNumber, action, reason))),
    );
  },
  { jsonBody: 'optional', authenticated: true },
);
