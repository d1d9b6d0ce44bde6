import { describe, expect, it } from 'vitest';
import {
  CHANGE_ORDER_RESERVED_ACTIONS,
  CREATE_ORDER_RESERVED_ACTIONS,
  LIMITS,
  MAX_CHANGES,
  MAX_CHECKOUT_ITEMS,
  MAX_ORDER_ITEMS,
  MAX_TRANSACTION_ACTIONS,
  SETTLE_ORDER_RESERVED_ACTIONS,
  limitViolations,
} from './limits.js';

/** Issue 36.4: the relations between the size limits and DynamoDB's transaction limit are code, checked where the constants live. */
describe('limits', () => {
  it('names DynamoDB’s transaction limit and the four actions an opt-in order reserves besides its items', () => {
    expect(MAX_TRANSACTION_ACTIONS).toBe(100);
    // The checkout record, the quote's redemption, the order header and the Idempotency-Key receipt: no outbox item, no day counter.
    expect(CREATE_ORDER_RESERVED_ACTIONS).toBe(4);
    expect(MAX_CHECKOUT_ITEMS + CREATE_ORDER_RESERVED_ACTIONS).toBeLessThanOrEqual(MAX_TRANSACTION_ACTIONS);
  });

  it('holds for the limits in force', () => {
    expect(LIMITS).toEqual({
      transactionActions: MAX_TRANSACTION_ACTIONS,
      checkoutItems: MAX_CHECKOUT_ITEMS,
      orderItems: MAX_ORDER_ITEMS,
      changes: MAX_CHANGES,
    });
    expect(limitViolations(LIMITS)).toEqual([]);
  });

  it('refuses a checkout larger than one transaction takes beside its reserved actions', () => {
    const largest = MAX_TRANSACTION_ACTIONS - CREATE_ORDER_RESERVED_ACTIONS;
    expect(limitViolations({ ...LIMITS, checkoutItems: largest })).toEqual([]);
    const [violation, ...rest] = limitViolations({ ...LIMITS, checkoutItems: largest + 1 });
    expect(violation).toContain(`${largest + 1} items`);
    expect(violation).toContain(`${MAX_TRANSACTION_ACTIONS} actions`);
    // A cancellation (confirming a preview) reserves fewer actions than a checkout: the checkout's relation breaks first.
    expect(SETTLE_ORDER_RESERVED_ACTIONS).toBeLessThan(CREATE_ORDER_RESERVED_ACTIONS);
    expect(rest).toEqual([]);
    const settleLargest = MAX_TRANSACTION_ACTIONS - SETTLE_ORDER_RESERVED_ACTIONS;
    expect(limitViolations({ ...LIMITS, checkoutItems: settleLargest + 1 })).toContainEqual(
      expect.stringContaining(`cancelling an order of ${settleLargest + 1} items`),
    );
  });

  it('refuses more changes a request than one transaction takes', () => {
    const largest = Math.floor((MAX_TRANSACTION_ACTIONS - CHANGE_ORDER_RESERVED_ACTIONS) / 2);
    expect(limitViolations({ ...LIMITS, changes: largest })).toEqual([]);
    expect(limitViolations({ ...LIMITS, changes: largest + 1 })).toEqual([expect.stringContaining(`${largest + 1} changes`)]);
  });

  it('refuses a checkout larger than an order may hold', () => {
    expect(limitViolations({ ...LIMITS, orderItems: MAX_CHECKOUT_ITEMS - 1 })).toEqual([expect.stringContaining('an order holds at most')]);
  });

  it('refuses a smaller transaction limit under the checkout', () => {
    expect(limitViolations({ ...LIMITS, transactionActions: MAX_CHECKOUT_ITEMS }).length).toBeGreaterThan(0);
  });
});
