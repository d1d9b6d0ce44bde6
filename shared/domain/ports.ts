import type { CheckoutRecord } from './checkout-record.js';
import type { Order, OrderItem, PolicyStatus } from './order.js';
import type { PricedQuote } from './quote.js';

/** The ports the use cases talk to; `shared/infra` implements them over DynamoDB. */

export interface Clock { now(): Date }
export const systemClock: Clock = { now: () => new Date() };

export interface OrderStore {
  /**
   * Writes the order with all its items, its checkout record and the day's opt-in count, all or
   * nothing. Throws ConflictError `order_exists` when the client already used the order_number.
   */
  create(order: Order, checkout: CheckoutRecord): Promise<void>;
  get(clientId: string, orderId: string): Promise<Order | undefined>;
  /**
   * Commits planned changes on the order as it was read (same `version`), all or nothing.
   * Throws ChangeRejectedError when a condition no longer holds.
   */
  applyChanges(before: Order, changes: readonly PlannedChange[], after: Pick<Order, 'subtotal' | 'updated' | 'version'>): Promise<void>;
}

export interface PlannedChange {
  /** Position of the change in the request body. */
  index: number;
  old: OrderItem;
  oldStatus: PolicyStatus;
  replacement: OrderItem;
}

export type RejectionReason = 'stale' | 'policy_not_issued' | 'item_not_found' | 'reference_exists';

export class ChangeRejectedError extends Error {
  constructor(readonly reason: RejectionReason, readonly index?: number) {
    super(`change rejected: ${reason}${index === undefined ? '' : ` (items[${index}])`}`);
  }
}

export interface DayCount { day: string; opt_in: number; opt_out: number }

export interface MetricsStore {
  /** Logs an opt-out once per (client, order_number); a repeat is `duplicate` and counts nothing. */
  logOptOut(record: CheckoutRecord): Promise<'logged' | 'duplicate'>;
  dailyCounts(clientId: string, fromDay: string, toDay: string): Promise<DayCount[]>;
}

/** Reads a quote token for a client: the priced quote and the customer's choice. */
export interface QuoteReader {
  read(token: string, clientId: string): Promise<{ optIn: boolean; quote: PricedQuote }>;
}
