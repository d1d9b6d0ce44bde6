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
}

const mainTable: TableDefinition = { id: 'main', partitionKey: 'PK', sortKey: 'SK', timeToLiveAttribute: 'expires_at' };
const metricsTable: TableDefinition = { id: 'metrics', partitionKey: 'PK', sortKey: 'SK' };

export const tableDefinitions = [mainTable, metricsTable] as const;
