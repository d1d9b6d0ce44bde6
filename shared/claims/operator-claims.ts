import type { Claim } from './claim.js';
import { claimQueue, type QueueDeps } from './claims.js';
import type { ClientLabel, ClientNames } from '../clients/index.js';
import type { OrderExcerpt, OrderExcerpts } from '../orders/index.js';
import type { ClaimStore, StoredClaim } from './ports.js';

/**
 * What the operator reads beside a claim so that a person can tell it apart: the order's number,
 * the merchant's name, and each claimed policy's item and event. Read for a whole queue page at
 * once (the orders' and the clients' batched reads, side by side), never a read per claim.
 */
export interface ContextDeps {
  orders: OrderExcerpts;
  clients: ClientNames;
}

/** A claim's order and merchant; undefined where the record is gone. */
export interface ClaimContext {
  order?: OrderExcerpt;
  client?: ClientLabel;
}

/** The context of each claim, in the claims' order: two batched reads in parallel, whatever the number of claims. */
export async function claimContexts(deps: ContextDeps, claims: readonly Claim[]): Promise<ClaimContext[]> {
  if (claims.length === 0) return [];
  const wanted = new Map<string, { client_id: string; service_order_id: string; reference_numbers: Set<string> }>();
  for (const claim of claims) {
    const id = `${claim.client_id}/${claim.service_order_id}`;
    const order = wanted.get(id) ?? { client_id: claim.client_id, service_order_id: claim.service_order_id, reference_numbers: new Set<string>() };
    for (const policy of claim.policies) order.reference_numbers.add(policy.reference_number);
    wanted.set(id, order);
  }
  const [excerpts, names] = await Promise.all([
    deps.orders.excerpts([...wanted.values()].map((order) => ({ ...order, reference_numbers: [...order.reference_numbers] }))),
    deps.clients.names([...new Set(claims.map((claim) => claim.client_id))]),
  ]);
  const byOrder = new Map(excerpts.map((excerpt) => [`${excerpt.client_id}/${excerpt.service_order_id}`, excerpt]));
  return claims.map((claim) => {
    const order = byOrder.get(`${claim.client_id}/${claim.service_order_id}`);
    const client = names.get(claim.client_id);
    return { ...(order ? { order } : {}), ...(client ? { client } : {}) };
  });
}

/** The operator's queue page, each claim with its context. */
export async function operatorQueue(deps: QueueDeps & ContextDeps, query: Parameters<typeof claimQueue>[1]) {
  const page = await claimQueue(deps, query);
  const contexts = await claimContexts(deps, page.claims);
  return { claims: page.claims.map((claim, index) => ({ claim, context: contexts[index]! })), nextCursor: page.nextCursor };
}

/** One claim as the operator reads it, with its context. */
export async function withContext(deps: ContextDeps, stored: StoredClaim): Promise<StoredClaim & { context: ClaimContext }> {
  const [context] = await claimContexts(deps, [stored.claim]);
  return { ...stored, context: context! };
}

/** What the search by order number reads: the order's id by its number (the keyed hash's lookup), then its claims. */
export interface OrderSearchDeps extends ContextDeps {
  claims: Pick<ClaimStore, 'ofOrder'>;
  orderIdByNumber(clientId: string, orderNumber: string): Promise<string | undefined>;
}

/**
 * The claims of one merchant's order, found by its number, oldest first, whatever their status,
 * each with its context: one lookup of the order id, one read of the order's claim ids, one
 * batched read of the claims (at most MAX_ORDER_CLAIMS). An unknown client or order number has
 * none: a search finds nothing rather than refusing.
 */
export async function operatorClaimsOfOrder(deps: OrderSearchDeps, query: { client_id: string; order_number: string }) {
  const orderId = await deps.orderIdByNumber(query.client_id, query.order_number);
  const claims = orderId === undefined ? [] : await deps.claims.ofOrder(query.client_id, orderId);
  const contexts = await claimContexts(deps, claims);
  return { claims: claims.map((claim, index) => ({ claim, context: contexts[index]! })) };
}
