/**
 * Size limits, in one place, so that everything the API issues it also accepts back, and the
 * relations they must keep with DynamoDB's transaction limit, checked when this module loads.
 */

/** DynamoDB's TransactWriteItems takes at most this many actions (a fixed service limit). */
export const MAX_TRANSACTION_ACTIONS = 100;

/**
 * The actions an opt-in order's transaction holds besides one Put per item
 * (shared/orders/store/dynamo-order-transactions.ts): the checkout record (its condition guards the order
 * number), the quote's redemption (its condition lets a quote token sell one order), the order header
 * and the Idempotency-Key receipt. Nothing else: webhook events come from these records on the
 * table's stream (no outbox item, docs/decisions.md), and the day counts from the metrics stream (no
 * counter item).
 */
export const CREATE_ORDER_RESERVED_ACTIONS = 4;

/** A change's transaction: the header's move to the next version and the receipt, then ACTIONS_PER_CHANGE per change. */
export const CHANGE_ORDER_RESERVED_ACTIONS = 2;
/** Per change: the old item's policy leaves Issued, the replacement item is put. */
export const ACTIONS_PER_CHANGE = 2;

/**
 * A cancellation's or void's transaction: the header's next version, the receipt and, when it
 * confirms a preview, the cancellation's confirmed mark; then one update per settled item.
 */
export const SETTLE_ORDER_RESERVED_ACTIONS = 3;

/**
 * A checkout (a quote, and the opt-in or opt-out order that redeems it) holds at most this many
 * items: its order is created in one transaction, with CREATE_ORDER_RESERVED_ACTIONS beside the
 * items. A change replaces one item by one, so an order never holds more
 * current items than its checkout did: a cancellation settles at most this many.
 */
export const MAX_CHECKOUT_ITEMS = 96;
/** Changes may grow an order to this many items over its life, replaced ones included. */
export const MAX_ORDER_ITEMS = 100;
/** Changes a request may carry: one transaction takes them all. */
export const MAX_CHANGES = 25;

export interface Limits {
  transactionActions: number;
  checkoutItems: number;
  orderItems: number;
  changes: number;
}

export const LIMITS: Limits = {
  transactionActions: MAX_TRANSACTION_ACTIONS,
  checkoutItems: MAX_CHECKOUT_ITEMS,
  orderItems: MAX_ORDER_ITEMS,
  changes: MAX_CHANGES,
};

/** The relations these limits break, one sentence each (none when they hold). Pure: a test tries other numbers. */
export function limitViolations(limits: Limits): string[] {
  const violations: string[] = [];
  const { transactionActions, checkoutItems, orderItems, changes } = limits;
  const create = checkoutItems + CREATE_ORDER_RESERVED_ACTIONS;
  if (create > transactionActions) {
    violations.push(`an opt-in order of ${checkoutItems} items is a transaction of ${create} actions, past DynamoDB's ${transactionActions} actions`);
  }
  const change = CHANGE_ORDER_RESERVED_ACTIONS + ACTIONS_PER_CHANGE * changes;
  if (change > transactionActions) {
    violations.push(`a request of ${changes} changes is a transaction of ${change} actions, past DynamoDB's ${transactionActions} actions`);
  }
  const settle = SETTLE_ORDER_RESERVED_ACTIONS + checkoutItems;
  if (settle > transactionActions) {
    violations.push(`cancelling an order of ${checkoutItems} items is a transaction of ${settle} actions, past DynamoDB's ${transactionActions} actions`);
  }
  if (checkoutItems > orderItems) violations.push(`a checkout holds ${checkoutItems} items, but an order holds at most ${orderItems}`);
  return violations;
}

const violations = limitViolations(LIMITS);
if (violations.length > 0) throw new Error(`shared/platform/limits.ts: ${violations.join('; ')}`);
