import { describe, expect, it } from 'vitest';
import type { CheckoutRecord } from '../../conversion/index.js';
import type { IdempotencyReceipt } from '../../platform/idempotency-receipts.js';
import {
  ACTIONS_PER_CHANGE,
  CHANGE_ORDER_RESERVED_ACTIONS,
  CREATE_ORDER_RESERVED_ACTIONS,
  MAX_CHANGES,
  MAX_CHECKOUT_ITEMS,
  MAX_TRANSACTION_ACTIONS,
  SETTLE_ORDER_RESERVED_ACTIONS,
} from '../../platform/limits.js';
import { MAX_ADVANCE_ITEMS, advancedOrder } from '../advance-order.js';
import {
  REDEMPTION_ACTION,
  changeTransaction,
  createTransaction,
  failedChange,
  rewriteTimesTransaction,
  settleTransaction,
} from './dynamo-order-transactions.js';
import type { Order, OrderItem } from '../order.js';
import type { PlannedChange } from '../ports.js';

/**
 * Issue 36.4: the actions limits.ts reserves are what the order writes' transactions hold, at the
 * largest request each takes, within DynamoDB's limit.
 */
const NOW = new Date('2026-11-23T10:00:00.000Z');
const TABLES = { tableName: 'main', metricsTableName: 'metrics' };
const RECEIPT: IdempotencyReceipt = { clientId: 'cl_1', key: 'k-1', fingerprint: 'f', now: NOW };

function item(reference: string, position: number): OrderItem {
  return {
    id: `itm_${reference}`,
    position,
    reference_number: reference,
    name: reference,
    cost: 1000,
    event: null,
    created: NOW.toISOString(),
    policy: {
      policy_number: `OP-${reference}`,
      policy_number_new: `uuid-${reference}`,
      premium: 85,
      coverage_amount: 1000,
      status: 'Issued',
      history: [{ status: 'Issued', at: NOW.toISOString(), reason: 'order_created' }],
      created: NOW.toISOString(),
    },
  };
}

function order(items: number): Order {
  return {
    service_order_id: 'o-1',
    client_id: 'cl_1',
    order_number: 'N-1',
    currency: 'USD',
    rate_ppm: 85_000,
    customer: null,
    created: NOW.toISOString(),
    updated: NOW.toISOString(),
    version: 1,
    items: Array.from({ length: items }, (_, i) => item(`r${i}`, i)),
    subtotal: items * 1000,
  };
}

const CHECKOUT: CheckoutRecord = {
  client_id: 'cl_1',
  order_hash: 'h',
  order_ref: null,
  opt_in: true,
  service_order_id: 'o-1',
  quote_id: null,
  currency: 'USD',
  item_count: MAX_CHECKOUT_ITEMS,
  subtotal: '0.00',
  premium_total: '0.00',
  country: null,
  state: null,
  zip_prefix: null,
  payment_type: null,
  event_dates: [],
  day: '2026-11-23',
  logged_at: NOW.toISOString(),
};

describe('the order writes’ transactions at their largest', () => {
  it('an opt-in order of MAX_CHECKOUT_ITEMS items redeeming a quote, with a receipt: the items and CREATE_ORDER_RESERVED_ACTIONS, within the limit', () => {
    const redemption = { quote_id: 'qt_1', expires_at: new Date(NOW.getTime() + 7 * 86_400_000) };
    const actions = createTransaction(TABLES, order(MAX_CHECKOUT_ITEMS), CHECKOUT, RECEIPT, redemption);
    expect(actions).toHaveLength(MAX_CHECKOUT_ITEMS + CREATE_ORDER_RESERVED_ACTIONS);
    expect(actions.length).toBeLessThanOrEqual(MAX_TRANSACTION_ACTIONS);
    // What the reserved ones are: the checkout record (first: it guards the order number), the
    // quote's redemption (second: it lets the quote sell one order), the header, the receipt.
    expect(actions[0]!.Put!.TableName).toBe('metrics');
    expect(actions[REDEMPTION_ACTION]!.Put).toMatchObject({
      Item: { entity: 'quote_redemption', SK: 'REDEEMED', expires_at: Math.ceil(redemption.expires_at.getTime() / 1000) },
      ConditionExpression: 'attribute_not_exists(PK)',
    });
    expect(actions[REDEMPTION_ACTION]!.Put!.Item!.PK).toContain('#QUOTE#qt_1');
    expect(actions[2]!.Put!.Item!.entity).toBe('order');
    // Without a quote (an order sent without a token), one action fewer.
    expect(createTransaction(TABLES, order(MAX_CHECKOUT_ITEMS), CHECKOUT, RECEIPT)).toHaveLength(MAX_CHECKOUT_ITEMS + CREATE_ORDER_RESERVED_ACTIONS - 1);
    expect(actions.filter((action) => action.Put?.Item?.entity === 'item')).toHaveLength(MAX_CHECKOUT_ITEMS);
    expect(actions[actions.length - 1]!.Put!.Item!.entity).toBe('idempotency');
  });

  it('a request of MAX_CHANGES changes with a receipt: ACTIONS_PER_CHANGE each and CHANGE_ORDER_RESERVED_ACTIONS, within the limit', () => {
    const before = order(MAX_CHECKOUT_ITEMS);
    const changes: PlannedChange[] = before.items.slice(0, MAX_CHANGES).map((old, index) => ({
      index,
      old,
      oldStep: { status: 'Canceled', at: NOW.toISOString(), reason: 'upgrade' },
      replacement: item(`n${index}`, MAX_CHECKOUT_ITEMS + index),
    }));
    const actions = changeTransaction('main', before, changes, { subtotal: before.subtotal, updated: NOW.toISOString(), version: 2 }, RECEIPT);
    expect(actions).toHaveLength(CHANGE_ORDER_RESERVED_ACTIONS + ACTIONS_PER_CHANGE * MAX_CHANGES);
    expect(actions.length).toBeLessThanOrEqual(MAX_TRANSACTION_ACTIONS);
  });

  it('reads a failed action of a change back to its change: the old policy’s update, then the new item’s put', () => {
    expect(failedChange(0)).toBeUndefined();
    expect(failedChange(1)).toEqual({ change: 0, reason: 'policy_not_issued' });
    expect(failedChange(2)).toEqual({ change: 0, reason: 'reference_exists' });
    expect(failedChange(1 + ACTIONS_PER_CHANGE * 3)).toEqual({ change: 3, reason: 'policy_not_issued' });
  });

  it('cancelling an order of MAX_CHECKOUT_ITEMS current items with a receipt, confirming a preview: one per item and SETTLE_ORDER_RESERVED_ACTIONS, within the limit', () => {
    const before = order(MAX_CHECKOUT_ITEMS);
    const confirmation = { client_id: before.client_id, cancellation_id: 'cn_1', confirmed_at: NOW.toISOString() };
    const actions = settleTransaction('main', before, before.items, { updated: NOW.toISOString(), version: 2 }, RECEIPT, confirmation);
    expect(actions).toHaveLength(MAX_CHECKOUT_ITEMS + SETTLE_ORDER_RESERVED_ACTIONS);
    expect(actions.length).toBeLessThanOrEqual(MAX_TRANSACTION_ACTIONS);
    expect(settleTransaction('main', before, [], { updated: NOW.toISOString(), version: 2 }, RECEIPT)).toHaveLength(1);
    expect(settleTransaction('main', before, [], { updated: NOW.toISOString(), version: 2 }, RECEIPT, confirmation)).toHaveLength(2);
  });

  it('advancing an order of MAX_ADVANCE_ITEMS item records: the header and one per item, within the limit', () => {
    const before = order(MAX_ADVANCE_ITEMS);
    const actions = rewriteTimesTransaction('main', before, advancedOrder(before, 1, NOW));
    expect(actions).toHaveLength(MAX_ADVANCE_ITEMS + 1);
    expect(actions.length).toBeLessThanOrEqual(MAX_TRANSACTION_ACTIONS);
  });
});
