import type { Order, PolicyStatus } from './order.js';
import type { ListCursors, ListFilters } from '../platform/list-cursors.js';
import type { OrderLister, OrderReader } from './ports.js';

/**
 * GET /orders: a client's orders, newest first, a page at a time. Filters: created in
 * [created_gte, created_lt), `status` (has a policy in that status), `order_number` (the one order
 * with that merchant number). The cursor continues the same list: it is bound to the client and
 * the filters (not to `limit`, which may change between pages).
 */
export interface ListOrdersQuery {
  limit: number;
  cursor?: string;
  created_gte?: string;
  created_lt?: string;
  order_number?: string;
  status?: PolicyStatus;
}

export interface ListOrdersDeps {
  orders: OrderLister & OrderReader;
  cursors: ListCursors;
  /** The service_order_id of the order with this merchant number, if one was created. */
  orderIdByNumber(clientId: string, orderNumber: string): Promise<string | undefined>;
}

export async function listOrders(deps: ListOrdersDeps, clientId: string, query: ListOrdersQuery): Promise<{ orders: Order[]; nextCursor?: string }> {
  const filters: ListFilters = { created_gte: query.created_gte, created_lt: query.created_lt, order_number: query.order_number, status: query.status };
  const after = query.cursor === undefined ? undefined : await deps.cursors.open(clientId, filters, query.cursor);
  const wanted = (order: Order) =>
    (query.created_gte === undefined || order.created >= query.created_gte) &&
    (query.created_lt === undefined || order.created < query.created_lt) &&
    (query.status === undefined || order.items.some((item) => item.policy.status === query.status));

  if (query.order_number !== undefined) {
    if (after !== undefined) return { orders: [] }; // a list of at most one order has no second page
    const id = await deps.orderIdByNumber(clientId, query.order_number);
    const order = id === undefined ? undefined : await deps.orders.get(clientId, id);
    return { orders: order && wanted(order) ? [order] : [] };
  }
  const page = await deps.orders.listOrders(clientId, {
    createdGte: query.created_gte,
    createdLt: query.created_lt,
    after,
    status: query.status,
    limit: query.limit,
  });
  return {
    orders: page.orders,
    ...(page.next === undefined ? {} : { nextCursor: await deps.cursors.seal(clientId, filters, page.next) }),
  };
}
