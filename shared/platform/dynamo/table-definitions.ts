/**
 * The tables, described once. `lib/data-stack.ts` turns these into CDK tables and
 * `scripts/local/local-stack.ts` into CreateTable calls on DynamoDB Local, so both always agree.
 *
 * Single table (`main`): clients, public-key lookups, orders with their items and policies.
 * Metrics table (`metrics`): one sanitized checkout record per (client, order_number) and
 * per-day opt-in / opt-out counts derived from its stream. See docs/data-design.md.
 */
export interface TableDefinition {
  /** Logical id, also the suffix of the local table name. */
  id: 'main' | 'metrics';
  partitionKey: string;
  sortKey: string;
  /** Attribute holding an epoch-seconds expiry, if the table uses TTL. */
  timeToLiveAttribute?: string;
  /** Global secondary indexes; only records that carry the index's partition key are in one. */
  globalIndexes?: readonly { name: string; partitionKey: string; sortKey?: string; projection: 'keys-only' | 'all' }[];
  /** A DynamoDB stream, read by the table's stream consumers (FUNCTIONS[…].stream). */
  stream?: 'new-image' | 'new-and-old-images';
}

/** Main-table index from a policy to its item: `policy_key` = CLIENT#<client_id>#POLICY#<policy_number>. */
export const POLICY_INDEX = 'policy-number';
/**
 * Main-table index of every record of a client's orders, newest order first: `list_key` =
 * CLIENT#<client_id>#ORDERS#<nn>, `list_sort` = <created>#<order_id>#<SK>. The key is write-sharded
 * (<nn>: one of LIST_SHARDS shards, two digits, from the order id) so that an on-sale's
 * checkouts are no hot key; every record of an order is in the same shard. All attributes are
 * projected, so one Query of a shard returns whole orders (header and items); a list page merges
 * every shard (keys.ts, shard-merge.ts).
 */
export const ORDER_LIST_INDEX = 'orders-by-client';
/**
 * Main-table index of a client's policies, newest first: `plist_key` = CLIENT#<client_id>#POLICIES#<nn>
 * (write-sharded like the order list, <nn> from the policy number), `plist_sort` = <created>#<policy_number>#.
 */
export const POLICY_LIST_INDEX = 'policies-by-client';

/** Main-table index of a client's webhook events, newest first: `elist_key` = CLIENT#<client>#EVENTS#<nn> (LIST_SHARDS shards), `elist_sort` = <created>#<event id>. */
export const EVENT_LIST_INDEX = 'events-by-client';
/**
 * Main-table index of pending webhook deliveries by order and endpoint, oldest event first:
 * `hold_key` = CLIENT#<client>#ORDER#<order>#TO#<endpoint>, `hold_sort` = <created>#<event id>. A
 * delivery is sent only when it is the first of its order to its endpoint (events in order).
 */
export const HOLD_INDEX = 'pending-by-order';
/** Main-table index of webhook deliveries waiting for a retry: `retry_key` = RETRY#<nn> (RETRY_SHARDS shards, keys.ts), `retry_at` = when it is due. */
export const RETRY_INDEX = 'webhook-retries';

/** Main-table index of claims by status, oldest first (the operator's queue): `queue_key` = CLAIMS#<status>, `queue_sort` = <created>#<claim id>. */
export const CLAIM_QUEUE_INDEX = 'claims-by-status';

/**
 * Main-table index of the bordereau exports, newest first (the console's past exports):
 * `blist_key` = BORDEREAUX, `blist_sort` = <created>#<export id>. One partition: an export is a
 * person's monthly action, a few a month, nowhere near a partition's write rate.
 */
export const BORDEREAU_LIST_INDEX = 'bordereaux-by-created';

const mainTable: TableDefinition = {
  id: 'main',
  partitionKey: 'PK',
  sortKey: 'SK',
  timeToLiveAttribute: 'expires_at',
  // The stream carries every change of an order (old and new images) to the webhook dispatcher.
  stream: 'new-and-old-images',
  globalIndexes: [
    { name: RETRY_INDEX, partitionKey: 'retry_key', sortKey: 'retry_at', projection: 'all' },
    { name: EVENT_LIST_INDEX, partitionKey: 'elist_key', sortKey: 'elist_sort', projection: 'all' },
    { name: HOLD_INDEX, partitionKey: 'hold_key', sortKey: 'hold_sort', projection: 'keys-only' },
    { name: POLICY_INDEX, partitionKey: 'policy_key', projection: 'keys-only' },
    { name: ORDER_LIST_INDEX, partitionKey: 'list_key', sortKey: 'list_sort', projection: 'all' },
    { name: POLICY_LIST_INDEX, partitionKey: 'plist_key', sortKey: 'plist_sort', projection: 'all' },
    { name: CLAIM_QUEUE_INDEX, partitionKey: 'queue_key', sortKey: 'queue_sort', projection: 'all' },
    { name: BORDEREAU_LIST_INDEX, partitionKey: 'blist_key', sortKey: 'blist_sort', projection: 'all' },
  ],
};
// The stream carries each new checkout record to functions/metrics-aggregate, which keeps the day counts.
const metricsTable: TableDefinition = { id: 'metrics', partitionKey: 'PK', sortKey: 'SK', stream: 'new-image' };

export const tableDefinitions = [mainTable, metricsTable] as const;
