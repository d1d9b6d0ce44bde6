import type { CheckoutRecord } from '../conversion/index.js';
import type { IdempotencyReceipt } from '../platform/idempotency-receipts.js';
import type { Order, OrderItem, Policy, PolicyEvent } from './order.js';

/**
 * The ports of the orders' use cases, each as narrow as a use case needs; the adapters over
 * DynamoDB are store/dynamo-order-writes.ts, store/dynamo-order-reads.ts and
 * store/dynamo-order-lists.ts (dynamo-order-store.ts wires them into one object for the functions).
 */

export interface OrderReader {
  get(clientId: string, orderId: string): Promise<Order | undefined>;
}

/** The quote whose opt-in token an order redeems: a quote sells one order, and its mark is kept until its tokens expire. */
export interface QuoteRedemption {
  quote_id: string;
  expires_at: Date;
}

export interface OrderWriter {
  /**
   * Writes the order with all its items, its checkout record, the quote's redemption and the
   * Idempotency-Key receipt (each if any), all or nothing. Throws ConflictError `order_exists` when
   * the client already used the order_number, else `quote_redeemed` when another order redeemed the quote.
   */
  create(order: Order, checkout: CheckoutRecord, receipt?: IdempotencyReceipt, redemption?: QuoteRedemption): Promise<void>;
  /**
   * Commits planned changes on the order as it was read (same `version`), all or nothing.
   * Throws ChangeRejectedError when a condition no longer holds.
   */
  applyChanges(
    before: Order,
    changes: readonly PlannedChange[],
    after: Pick<Order, 'subtotal' | 'updated' | 'version'>,
    receipt?: IdempotencyReceipt,
  ): Promise<void>;
  /**
   * Gives the listed items their new (settled) policies, each only if still Issued, and the order
   * its next version, all or nothing (with the receipt, if any; the receipt alone when nothing
   * moves). Throws ChangeRejectedError('stale') when the order moved since it was read.
   */
  settlePolicies(
    before: Order,
    settled: readonly OrderItem[],
    after: Pick<Order, 'updated' | 'version'>,
    receipt?: IdempotencyReceipt,
    confirmation?: CancellationConfirmation,
  ): Promise<void>;
  /**
   * Writes the order's and its items' times as `after` has them (a test helper), only if the order
   * and each item are as read; else ChangeRejectedError('stale').
   */
  rewriteTimes(before: Order, after: Order): Promise<void>;
}

/** An order read and written whole (the claims read it; each orders use case picks what it needs). */
export interface OrderStore extends OrderReader, OrderWriter {}

/** A page of a client's orders, newest first; `next` is where the next page starts, absent on the last. */
export interface OrderPage {
  orders: Order[];
  next?: string;
}

export interface OrderLister {
  /** Orders created in [createdGte, createdLt), before the position `after`, newest first (one Query per list shard in the usual case). */
  listOrders(clientId: string, query: { createdGte?: string; createdLt?: string; after?: string; status?: string; limit: number }): Promise<OrderPage>;
}

/** A policy found by its number: the item that carries it, and its order's id. */
export interface FoundPolicy {
  service_order_id: string;
  /** The order's currency: the policy's amounts count its minor unit. */
  currency: string;
  item: OrderItem;
}

/** A page of a client's policies, newest first; `next` is where the next page starts, absent on the last. */
export interface PolicyPage {
  policies: FoundPolicy[];
  next?: string;
}

export interface PolicyLister {
  listPolicies(clientId: string, query: { createdGte?: string; createdLt?: string; after?: string; status?: string; limit: number }): Promise<PolicyPage>;
}

export interface PolicyFinder {
  /** The policy of this client with this number, read consistently; undefined when there is none. */
  findPolicy(clientId: string, policyNumber: string): Promise<FoundPolicy | undefined>;
}

export interface PolicySettler {
  /**
   * Replaces the policy with `next` only if it is still Issued (and the confirmation, if any, is
   * not confirmed yet), in one transaction; false when either no longer held.
   */
  settlePolicy(clientId: string, found: FoundPolicy, next: Policy, confirmation?: CancellationConfirmation): Promise<boolean>;
}

/** A policy found by its number and settled on its own (cancel or void of one policy). */
export interface PolicyStore extends PolicyFinder, PolicySettler {}

/** An order's items to describe: the order, and the reference numbers of the items wanted. */
export interface ItemsWanted {
  client_id: string;
  service_order_id: string;
  reference_numbers: readonly string[];
}

/** An order's number and some of its items, as the operator reads them beside a claim. */
export interface OrderExcerpt {
  client_id: string;
  service_order_id: string;
  order_number: string;
  /** The wanted items found, each with its name and event (neither changes once sold). */
  items: Pick<OrderItem, 'reference_number' | 'name' | 'event'>[];
}

export interface OrderExcerpts {
  /** The excerpt of each wanted order that exists, by key (batched, not an order's Query each). */
  excerpts(wanted: readonly ItemsWanted[]): Promise<OrderExcerpt[]>;
}

export interface PlannedChange {
  /** Position of the change in the request body. */
  index: number;
  old: OrderItem;
  /** The old policy's next step (its new status), appended to its history. */
  oldStep: PolicyEvent;
  replacement: OrderItem;
}

/** A confirm's mark on its cancellation: written in the transaction that moves its policies, only if not confirmed before. */
export interface CancellationConfirmation {
  client_id: string;
  cancellation_id: string;
  confirmed_at: string;
}
