import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { CheckoutRecord } from '../../conversion/index.js';
import { checkoutAction } from '../../conversion/index.js';
import type { Order, OrderItem, Policy } from '../order.js';
import type { CancellationConfirmation, FoundPolicy, PlannedChange, QuoteRedemption } from '../ports.js';
import type { IdempotencyReceipt, OrderReplay } from '../../platform/idempotency-receipts.js';
import { MINOR_UNITS_MARK } from '../../platform/money/index.js';
import { receiptAction } from '../../platform/dynamo/idempotency-store.js';
import { cancellationKey, orderItemKey, orderKey, quoteRedemptionKey, storedRecord, type Key } from '../../platform/dynamo/keys.js';
import { headerRecord, itemRecord } from './dynamo-order-records.js';

/**
 * The order writes' transactions, built without sending them (dynamo-order-writes.ts sends them):
 * what each one holds is what shared/platform/limits.ts counts against DynamoDB's limit, and
 * dynamo-order-transactions.test.ts holds the two to each other.
 */

export type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

export interface OrderTables {
  tableName: string;
  metricsTableName: string;
}

const receiptActions = (tableName: string, receipt: IdempotencyReceipt | undefined, replay: OrderReplay) =>
  receipt ? [receiptAction(tableName, receipt, replay)] : [];

/**
 * An item's policy replaced by its settled one (canceled or void), only while it is still Issued,
 * not replaced and under no open claim. It writes the item's amounts, so it writes them all in
 * minor units with the mark (a record never holds two units).
 */
const settleAction = (tableName: string, key: Key, item: OrderItem, policy: Policy, currency: string) => ({
  Update: {
    TableName: tableName,
    Key: key,
    UpdateExpression: 'SET #policy = :policy, cost = :cost, currency = :currency, minor_units = :mark',
    ConditionExpression: '#policy.#status = :issued AND attribute_not_exists(replaced_by) AND attribute_not_exists(open_claim)',
    ExpressionAttributeNames: { '#policy': 'policy', '#status': 'status' },
    ExpressionAttributeValues: { ':policy': policy, ':cost': item.cost, ':currency': currency, ':mark': true, ':issued': 'Issued' },
  },
});

/** A confirm's mark on its kept preview, only if it is there and not confirmed yet (one confirm wins). */
const confirmationActions = (tableName: string, confirmation: CancellationConfirmation | undefined) =>
  confirmation
    ? [
        {
          Update: {
            TableName: tableName,
            Key: cancellationKey(confirmation.client_id, confirmation.cancellation_id),
            UpdateExpression: 'SET confirmed_at = :at',
            ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(confirmed_at)',
            ExpressionAttributeValues: { ':at': confirmation.confirmed_at },
          },
        },
      ]
    : [];

/**
 * That a quote sold its order, only if no order did before; kept (TTL) until the quote's tokens
 * expire, when no order can redeem them anyway.
 */
const redemptionActions = (tableName: string, order: Order, redemption: QuoteRedemption | undefined) =>
  redemption
    ? [
        {
          Put: {
            TableName: tableName,
            Item: storedRecord(quoteRedemptionKey(order.client_id, redemption.quote_id), 'quote_redemption', {
              service_order_id: order.service_order_id,
              redeemed_at: order.created,
              expires_at: Math.ceil(redemption.expires_at.getTime() / 1000),
            }),
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
      ]
    : [];

/** Where createTransaction puts the redemption, when there is one: right after the checkout record, so a cancellation reads back which guard refused. */
export const REDEMPTION_ACTION = 1;

/**
 * Creating an order: the checkout record first (its condition guards the order number), the
 * quote's redemption (its condition lets a quote sell one order), the header, one Put per item, the
 * receipt (CREATE_ORDER_RESERVED_ACTIONS besides the items).
 */
export function createTransaction(
  tables: OrderTables,
  order: Order,
  checkout: CheckoutRecord,
  receipt?: IdempotencyReceipt,
  redemption?: QuoteRedemption,
): TransactItems {
  const replay: OrderReplay = {
    service_order_id: order.service_order_id,
    first_position: 0,
    count: order.items.length,
    subtotal: order.subtotal,
    updated: order.updated,
    ...MINOR_UNITS_MARK,
  };
  return [
    checkoutAction(tables.metricsTableName, checkout),
    ...redemptionActions(tables.tableName, order, redemption),
    { Put: { TableName: tables.tableName, Item: headerRecord(order), ConditionExpression: 'attribute_not_exists(PK)' } },
    ...order.items.map((item) => ({ Put: { TableName: tables.tableName, Item: itemRecord(order, item), ConditionExpression: 'attribute_not_exists(PK)' } })),
    ...receiptActions(tables.tableName, receipt, replay),
  ];
}

/**
 * Changing an order: action 0 moves the header from the version read to the next one; then, per
 * change, the old item's policy leaves Issued (only if still Issued) and the new item is put (only
 * if its reference is free); the receipt last (failedChange reads a cancellation back).
 */
export function changeTransaction(
  tableName: string,
  before: Order,
  changes: readonly PlannedChange[],
  after: Pick<Order, 'subtotal' | 'updated' | 'version'>,
  receipt?: IdempotencyReceipt,
): TransactItems {
  const replay: OrderReplay = {
    service_order_id: before.service_order_id,
    first_position: before.items.length,
    count: changes.length,
    subtotal: after.subtotal,
    updated: after.updated,
    ...MINOR_UNITS_MARK,
  };
  return [
    {
      Update: {
        TableName: tableName,
        Key: orderKey(before.client_id, before.service_order_id),
        UpdateExpression: 'SET subtotal = :subtotal, minor_units = :mark, updated = :updated, version = :next',
        ConditionExpression: 'version = :read',
        ExpressionAttributeValues: { ':subtotal': after.subtotal, ':mark': true, ':updated': after.updated, ':next': after.version, ':read': before.version },
      },
    },
    ...changes.flatMap((change) => [
      {
        Update: {
          TableName: tableName,
          Key: orderItemKey(before.client_id, before.service_order_id, change.old.reference_number),
          UpdateExpression: 'SET #policy.#status = :status, #policy.history = list_append(if_not_exists(#policy.history, :none), :step), replaced_by = :by',
          ConditionExpression: '#policy.#status = :issued AND attribute_not_exists(replaced_by) AND attribute_not_exists(open_claim)',
          ExpressionAttributeNames: { '#policy': 'policy', '#status': 'status' },
          ExpressionAttributeValues: {
            ':status': change.oldStep.status,
            ':step': [change.oldStep],
            ':none': [],
            ':by': change.replacement.reference_number,
            ':issued': 'Issued',
          },
        },
      },
      { Put: { TableName: tableName, Item: itemRecord(before, change.replacement), ConditionExpression: 'attribute_not_exists(PK)' } },
    ]),
    ...receiptActions(tableName, receipt, replay),
  ];
}

/**
 * The change a failed action of changeTransaction belongs to, and what its failure means (each
 * change holds two actions after the header's); undefined for the header or the receipt.
 */
export function failedChange(failedAction: number): { change: number; reason: 'policy_not_issued' | 'reference_exists' } | undefined {
  if (failedAction < 1) return undefined;
  return { change: Math.floor((failedAction - 1) / 2), reason: (failedAction - 1) % 2 === 0 ? 'policy_not_issued' : 'reference_exists' };
}

/** Cancelling or voiding: the order's next version and each settled policy (only if still Issued), with the receipt; the receipt alone when nothing moves. */
export function settleTransaction(
  tableName: string,
  before: Order,
  settled: readonly OrderItem[],
  after: Pick<Order, 'updated' | 'version'>,
  receipt?: IdempotencyReceipt,
  confirmation?: CancellationConfirmation,
): TransactItems {
  const replay: OrderReplay = {
    service_order_id: before.service_order_id,
    first_position: 0,
    count: before.items.length,
    subtotal: before.subtotal,
    updated: after.updated,
    whole: true,
    ...MINOR_UNITS_MARK,
  };
  const receipts = [...receiptActions(tableName, receipt, replay), ...confirmationActions(tableName, confirmation)];
  if (settled.length === 0) return receipts;
  return [
    {
      Update: {
        TableName: tableName,
        Key: orderKey(before.client_id, before.service_order_id),
        // canceled_at: the first time the whole order was canceled or voided (the order.canceled webhook).
        UpdateExpression: 'SET updated = :updated, version = :next, canceled_at = if_not_exists(canceled_at, :updated)',
        ConditionExpression: 'version = :read',
        ExpressionAttributeValues: { ':updated': after.updated, ':next': after.version, ':read': before.version },
      },
    },
    ...settled.map((item) =>
      settleAction(tableName, orderItemKey(before.client_id, before.service_order_id, item.reference_number), item, item.policy, before.currency),
    ),
    ...receipts,
  ];
}

/** One policy settled (only if still Issued) and its order's `updated`. */
export function settlePolicyTransaction(
  tableName: string,
  clientId: string,
  found: FoundPolicy,
  next: Policy,
  confirmation?: CancellationConfirmation,
): TransactItems {
  const at = next.history[next.history.length - 1]!.at;
  return [
    settleAction(tableName, orderItemKey(clientId, found.service_order_id, found.item.reference_number), found.item, next, found.currency),
    {
      Update: {
        TableName: tableName,
        Key: orderKey(clientId, found.service_order_id),
        UpdateExpression: 'SET updated = :at',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':at': at },
      },
    },
    ...confirmationActions(tableName, confirmation),
  ];
}

/** The order's and each item's times as `after` has them (the test helper's advance), each only if as read. */
export function rewriteTimesTransaction(tableName: string, before: Order, after: Order): TransactItems {
  const header = headerRecord(after);
  return [
    {
      Update: {
        TableName: tableName,
        Key: orderKey(after.client_id, after.service_order_id),
        UpdateExpression: 'SET created = :created, updated = :updated, version = :next, list_sort = :sort, advanced_days = :advanced',
        ConditionExpression: 'version = :read',
        ExpressionAttributeValues: {
          ':advanced': after.advanced_days ?? 0,
          ':created': after.created,
          ':updated': after.updated,
          ':next': after.version,
          ':sort': header.list_sort,
          ':read': before.version,
        },
      },
    },
    ...after.items.map((item, index) => {
      const read = before.items[index]!;
      const record = itemRecord(after, item);
      return {
        Update: {
          TableName: tableName,
          Key: orderItemKey(after.client_id, after.service_order_id, item.reference_number),
          UpdateExpression:
            'SET created = :created, #policy.created = :pcreated, #policy.history = :history, list_sort = :sort, plist_sort = :psort' +
            (item.policy.void_until ? ', #policy.void_until = :until' : ''),
          // Only as read: a void, a change or a claim meanwhile makes this stale (read again, advance again).
          ConditionExpression: `#policy.#status = :status AND ${read.replaced_by ? 'replaced_by = :replaced' : 'attribute_not_exists(replaced_by)'} AND ${read.open_claim ? 'open_claim = :claim' : 'attribute_not_exists(open_claim)'}`,
          ExpressionAttributeNames: { '#policy': 'policy', '#status': 'status' },
          ExpressionAttributeValues: {
            ':created': item.created,
            ':pcreated': item.policy.created,
            ':history': item.policy.history,
            ':sort': record.list_sort,
            ':psort': record.plist_sort,
            ':status': read.policy.status,
            ...(item.policy.void_until ? { ':until': item.policy.void_until } : {}),
            ...(read.replaced_by ? { ':replaced': read.replaced_by } : {}),
            ...(read.open_claim ? { ':claim': read.open_claim } : {}),
          },
        },
      };
    }),
  ];
}
