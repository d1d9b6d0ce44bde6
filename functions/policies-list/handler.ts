import { openCursor, sealCursor } from '#shared/platform/keys/cursors.js';
import { loadConfig } from '#shared/platform/config.js';
import { listPolicies } from '#shared/orders/list-policies.js';
import { jsonResponse } from '#shared/platform/http/envelope.js';
import { clientIdOf, httpHandler } from '#shared/platform/http/middleware.js';
import { policyDetailView } from '#shared/orders/order-view.js';
import { ListPoliciesQuery } from '#shared/orders/schemas.js';
import { parseInput } from '#shared/platform/http/validation.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { DynamoOrderStore } from '#shared/orders/dynamo-order-store.js';

const config = loadConfig();
const deps = {
  policies: new DynamoOrderStore(sharedDocumentClient(), config.tableName, config.metricsTableName),
  cursors: { seal: sealCursor, open: openCursor },
};

/** GET /api/v2/policies?limit&cursor&created_gte&created_lt&status: newest first, one Query per page. */
export const handler = httpHandler(
  async (event, info) => {
    const query = parseInput(ListPoliciesQuery, event.queryStringParameters ?? {});
    const { policies, nextCursor } = await listPolicies(deps, clientIdOf(info), query);
    return jsonResponse(200, { data: policies.map((found) => policyDetailView(found)), has_more: nextCursor !== undefined, next_cursor: nextCursor ?? null });
  },
  { authenticated: true },
);
