import { ChangeRejectedError, ConflictError, ValidationError } from '../platform/errors.js';
import { orderNotFound } from './order.js';
import type { Clock } from '../platform/clock.js';
import { MAX_TRANSACTION_ACTIONS } from '../platform/limits.js';
import type { Order, OrderItem } from './order.js';
import type { OrderReader, OrderWriter } from './ports.js';

/**
 * A test helper (docs/api.md "Test mode"): an order and its policies made `days` older, so that a
 * void after the look period, or anything else that waits on time, can be tried now. Its own
 * times move (the order's and each item's creation, each policy's creation, history and void
 * window); the event dates do not (they are the merchant's), nor the ledger, the day counts or the
 * webhook events already sent, which keep the moment things happened.
 */
export const MAX_ADVANCE_DAYS = 400;
/** The advance is one transaction: the order's header and each of its item records, within DynamoDB's MAX_TRANSACTION_ACTIONS. */
export const MAX_ADVANCE_ITEMS = MAX_TRANSACTION_ACTIONS - 1;
const DAY_MS = 86_400_000;
/** Reads and tries of an advance while concurrent writes keep making its read stale; then 409 order_busy. */
const ATTEMPTS = 3;

const earlier = (at: string, ms: number): string => new Date(Date.parse(at) - ms).toISOString();

/** The order as if it had been made `days` earlier (a new version, updated now). */
export function advancedOrder(order: Order, days: number, now: Date): Order {
  const ms = days * DAY_MS;
  const item = (it: OrderItem): OrderItem => ({
    ...it,
    created: earlier(it.created, ms),
    policy: {
      ...it.policy,
      created: earlier(it.policy.created, ms),
      history: it.policy.history.map((step) => ({ ...step, at: earlier(step.at, ms) })),
      ...(it.policy.void_until ? { void_until: earlier(it.policy.void_until, ms) } : {}),
    },
  });
  return {
    ...order,
    created: earlier(order.created, ms),
    updated: now.toISOString(),
    version: order.version + 1,
    advanced_days: (order.advanced_days ?? 0) + days,
    items: order.items.map(item),
  };
}

export async function advanceOrder(
  deps: { orders: OrderReader & Pick<OrderWriter, 'rewriteTimes'>; clock: Clock },
  clientId: string,
  orderId: string,
  days: number,
): Promise<Order> {
  if (!Number.isInteger(days) || days < 1 || days > MAX_ADVANCE_DAYS)
    throw new ValidationError(`days: must be a whole number from 1 to ${MAX_ADVANCE_DAYS}.`, 'days');
  for (let attempt = 1; ; attempt++) {
    const order = await deps.orders.get(clientId, orderId);
    if (!order) throw orderNotFound();
    if (order.items.length > MAX_ADVANCE_ITEMS)
      throw new ValidationError(
        `This order holds ${order.items.length} item records (replaced ones included); the advance is one transaction and takes orders of at most ${MAX_ADVANCE_ITEMS}.`,
        undefined,
        'order_too_large_to_advance',
      );
    // In all, not only per call: an order stays within 400 days of when it was made (its dates stay real dates).
    const already = order.advanced_days ?? 0;
    if (already + days > MAX_ADVANCE_DAYS)
      throw new ValidationError(
        `days: an order can be made at most ${MAX_ADVANCE_DAYS} days older in all; this one already is ${already} days older (at most ${MAX_ADVANCE_DAYS - already} more).`,
        'days',
      );
    const advanced = advancedOrder(order, days, deps.clock.now());
    try {
      await deps.orders.rewriteTimes(order, advanced);
      return advanced;
    } catch (err) {
      if (!(err instanceof ChangeRejectedError) || err.reason !== 'stale') throw err;
      if (attempt >= ATTEMPTS) throw new ConflictError('order_busy', 'The order is being changed by other requests; retry.');
    }
  }
}
