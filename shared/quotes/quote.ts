import { createHash } from 'node:crypto';
import { ValidationError } from '../platform/errors.js';
import { formatMoney, formatRate, premiumFor, sumMinor, type Minor, type RatePpm } from '../platform/money/index.js';

/** A priced quote: what the widget shows. */
export interface PricedItem {
  reference_number: string;
  cost: Minor;
  premium: Minor;
}
export interface PricedQuote {
  quote_id: string;
  client_id: string;
  currency: string;
  rate_ppm: RatePpm;
  items: PricedItem[];
}

/**
 * What a quote token vouches for. Not the items themselves — a token must stay small whatever the
 * cart (≤ 1 KB) — but a digest of their canonical form: the order that redeems the token must
 * carry exactly the quoted reference numbers and costs, and its premiums follow from the rate.
 */
export interface QuoteSeal {
  quote_id: string;
  client_id: string;
  currency: string;
  rate_ppm: RatePpm;
  item_count: number;
  items_digest: string;
  /** The sum of the quoted premiums: what the shopper was shown, so the merchant can check it without the items. */
  premium_total: Minor;
}

export function priceItems(items: readonly { reference_number: string; cost: Minor }[], rate: RatePpm): PricedItem[] {
  return items.map((item) => ({ reference_number: item.reference_number, cost: item.cost, premium: premiumFor(item.cost, rate) }));
}

export const premiumTotal = (items: readonly PricedItem[]): Minor => sumMinor(items.map((item) => item.premium));

/**
 * SHA-256 of the items as (reference_number, cost in minor units) pairs sorted by reference number:
 * the merchant may list the items in any order, and any other difference changes the digest.
 */
export function itemsDigest(items: readonly { reference_number: string; cost: Minor }[]): string {
  const pairs = items.map((item) => [item.reference_number, item.cost] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256').update(JSON.stringify(pairs)).digest('base64url');
}

export function sealOf(quote: PricedQuote): QuoteSeal {
  return {
    quote_id: quote.quote_id,
    client_id: quote.client_id,
    currency: quote.currency,
    rate_ppm: quote.rate_ppm,
    item_count: quote.items.length,
    items_digest: itemsDigest(quote.items),
    premium_total: premiumTotal(quote.items),
  };
}

/** The claims a quote token carries beside sub (client), iat and exp. */
export interface QuoteClaims {
  qid: string;
  opt_in: boolean;
  currency: string;
  rate: string;
  n: number;
  items: string;
  /** The premium total, as the API writes money in the quote's currency ("12.34" USD, "1049" JPY). */
  pt: string;
}

export function quoteClaims(seal: QuoteSeal, optIn: boolean): QuoteClaims {
  return {
    qid: seal.quote_id,
    opt_in: optIn,
    currency: seal.currency,
    rate: formatRate(seal.rate_ppm),
    n: seal.item_count,
    items: seal.items_digest,
    pt: formatMoney(seal.premium_total, seal.currency),
  };
}

/** Throws 422 `quote_mismatch` unless the items are exactly the sealed ones (same references, same costs, any order). */
export function assertItemsMatchSeal(items: readonly { reference_number: string; cost: Minor }[], seal: QuoteSeal): void {
  if (items.length !== seal.item_count || itemsDigest(items) !== seal.items_digest) {
    throw new ValidationError(
      'items must be exactly the quoted items: the same reference numbers with the same costs, none left out or added.',
      'items',
      'quote_mismatch',
    );
  }
}
