import type { Minor } from './money/index.js';

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
  subtotal: Minor;
  updated: string;
  /** The answer was the whole order, which that write left unable to change (an order cancel). */
  whole?: boolean;
  /** `subtotal` counts the currency's minor unit (receipts written before counted hundredths). */
  minor_units?: true;
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
