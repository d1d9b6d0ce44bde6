import type { IdempotencyReceipt } from '../platform/idempotency-receipts.js';
import type { CheckoutRecord } from './checkout-record.js';
import type { DayCount, DayCountBatch } from './conversion.js';

/** Keeps the day counts from the metrics table's stream (functions/metrics-aggregate). */
export interface DayCountStore {
  /**
   * Adds checkouts of one stream shard (`source`) to their day's count, each exactly once however
   * often, or in whatever pieces, the stream delivers them.
   */
  addToDayCount(source: string, batch: DayCountBatch): Promise<void>;
}

export interface MetricsStore {
  /**
   * Logs an opt-out once per (client, order_number); a repeat is `duplicate` and counts nothing,
   * and a number a protected order already holds is `order_exists` (nothing written).
   */
  logOptOut(record: CheckoutRecord, receipt?: IdempotencyReceipt): Promise<'logged' | 'duplicate' | 'order_exists'>;
  dailyCounts(clientId: string, fromDay: string, toDay: string): Promise<DayCount[]>;
}
