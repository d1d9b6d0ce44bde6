import type { AuditRecord } from '../identity/index.js';
import type { Claim, ClaimMessage, ClaimStatus, ClaimText } from './claim.js';
import type { Order, OrderItem } from '../orders/index.js';

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
  /** A staff action's audit record, written in the same transaction. */
  audit?: AuditRecord;
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
   * one transaction, with the customer's mark (their keyed e-mail hash) when given. Throws
   * ChangeRejectedError('stale') when the order or an item moved since.
   */
  file(order: Order, claim: Claim, text: ClaimText, items: readonly OrderItem[], customerKey?: string): Promise<void>;
  /** The customer's claims at every merchant filed since `since`, newest first, at most `limit` (their merchant and time only). */
  claimsOfCustomer(customerKey: string, since: string, limit: number): Promise<{ client_id: string; created: string }[]>;
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
  /**
   * The claims filed on one order, oldest first: the ids its header keeps (written with each claim,
   * at most MAX_ORDER_CLAIMS), then one batched read. An unknown order has none.
   */
  ofOrder(clientId: string, orderId: string): Promise<Claim[]>;
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
