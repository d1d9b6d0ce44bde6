import type { ListOrdersDeps } from './list-orders.js';
import type { PolicyStatus } from './order.js';
import type { FoundPolicy, PolicyLister } from './ports.js';

/**
 * GET /policies: a client's policies, newest first, a page (one Query) at a time, optionally
 * created in [created_gte, created_lt) and of one status; the cursor is bound like the orders'.
 */
export interface ListPoliciesQuery {
  limit: number;
  cursor?: string;
  created_gte?: string;
  created_lt?: string;
  status?: PolicyStatus;
}

export interface ListPoliciesDeps {
  policies: PolicyLister;
  cursors: ListOrdersDeps['cursors'];
}

export async function listPolicies(
  deps: ListPoliciesDeps,
  clientId: string,
  query: ListPoliciesQuery,
): Promise<{ policies: FoundPolicy[]; nextCursor?: string }> {
  const filters = { list: 'policies', created_gte: query.created_gte, created_lt: query.created_lt, status: query.status };
  const after = query.cursor === undefined ? undefined : await deps.cursors.open(clientId, filters, query.cursor);
  const page = await deps.policies.listPolicies(clientId, {
    createdGte: query.created_gte,
    createdLt: query.created_lt,
    after,
    status: query.status,
    limit: query.limit,
  });
  return { policies: page.policies, ...(page.next === undefined ? {} : { nextCursor: await deps.cursors.seal(clientId, filters, page.next) }) };
}
