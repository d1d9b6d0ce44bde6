import { ConflictError, NotFoundError } from '../errors.js';
import { refuseIfClaimed } from './claim.js';
import { DEFAULT_LOOK_PERIOD_DAYS, type ClientStore } from './client.js';
import type { Order, OrderItem } from './order.js';
import { ChangeRejectedError, type Clock, type IdempotencyReceipt, type OrderStore } from './ports.js';
import { settled, withinLookPeriod, type CancelReason, type SettleAction } from './settle-policy.js';

export interface CancelOrderDeps {
  orders: Pick<OrderStore, 'get' | 'settlePolicies'>;
  /** Read for a void only: the client's look period. */
  clients: Pick<ClientStore, 'get'>;
  clock: Clock;
}

/** Attempts before an order that keeps changing under concurrent requests gives up with 409. */
const MAX_ATTEMPTS = 8;

/**
 * POST /orders/{id}/cancel: every Issued policy of the order moves (`cancel` or `void`), all or
 * nothing, in one transaction conditional on the order's version and each policy still being
 * Issued. A policy under an open claim stops the whole order (409 `claim_open` naming it). A void outside the look period for any one of them moves none (409 naming it). An order
 * with nothing Issued left is answered as it is.
 */
export async function cancelOrder(
  deps: CancelOrderDeps,
  clientId: string,
  orderId: string,
  action: SettleAction,
  reason: CancelReason,
  receipt?: IdempotencyReceipt,
): Promise<Order> {
  const lookPeriodDays = action === 'void' ? ((await deps.clients.get(clientId))?.look_period_days ?? DEFAULT_LOOK_PERIOD_DAYS) : undefined;
  for (let attempt = 1; ; attempt++) {
    const before = await deps.orders.get(clientId, orderId);
    if (!before) throw new NotFoundError('order_not_found', 'No order with this id.');
    const now = deps.clock.now();
    const issued = before.items.filter((item) => item.policy.status === 'Issued' && item.replaced_by === undefined);
    refuseIfClaimed(issued, (item) => item.policy.policy_number);
    const late = lookPeriodDays === undefined ? undefined : issued.find((item) => !withinLookPeriod(item.policy, lookPeriodDays, now));
    if (late) {
      throw new ConflictError(
        'look_period_over',
        `Policy ${late.policy.policy_number} is past the look period of ${lookPeriodDays} days, so the order cannot be voided; nothing was changed (cancel it instead).`,
        late.policy.policy_number,
      );
    }
    const moved: OrderItem[] = issued.map((item) => ({ ...item, policy: settled(item.policy, action, reason, now) }));
    const updated = moved.length ? now.toISOString() : before.updated;
    const after: Order = {
      ...before,
      updated,
      version: before.version + (moved.length ? 1 : 0),
      items: before.items.map((item) => moved.find((m) => m.reference_number === item.reference_number) ?? item),
    };
    try {
      await deps.orders.settlePolicies(before, moved, after, receipt);
      return after;
    } catch (err) {
      if (!(err instanceof ChangeRejectedError) || err.reason !== 'stale') throw err;
      if (attempt >= MAX_ATTEMPTS) throw new ConflictError('order_busy', 'The order is being changed by other requests; retry.');
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}
