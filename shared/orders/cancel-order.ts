import { ConflictError } from '../platform/errors.js';
import { orderNotFound } from './order.js';
import type { ClientStore } from '../clients/index.js';
import { refuseIfClaimed, isCurrent, type Order, type OrderItem, type PolicyStatus } from './order.js';
import { ChangeRejectedError } from '../platform/errors.js';
import type { Clock } from '../platform/clock.js';
import type { IdempotencyReceipt } from '../platform/idempotency-receipts.js';
import type { OrderReader, OrderWriter } from './ports.js';
import { legacyLookPeriod, refuseAfterVoidWindow, settled, TARGET, type CancelReason, type SettleAction } from './settle-policy.js';

export interface CancelOrderDeps {
  orders: OrderReader & Pick<OrderWriter, 'settlePolicies'>;
  /** Read only to void a policy stored without its window: the client's look period. */
  clients: Pick<ClientStore, 'get'>;
  clock: Clock;
}

const nothingToSettle = (policyNumber: string, status: PolicyStatus, action: SettleAction) =>
  new ConflictError(
    'policy_not_issued',
    `Policy ${policyNumber} is ${status}, and no policy of the order is Issued: nothing can be ${action === 'void' ? 'voided' : 'canceled'}.`,
    policyNumber,
  );

/**
 * With nothing Issued left, whether this request is a repeat: every policy is already in the asked
 * status, or the order's latest move took its last Issued policies there (a void again of an order
 * voided after one of its policies was canceled on its own; a retry after a lost answer).
 */
function repeatsLastMove(current: readonly OrderItem[], target: PolicyStatus): boolean {
  // When every policy is in the asked status, so is the one that moved last.
  const lastAt = current.reduce((latest, item) => (item.policy.history.at(-1)!.at > latest ? item.policy.history.at(-1)!.at : latest), '');
  return current.some((item) => item.policy.status === target && item.policy.history.at(-1)!.at === lastAt);
}

/** Attempts before an order that keeps changing under concurrent requests gives up with 409. */
export const MAX_ATTEMPTS = 8;

/** What an order's cancel or void does to the order as read: the items it moves, and the order after. */
export interface OrderCancelPlan {
  before: Order;
  moved: OrderItem[];
  after: Order;
}

/**
 * Plans the cancel or void of the order as read (the direct call, its preview and its confirm
 * plan alike): every Issued policy moves; a policy under an open claim stops it all (409
 * `claim_open`), as does a void after any one's void window (409 naming it); with nothing Issued
 * left it is a repeat (nothing moves) or 409 `policy_not_issued`.
 */
export async function planOrderCancel(
  before: Order,
  action: SettleAction,
  reason: CancelReason,
  now: Date,
  lookPeriodDays: () => Promise<number>,
): Promise<OrderCancelPlan> {
  const target = TARGET[action];
  const current = before.items.filter(isCurrent);
  const issued = current.filter((item) => item.policy.status === 'Issued');
  refuseIfClaimed(issued, (item) => item.policy.policy_number);
  if (issued.length === 0 && !repeatsLastMove(current, target)) {
    const other = current.find((item) => item.policy.status !== target)!;
    throw nothingToSettle(other.policy.policy_number, other.policy.status, action);
  }
  if (action === 'void') for (const item of issued) await refuseAfterVoidWindow(item.policy, now, lookPeriodDays, true);
  const moved: OrderItem[] = issued.map((item) => ({ ...item, policy: settled(item.policy, action, reason, now) }));
  const after: Order = {
    ...before,
    updated: moved.length ? now.toISOString() : before.updated,
    version: before.version + (moved.length ? 1 : 0),
    items: before.items.map((item) => moved.find((m) => m.reference_number === item.reference_number) ?? item),
  };
  return { before, moved, after };
}

/** A short, growing, random pause before planning again on an order that moved under this request. */
export const backOff = (attempt: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));

/**
 * POST /orders/{id}/cancel: every Issued policy of the order moves (`cancel` or `void`), all or
 * nothing, in one transaction conditional on the order's version and each policy still being
 * Issued (planOrderCancel says what moves and what is refused). An order with nothing Issued left
 * is answered as it is only when the request is a true repeat (repeatsLastMove).
 */
export async function cancelOrder(
  deps: CancelOrderDeps,
  clientId: string,
  orderId: string,
  action: SettleAction,
  reason: CancelReason,
  receipt?: IdempotencyReceipt,
): Promise<Order> {
  const lookPeriodDays = legacyLookPeriod(deps.clients, clientId);
  for (let attempt = 1; ; attempt++) {
    const before = await deps.orders.get(clientId, orderId);
    if (!before) throw orderNotFound();
    const { moved, after } = await planOrderCancel(before, action, reason, deps.clock.now(), lookPeriodDays);
    try {
      await deps.orders.settlePolicies(before, moved, after, receipt);
      return after;
    } catch (err) {
      if (!(err instanceof ChangeRejectedError) || err.reason !== 'stale') throw err;
      if (attempt >= MAX_ATTEMPTS) throw new ConflictError('order_busy', 'The order is being changed by other requests; retry.');
      await backOff(attempt);
    }
  }
}
