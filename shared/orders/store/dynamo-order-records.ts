import type { Order, OrderItem } from '../order.js';
import { MINOR_UNITS_MARK } from '../../platform/money/index.js';
import {
  orderItemKey,
  orderKey,
  orderListKey,
  orderListShard,
  orderListSort,
  policyListKey,
  policyListShard,
  policyListSort,
  policyLookupKey,
  recordFields,
  storedRecord,
} from '../../platform/dynamo/keys.js';
import { upgradedHeader, upgradedItem, withHistory } from './dynamo-old-order-records.js';

/**
 * An order's records as stored today, both ways: an order is one partition, the header (`ORDER`)
 * and one record per item (`ITEM#<reference>`), each item holding its policy and event. Records
 * stored in older shapes are read through dynamo-old-order-records.ts.
 */

export type OrderHeader = Omit<Order, 'items'>;

/** Index keys: every record of an order sits in the order-list index (`list_*`); items also in the policy-number index. */
type IndexKeys = { list_key?: string; list_sort?: string; policy_key?: string; plist_key?: string; plist_sort?: string };

export const headerRecord = (order: Order) => {
  const { items: _items, ...header } = order;
  const key = orderKey(order.client_id, order.service_order_id);
  const record: ReturnType<typeof storedRecord<OrderHeader>> & IndexKeys = storedRecord(key, 'order', { ...header, ...MINOR_UNITS_MARK });
  record.list_key = orderListKey(order.client_id, orderListShard(order.service_order_id));
  record.list_sort = orderListSort(order.created, order.service_order_id, key.SK);
  return record;
};

/** An item record also carries its order's currency (a policy read on its own formats its amounts) and the minor-units mark. */
export const itemRecord = (order: Pick<Order, 'client_id' | 'service_order_id' | 'order_number' | 'created' | 'currency'>, item: OrderItem) => {
  const key = orderItemKey(order.client_id, order.service_order_id, item.reference_number);
  // The order's currency and number ride on each item: the stream's consumers (the ledger, its bordereaux) read an item alone.
  const record: ReturnType<typeof storedRecord<OrderItem>> & IndexKeys = storedRecord(key, 'item', {
    ...item,
    currency: order.currency,
    order_number: order.order_number,
    ...MINOR_UNITS_MARK,
  });
  record.list_key = orderListKey(order.client_id, orderListShard(order.service_order_id));
  record.list_sort = orderListSort(order.created, order.service_order_id, key.SK);
  record.policy_key = policyLookupKey(order.client_id, item.policy.policy_number);
  record.plist_key = policyListKey(order.client_id, policyListShard(item.policy.policy_number));
  record.plist_sort = policyListSort(item.policy.created, item.policy.policy_number);
  return record;
};

/** An order's record without what only the store uses: its index keys and `canceled_at` (the order.canceled webhook's mark). */
const STORE_ONLY = ['policy_key', 'list_key', 'list_sort', 'plist_key', 'plist_sort', 'canceled_at'];

/** The header and an item as the service reads them, whichever shape they were stored in. */
export const headerOf = (record: Record<string, unknown>): OrderHeader => recordFields<OrderHeader>(upgradedHeader(record), [...STORE_ONLY, 'minor_units']);
export const itemOf = (record: Record<string, unknown>, currency: string): OrderItem =>
  withHistory(recordFields<OrderItem>(upgradedItem(record, currency), [...STORE_ONLY, 'currency', 'order_number', 'minor_units']));

/** An order from its header and item records. */
export function assemble(records: readonly Record<string, unknown>[]): Order {
  const record = records.find((record) => record.entity === 'order');
  if (!record) throw new Error('an order in the order-list index without its header');
  const header = headerOf(record);
  const items = records.filter((record) => record.entity === 'item').map((record) => itemOf(record, header.currency));
  items.sort((a, b) => a.position - b.position);
  return { ...header, items };
}
