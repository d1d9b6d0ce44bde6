import { GetCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CheckoutRecord } from '../conversion/index.js';
import type { Order, OrderItem, Policy } from './order.js';
import { headerInMinorUnits, itemInMinorUnits } from './stored-amounts.js';
import { MINOR_UNITS_MARK } from '../platform/money/index.js';
import { ChangeRejectedError } from '../platform/errors.js';
import type {
  FoundPolicy,
  ItemsWanted,
  OrderExcerpt,
  OrderExcerpts,
  OrderStore,
  PlannedChange,
  PolicyStore,
  OrderLister,
  OrderPage,
  PolicyPage,
  PolicyLister,
} from './ports.js';
import type { IdempotencyReceipt, OrderReplay } from '../platform/idempotency-receipts.js';
import { ConflictError } from '../platform/errors.js';
import { receiptAction } from '../platform/dynamo/idempotency-store.js';
import {
  orderItemKey,
  orderKey,
  orderListKey,
  orderListShard,
  orderListSort,
  orderPartition,
  policyListKey,
  policyListPosition,
  policyListShard,
  policyListSort,
  policyLookupKey,
  recordFields,
  storedRecord,
  type Key,
} from '../platform/dynamo/keys.js';
import { ORDER_LIST_INDEX, POLICY_INDEX, POLICY_LIST_INDEX } from '../platform/dynamo/table-definitions.js';
import { checkoutAction } from '../conversion/index.js';
import { queryAll } from '../platform/dynamo/query-all.js';
import { batchGet, keyId } from '../platform/dynamo/batch-get.js';
import type { ShardMerge } from '../platform/dynamo/shard-merge.js';
import { shardedList, shardLimit, sortRange, takeRecords, type ListRecord } from '../platform/dynamo/sharded-list.js';
import { cancellationCodes, cancellationError, isOnlyConflict, transactUnlessRefused, transactUnlessStale } from '../platform/dynamo/transactions.js';

type OrderHeader = Omit<Order, 'items'>;

/** Index keys: every record of an order sits in the order-list index (`list_*`); items also in the policy-number index. */
type IndexKeys = { list_key?: string; list_sort?: string; policy_key?: string; plist_key?: string; plist_sort?: string };

const headerItem = (order: Order) => {
  const { items: _items, ...header } = order;
  const key = orderKey(order.client_id, order.service_order_id);
  const record: ReturnType<typeof storedRecord<OrderHeader>> & IndexKeys = storedRecord(key, 'order', { ...header, ...MINOR_UNITS_MARK });
  record.list_key = orderListKey(order.client_id, orderListShard(order.service_order_id));
  record.list_sort = orderListSort(order.created, order.service_order_id, key.SK);
  return record;
};
/** An item record also carries its order's currency (a policy read on its own formats its amounts) and the minor-units mark. */
const itemItem = (order: Pick<Order, 'client_id' | 'service_order_id' | 'order_number' | 'created' | 'currency'>, item: OrderItem) => {
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

/** What a page of orders may weigh in stored records (its JSON answer is about as large). */
const MAX_PAGE_BYTES = 3 * 1024 * 1024;

/**
 * The first `limit` orders that pass `keep` (every order when there is none), stopping before
 * MAX_PAGE_BYTES (never before the first); `full` when more were left than the page took. Without
 * `keep`, an order that starts after a full page is enough to know there is more.
 */
async function fill(records: ShardMerge<ListRecord>, limit: number, keep?: (group: ListRecord[]) => boolean) {
  const page: ListRecord[][] = [];
  let bytes = 0;
  while ((await records.peek()) !== undefined) {
    if (page.length === limit && !keep) return { page, full: true };
    const group = await nextOrder(records);
    if (keep && !keep(group)) continue;
    const size = JSON.stringify(group).length;
    if (page.length === limit || (page.length > 0 && bytes + size > MAX_PAGE_BYTES)) return { page, full: true };
    page.push(group);
    bytes += size;
  }
  return { page, full: false };
}

/** The order (created#order_id) of an order-list record. */
const orderOf = (record: ListRecord): string => {
  const sort = String(record.list_sort);
  return sort.slice(0, sort.indexOf('#', sort.indexOf('#') + 1));
};

/**
 * The next order's records, whole, from the merged order-list index: they come together (an
 * order's records share one shard and a sort-key prefix), so the order ends where the next record
 * is another's.
 */
async function nextOrder(records: ShardMerge<ListRecord>): Promise<ListRecord[]> {
  const group = [(await records.next())!];
  const order = orderOf(group[0]!);
  for (let record = await records.peek(); record !== undefined && orderOf(record) === order; record = await records.peek()) group.push((await records.next())!);
  return group;
}

/** An order from its header and item records. */
function assemble(records: readonly Record<string, unknown>[]): Order {
  const record = records.find((record) => record.entity === 'order');
  if (!record) throw new Error('an order in the order-list index without its header');
  const header = headerOf(record);
  const items = records.filter((record) => record.entity === 'item').map((record) => itemOf(record, header.currency));
  items.sort((a, b) => a.position - b.position);
  return { ...header, items };
}

/** The header and an item in minor units, whichever unit they were stored in (stored-amounts.ts). */
const headerOf = (record: Record<string, unknown>): OrderHeader =>
  recordFields<OrderHeader>(headerInMinorUnits(record as unknown as OrderHeader), [...STORE_ONLY, 'minor_units']);
const itemOf = (record: Record<string, unknown>, currency: string): OrderItem =>
  withHistory(
    recordFields<OrderItem>(itemInMinorUnits(record as unknown as OrderItem, currency) as unknown as Record<string, unknown>, [
      ...STORE_ONLY,
      'currency',
      'order_number',
      'minor_units',
    ]),
  );

/** Items stored before policies had a history get the one step every policy starts with. */
function withHistory(item: OrderItem): OrderItem {
  const history = item.policy.history as OrderItem['policy']['history'] | undefined;
  return history
    ? item
    : { ...item, policy: { ...item.policy, history: [{ status: 'Issued', at: item.policy.created, reason: item.policy.change_type ?? 'order_created' }] } };
}

/** What an excerpt reads of a header or an item (every name aliased: DynamoDB reserves many words). */
const EXCERPT_PROJECTION = {
  expression: '#pk, #sk, #order_number, #name, #event',
  names: { '#pk': 'PK', '#sk': 'SK', '#order_number': 'order_number', '#name': 'name', '#event': 'event' },
};

/** An order's record without what only the store uses: its index keys and `canceled_at` (the order.canceled webhook's mark). */
const STORE_ONLY = ['policy_key', 'list_key', 'list_sort', 'plist_key', 'plist_sort', 'canceled_at'];

/**
 * An order is one partition: the header (`ORDER`) and one record per item (`ITEM#<reference>`),
 * each item holding its policy and event. Reading it is one Query; creating it and changing it
 * are one transaction each.
 */
export class DynamoOrderStore implements OrderStore, PolicyStore, OrderLister, PolicyLister, OrderExcerpts {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly metricsTableName: string,
  ) {}

  /** Actions: the checkout record (guards order_number), the header, the items, the receipt. */
  async create(order: Order, checkout: CheckoutRecord, receipt?: IdempotencyReceipt): Promise<void> {
    const replay: OrderReplay = {
      service_order_id: order.service_order_id,
      first_position: 0,
      count: order.items.length,
      subtotal: order.subtotal,
      updated: order.updated,
      ...MINOR_UNITS_MARK,
    };
    const TransactItems = [
      checkoutAction(this.metricsTableName, checkout),
      { Put: { TableName: this.tableName, Item: headerItem(order), ConditionExpression: 'attribute_not_exists(PK)' } },
      ...order.items.map((item) => ({ Put: { TableName: this.tableName, Item: itemItem(order, item), ConditionExpression: 'attribute_not_exists(PK)' } })),
      ...(receipt ? [receiptAction(this.tableName, receipt, replay)] : []),
    ];
    // The checkout record comes first: its condition guards the order number.
    if (!(await transactUnlessRefused(this.doc, TransactItems))) {
      throw new ConflictError('order_exists', 'An order with this order_number was already submitted.', 'order_number');
    }
    if (receipt) receipt.committed = true;
  }

  async get(clientId: string, orderId: string): Promise<Order | undefined> {
    const records = await queryAll(this.doc, {
      TableName: this.tableName,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': orderPartition(clientId, orderId) },
      ConsistentRead: true,
    });
    if (!records.some((record) => record.entity === 'order')) return undefined;
    return assemble(records);
  }

  /**
   * Action 0 moves the header from the version read to the next one; then, per change, the old
   * item's policy leaves Issued (only if still Issued) and the new item is put (only if its
   * reference is free). Cancellation reasons map back to the change that failed.
   */
  async applyChanges(
    before: Order,
    changes: readonly PlannedChange[],
    after: Pick<Order, 'subtotal' | 'updated' | 'version'>,
    receipt?: IdempotencyReceipt,
  ): Promise<void> {
    const replay: OrderReplay = {
      service_order_id: before.service_order_id,
      first_position: before.items.length,
      count: changes.length,
      subtotal: after.subtotal,
      updated: after.updated,
      ...MINOR_UNITS_MARK,
    };
    const TransactItems = [
      {
        Update: {
          TableName: this.tableName,
          Key: orderKey(before.client_id, before.service_order_id),
          UpdateExpression: 'SET subtotal = :subtotal, minor_units = :mark, updated = :updated, version = :next',
          ConditionExpression: 'version = :read',
          ExpressionAttributeValues: { ':subtotal': after.subtotal, ':mark': true, ':updated': after.updated, ':next': after.version, ':read': before.version },
        },
      },
      ...changes.flatMap((change) => [
        {
          Update: {
            TableName: this.tableName,
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
        { Put: { TableName: this.tableName, Item: itemItem(before, change.replacement), ConditionExpression: 'attribute_not_exists(PK)' } },
      ]),
      ...(receipt ? [receiptAction(this.tableName, receipt, replay)] : []),
    ];
    try {
      await this.doc.send(new TransactWriteCommand({ TransactItems }));
    } catch (err) {
      const codes = cancellationCodes(err);
      if (!codes) throw err;
      if (isOnlyConflict(codes) || codes[0] === 'ConditionalCheckFailed') throw new ChangeRejectedError('stale');
      const failed = codes.findIndex((code) => code === 'ConditionalCheckFailed');
      const change = changes[Math.floor((failed - 1) / 2)];
      if (failed < 1 || !change) throw cancellationError(codes);
      throw new ChangeRejectedError((failed - 1) % 2 === 0 ? 'policy_not_issued' : 'reference_exists', change.index);
    }
    if (receipt) receipt.committed = true;
  }

  /** The order's next version and each settled policy (only if still Issued), with the receipt: one transaction. */
  async settlePolicies(before: Order, settled: readonly OrderItem[], after: Pick<Order, 'updated' | 'version'>, receipt?: IdempotencyReceipt): Promise<void> {
    const replay: OrderReplay = {
      service_order_id: before.service_order_id,
      first_position: 0,
      count: before.items.length,
      subtotal: before.subtotal,
      updated: after.updated,
      whole: true,
      ...MINOR_UNITS_MARK,
    };
    const receipts = receipt ? [receiptAction(this.tableName, receipt, replay)] : [];
    const TransactItems = settled.length
      ? [
          {
            Update: {
              TableName: this.tableName,
              Key: orderKey(before.client_id, before.service_order_id),
              // canceled_at: the first time the whole order was canceled or voided (the order.canceled webhook).
              UpdateExpression: 'SET updated = :updated, version = :next, canceled_at = if_not_exists(canceled_at, :updated)',
              ConditionExpression: 'version = :read',
              ExpressionAttributeValues: { ':updated': after.updated, ':next': after.version, ':read': before.version },
            },
          },
          ...settled.map((item) =>
            settleAction(this.tableName, orderItemKey(before.client_id, before.service_order_id, item.reference_number), item, item.policy, before.currency),
          ),
          ...receipts,
        ]
      : receipts;
    if (TransactItems.length === 0) return;
    // The version moved, or a policy left Issued since the read: plan again on the order as it is now.
    await transactUnlessStale(this.doc, TransactItems);
    if (receipt) receipt.committed = true;
  }

  /**
   * The order-list index holds every record of the client's orders, newest order first and each
   * order's records together, write-sharded over LIST_SHARDS keys by order id (keys.ts): a page
   * Queries every shard with the same range, in parallel, and merges them newest first into whole
   * orders; it is cut after the last order read whole. Cost: LIST_SHARDS (64) Queries a page in the
   * usual case, each at least 0.5 RRU (eventually consistent), so about 32 RRU however small the
   * page — the price of an index no on-sale can make hot, affordable because lists are rare next to
   * checkouts. Records per order vary (1 + its items), so a page wants about four per order, and a
   * shard's first Query asks for about three times its share of them; a shard is read on only when
   * the merge must see below where it stopped (its orders were larger or more than its share), or
   * when a `status` filter (kept in code: it is about an order's policies) leaves too few. A page
   * also stops short of MAX_PAGE_BYTES of records, so that its answer stays far below Lambda's 6 MB
   * response limit.
   */
  async listOrders(clientId: string, query: { createdGte?: string; createdLt?: string; after?: string; status?: string; limit: number }): Promise<OrderPage> {
    const range = sortRange('list_sort', query);
    if (!range) return { orders: [] };
    const records = shardedList(this.doc, {
      tableName: this.tableName,
      indexName: ORDER_LIST_INDEX,
      keyAttribute: 'list_key',
      sortAttribute: 'list_sort',
      key: (shard) => orderListKey(clientId, shard),
      range,
      limit: (reads) => shardLimit((query.limit + 1) * 4, 16, reads),
    });
    const { page, full } = await fill(
      records,
      query.limit,
      query.status === undefined ? undefined : (group) => group.some((r) => (r.policy as { status?: string } | undefined)?.status === query.status),
    );
    const orders = page.map((group) => assemble(group));
    const last = orders[orders.length - 1];
    return { orders, ...(full && last ? { next: orderListSort(last.created, last.service_order_id) } : {}) };
  }

  /**
   * The policy-list index, write-sharded by policy number: a page Queries every shard (a `status`
   * filter applied by DynamoDB) and merges them newest first, like `listOrders` — LIST_SHARDS
   * Queries a page in the usual case, a shard read on only when the page needs more of it.
   */
  async listPolicies(
    clientId: string,
    query: { createdGte?: string; createdLt?: string; after?: string; status?: string; limit: number },
  ): Promise<PolicyPage> {
    const range = sortRange('plist_sort', query);
    if (!range) return { policies: [] };
    const records = shardedList(this.doc, {
      tableName: this.tableName,
      indexName: POLICY_LIST_INDEX,
      keyAttribute: 'plist_key',
      sortAttribute: 'plist_sort',
      key: (shard) => policyListKey(clientId, shard),
      range,
      ...(query.status
        ? { filter: { expression: '#policy.#status = :status', names: { '#policy': 'policy', '#status': 'status' }, values: { ':status': query.status } } }
        : {}),
      limit: (reads) => shardLimit(query.limit + 1, 4, reads),
    });
    const matches = await takeRecords(records, query.limit + 1);
    const policies = await Promise.all(matches.slice(0, query.limit).map((record) => this.foundPolicy(clientId, record)));
    const last = policies[policies.length - 1];
    const more = matches.length > query.limit;
    return { policies, ...(more && last ? { next: policyListPosition(last.item.policy.created, last.item.policy.policy_number) } : {}) };
  }

  /**
   * The headers and the wanted items by key, only the attributes an excerpt shows: one BatchGetItem
   * per 100 keys, sent together. Read consistently, so an item a change made a moment ago is found.
   */
  async excerpts(wanted: readonly ItemsWanted[]): Promise<OrderExcerpt[]> {
    const keys = wanted.flatMap((order) => [
      orderKey(order.client_id, order.service_order_id),
      ...order.reference_numbers.map((reference) => orderItemKey(order.client_id, order.service_order_id, reference)),
    ]);
    const records = await batchGet(this.doc, this.tableName, keys, { consistent: true, projection: EXCERPT_PROJECTION });
    const byKey = new Map(records.map((record) => [keyId({ PK: record.PK, SK: record.SK }), record]));
    return wanted.flatMap((order) => {
      const header = byKey.get(keyId(orderKey(order.client_id, order.service_order_id)));
      if (!header) return [];
      const items = order.reference_numbers.flatMap((reference) => {
        const item = byKey.get(keyId(orderItemKey(order.client_id, order.service_order_id, reference)));
        return item ? [{ reference_number: reference, name: String(item.name), event: (item.event as OrderItem['event'] | undefined) ?? null }] : [];
      });
      return [{ client_id: order.client_id, service_order_id: order.service_order_id, order_number: String(header.order_number), items }];
    });
  }

  /** The policy-number index (keys only, eventually consistent) says where; the item itself is read consistently. */
  async findPolicy(clientId: string, policyNumber: string): Promise<FoundPolicy | undefined> {
    const { Items = [] } = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: POLICY_INDEX,
        KeyConditionExpression: 'policy_key = :key',
        ExpressionAttributeValues: { ':key': policyLookupKey(clientId, policyNumber) },
      }),
    );
    const [where] = Items as Key[];
    if (!where) return undefined;
    const { Item } = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: { PK: where.PK, SK: where.SK }, ConsistentRead: true }));
    if (!Item) return undefined;
    return this.foundPolicy(clientId, Item);
  }

  /**
   * A policy's item record with its order and currency. Items carry their order's currency since
   * amounts count minor units; one stored before (until `npm run migrate`) costs a read of its header.
   */
  private async foundPolicy(clientId: string, record: Record<string, unknown>): Promise<FoundPolicy> {
    const serviceOrderId = String(record.PK).slice(orderPartition(clientId, '').length);
    let currency = record.currency;
    if (typeof currency !== 'string') {
      const { Item } = await this.doc.send(
        new GetCommand({ TableName: this.tableName, Key: orderKey(clientId, serviceOrderId), ProjectionExpression: 'currency', ConsistentRead: true }),
      );
      currency = Item?.currency;
      if (typeof currency !== 'string') throw new Error(`the item ${String(record.SK)} has no order header`);
    }
    return { service_order_id: serviceOrderId, currency: currency, item: itemOf(record, currency) };
  }

  async rewriteTimes(before: Order, after: Order): Promise<void> {
    const header = headerItem(after);
    const TransactItems = [
      {
        Update: {
          TableName: this.tableName,
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
        const record = itemItem(after, item);
        return {
          Update: {
            TableName: this.tableName,
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
    await transactUnlessStale(this.doc, TransactItems);
  }

  /** The item's policy, only if still Issued, and the order's `updated`, in one transaction. */
  async settlePolicy(clientId: string, found: FoundPolicy, next: Policy): Promise<boolean> {
    const at = next.history[next.history.length - 1]!.at;
    const TransactItems = [
      settleAction(this.tableName, orderItemKey(clientId, found.service_order_id, found.item.reference_number), found.item, next, found.currency),
      {
        Update: {
          TableName: this.tableName,
          Key: orderKey(clientId, found.service_order_id),
          UpdateExpression: 'SET updated = :at',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':at': at },
        },
      },
    ];
    try {
      await this.doc.send(new TransactWriteCommand({ TransactItems }));
      return true;
    } catch (err) {
      const codes = cancellationCodes(err);
      if (!codes) throw err;
      if (codes[0] === 'ConditionalCheckFailed' || isOnlyConflict(codes)) return false;
      throw cancellationError(codes);
    }
  }
}
