import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { OrderLister, OrderPage, PolicyLister, PolicyPage } from '../ports.js';
import { orderListKey, orderListSort, policyListKey, policyListPosition } from '../../platform/dynamo/keys.js';
import { ORDER_LIST_INDEX, POLICY_LIST_INDEX } from '../../platform/dynamo/table-definitions.js';
import type { ShardMerge } from '../../platform/dynamo/shard-merge.js';
import { shardedList, shardLimit, sortRange, takeRecords, type ListRecord } from '../../platform/dynamo/sharded-list.js';
import { assemble } from './dynamo-order-records.js';
import { foundPolicy } from './dynamo-order-reads.js';

/** Lambda's limit on a synchronous response's payload. */
const LAMBDA_RESPONSE_BYTES = 6 * 1024 * 1024;
/** What a page of orders may weigh in stored records (its JSON answer is about as large): half the response limit leaves room for the view's fields. */
const MAX_PAGE_BYTES = 3 * 1024 * 1024;
if (MAX_PAGE_BYTES * 2 > LAMBDA_RESPONSE_BYTES) throw new Error('dynamo-order-lists.ts: MAX_PAGE_BYTES must stay at most half of LAMBDA_RESPONSE_BYTES');
/** Records a page of orders asks the shards for, per order it wants: an order is its header and its items, about four records. */
const RECORDS_PER_ORDER = 4;
/** The least a shard's first Query asks for: of orders' records, of policies. */
const ORDER_SHARD_FLOOR = 16;
const POLICY_SHARD_FLOOR = 4;

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

/** A client's orders and policies, a page at a time, from the write-sharded list indexes. */
export class DynamoOrderLists implements OrderLister, PolicyLister {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * The order-list index holds every record of the client's orders, newest order first and each
   * order's records together, write-sharded over LIST_SHARDS keys by order id (keys.ts): a page
   * Queries every shard with the same range, in parallel, and merges them newest first into whole
   * orders; it is cut after the last order read whole. Cost: LIST_SHARDS Queries a page in the
   * usual case, each at least 0.5 RRU (eventually consistent), so about LIST_SHARDS ÷ 2 RRU however
   * small the page — the price of an index no on-sale can make hot, affordable because lists are
   * rare next to checkouts. Records per order vary (1 + its items), so a page wants about
   * RECORDS_PER_ORDER per order, and a shard's first Query asks for about three times its share of
   * them; a shard is read on only when the merge must see below where it stopped (its orders were
   * larger or more than its share), or when a `status` filter (kept in code: it is about an order's
   * policies) leaves too few. A page also stops short of MAX_PAGE_BYTES of records, so that its
   * answer stays far below LAMBDA_RESPONSE_BYTES.
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
      limit: (reads) => shardLimit((query.limit + 1) * RECORDS_PER_ORDER, ORDER_SHARD_FLOOR, reads),
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
      limit: (reads) => shardLimit(query.limit + 1, POLICY_SHARD_FLOOR, reads),
    });
    const matches = await takeRecords(records, query.limit + 1);
    const policies = await Promise.all(matches.slice(0, query.limit).map((record) => foundPolicy(this.doc, this.tableName, clientId, record)));
    const last = policies[policies.length - 1];
    const more = matches.length > query.limit;
    return { policies, ...(more && last ? { next: policyListPosition(last.item.policy.created, last.item.policy.policy_number) } : {}) };
  }
}
