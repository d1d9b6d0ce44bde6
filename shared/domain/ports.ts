import type { Claim, ClaimMessage, ClaimStatus, ClaimText } from './claim.js';
import type { DayCountBatch } from './conversion.js';
import type { CheckoutRecord } from './checkout-record.js';
import type { Order, OrderItem, Policy, PolicyEvent } from './order.js';
import type { Cents } from './money.js';
import type { QuoteSeal } from './quote.js';

/** The ports the use cases talk to; `shared/infra` implements them over DynamoDB. */

export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

export interface OrderStore {
  /**
   * Writes the order with all its items, its checkout record and the day's opt-in count, all or
   * nothing. Throws ConflictError `order_exists` when the client already used the order_number.
   */
  create(order: Order, checkout: CheckoutRecord, receipt?: IdempotencyReceipt): Promise<void>;
  get(clientId: string, orderId: string): Promise<Order | undefined>;
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
  settlePolicies(before: Order, settled: readonly OrderItem[], after: Pick<Order, 'updated' | 'version'>, receipt?: IdempotencyReceipt): Promise<void>;
}

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

export interface PolicyStore {
  /** The policy of this client with this number, read consistently; undefined when there is none. */
  findPolicy(clientId: string, policyNumber: string): Promise<FoundPolicy | undefined>;
  /** Replaces the policy with `next` only if it is still Issued (one conditional write); false when it was not. */
  settlePolicy(clientId: string, found: FoundPolicy, next: Policy): Promise<boolean>;
}

export interface PlannedChange {
  /** Position of the change in the request body. */
  index: number;
  old: OrderItem;
  /** The old policy's next step (its new status), appended to its history. */
  oldStep: PolicyEvent;
  replacement: OrderItem;
}

export type RejectionReason = 'stale' | 'policy_not_issued' | 'item_not_found' | 'reference_exists';

export class ChangeRejectedError extends Error {
  constructor(
    readonly reason: RejectionReason,
    readonly index?: number,
  ) {
    super(`change rejected: ${reason}${index === undefined ? '' : ` (items[${index}])`}`);
  }
}

export interface DayCount {
  day: string;
  opt_in: number;
  opt_out: number;
}

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

/** Reads a quote token for a client: the priced quote, the customer's choice and when the token expires. */
export interface QuoteReader {
  read(token: string, clientId: string): Promise<{ optIn: boolean; quote: QuoteSeal; expiresAt: Date }>;
}

/**
 * Idempotency-Key: a request claims its key, runs, and leaves a completed record that later
 * requests with the key replay. A write that commits carries its receipt in the same transaction,
 * so a committed write always has its completed record (never a lost answer), and the record holds
 * what the answer was made of — which items of which order — not the answer itself, so it never
 * holds a customer's personal data and stays small whatever the order.
 */
export interface IdempotencyReceipt {
  clientId: string;
  key: string;
  fingerprint: string;
  now: Date;
  /** Set by the store whose transaction wrote the receipt. */
  committed?: boolean;
}

/** The items of an order a committed write answered with, and the order header as it was then. */
export interface OrderReplay {
  service_order_id: string;
  first_position: number;
  count: number;
  subtotal: Cents;
  updated: string;
  /** The answer was the whole order, which that write left unable to change (an order cancel). */
  whole?: boolean;
}

/** An answer kept as it was (a 409, a 404): small and free of personal data by construction. */
export interface StoredAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

export type IdempotencyClaim =
  { kind: 'claimed' } | { kind: 'completed'; fingerprint: string; answer?: StoredAnswer; replay?: OrderReplay } | { kind: 'in_progress'; fingerprint: string };

export interface IdempotencyStore {
  /** Claims the key unless a live record holds it; otherwise returns that record. */
  claim(clientId: string, key: string, fingerprint: string, now: Date): Promise<IdempotencyClaim>;
  /** Keeps an answer that no transaction carried a receipt for. */
  complete(receipt: IdempotencyReceipt, answer: StoredAnswer): Promise<void>;
  /** Frees a claim for a retry, unless a receipt already completed it. */
  release(clientId: string, key: string): Promise<void>;
}

/** A claim as stored: its facts and, until erased, its text. */
export interface StoredClaim {
  claim: Claim;
  text?: ClaimText;
}

/** What a transition writes besides the claim: a message for its text, the text's erase time, its policies' fate. */
export interface ClaimWrite {
  message?: ClaimMessage;
  eraseAt?: string;
  policies?: 'claim' | 'release';
}

/** A page of the operator's queue, oldest first; `next` is where the next page starts, absent on the last. */
export interface ClaimPage {
  claims: Claim[];
  next?: string;
}

export interface ClaimStore {
  /**
   * Files a claim on the order as it was read (same `version`): the claim, its text, the order's
   * next version and a lock on each claimed item (only while still Issued, current and unclaimed),
   * one transaction. Throws ChangeRejectedError('stale') when the order or an item moved since.
   */
  file(order: Order, claim: Claim, text: ClaimText, items: readonly OrderItem[]): Promise<void>;
  /** The claim and its text, read consistently. */
  get(claimId: string): Promise<StoredClaim | undefined>;
  /** The facts of these claims (an order's), in the order given; missing ones are left out. */
  getMany(claimIds: readonly string[]): Promise<Claim[]>;
  /**
   * Moves the claim from `before` (only if still at its version) to `after`, with what the
   * transition writes besides, one transaction; false when the claim moved first.
   */
  transition(before: Claim, after: Claim, write: ClaimWrite): Promise<boolean>;
  /** The claims in one status, oldest first, after the position `after`. */
  queue(status: ClaimStatus, query: { after?: string; limit: number }): Promise<ClaimPage>;
}

/**
 * Claim-session attempts, counted per scope (an order number, a public key) in fixed windows. An
 * attempt is reserved before it is tried (so a burst of concurrent attempts cannot pass a limit
 * that is read first and counted after) and given back when it succeeds: what stays counted are
 * the failures.
 */
export interface AttemptLimits {
  /**
   * Counts one attempt against every scope, atomically, unless one of them is at its limit: then
   * nothing stays counted and the seconds until the window ends are returned.
   */
  reserve(scopes: readonly { scope: string; limit: number }[], now: Date): Promise<number | undefined>;
  /** Gives back attempts reserved at `now` that succeeded. */
  giveBack(scopes: readonly string[], now: Date): Promise<void>;
}
