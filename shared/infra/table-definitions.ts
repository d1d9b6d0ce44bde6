/**
 * The tables, described once. `lib/data-stack.ts` turns these into CDK tables and
 * `scripts/local-stack.ts` into CreateTable calls on DynamoDB Local, so both always agree.
 *
 * Single table (`main`): clients, public-key lookups, orders with their items and policies.
 * Metrics table (`metrics`): one sanitized checkout record per (client, order_number) and
 * per-day opt-in / opt-out counters. See README "Data design".
 */
export interface TableDefinition {
  /** Logical id, also the suffix of the local table name. */
  id: 'main' | 'metrics';
  partitionKey: string;
  sortKey: string;
  /** Attribute holding an epoch-seconds expiry, if the table uses TTL. */
  timeToLiveAttribute?: string;
  /** Keys-only global secondary indexes: only records that carry the partition key are in them. */
  globalIndexes?: readonly { name: string; partitionKey: string }[];
}

/** Main-table index from a policy to its item: `policy_key` = CLIENT#<client_id>#POLICY#<policy_number>. */
export const POLICY_INDEX = 'policy-number';

const mainTable: TableDefinition = {
  id: 'main',
  partitionKey: 'PK',
  sortKey: 'SK',
  timeToLiveAttribute: 'expires_at',
  globalIndexes: [{ name: POLICY_INDEX, partitionKey: 'policy_key' }],
};
const metricsTable: TableDefinition = { id: 'metrics', partitionKey: 'PK', sortKey: 'SK' };

export const tableDefinitions = [mainTable, metricsTable] as const;
