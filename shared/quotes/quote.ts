import { hash } from 'node:crypto';
import { ValidationError } from '../platform/errors.js';
import { formatMoney, sumMinor, type Minor } from '../platform/money/index.js';
import { daysToEvent, premiumUnder, type LiveTerms } from '../terms/index.js';

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
  /** The client's terms version in force when the quote was made: the order prices under it too. */
  terms_version: number;
  items: PricedItem[];
}

/** An item to price: its cost and, when it has one, its event's dates (the rate band depends on its start). */
export interface ItemToPrice {
  reference_number: string;
  cost: Minor;
  event?: { start_date: string; end_date?: string | null } | null;
}

/**
 * No cover is sold for an event that is over: its last day (`end_date`, else `start_date`) before
 * the day of the sale (UTC) is 422 `event_in_past`, named by `paramOf` (the item's own event, or an
 * order's). A ticket to something already over is a date mistyped, and its cover could only be
 * paid for, never used. An event that has begun and is not over is sold, as ever (a festival's
 * second day; claims on it carry the `event_begun_at_purchase` signal).
 */
export function assertEventsNotOver(items: readonly ItemToPrice[], soldAt: Date, paramOf: (index: number, field: 'start_date' | 'end_date') => string): void {
  const today = soldAt.toISOString().slice(0, 10);
  items.forEach((item, index) => {
    const event = item.event;
    if (!event) return;
    const field = event.end_date ? 'end_date' : 'start_date';
    const lastDay = event.end_date ?? event.start_date;
    if (lastDay < today)
      throw new ValidationError(
        `Cover is sold for an event that is not over: its last day (${lastDay}) is before today (${today}, UTC).`,
        paramOf(index, field),
        'event_in_past',
      );
  });
}

/**
 * What a quote token vouches for. Not the items themselves — a token must stay small whatever the
 * cart (≤ 1 KB) — but digests of their canonical form: the order that redeems the token must
 * carry exactly the quoted reference numbers and costs, and its premiums, priced under the sealed
 * terms version as of the quote's time, must be each item's quoted premium (and add up to the
 * sealed total).
 */
export interface QuoteSeal {
  quote_id: string;
  client_id: string;
  currency: string;
  terms_version: number;
  /** When the quote was made (the token's `iat`): days to each event count from it. */
  quoted_at: Date;
  item_count: number;
  items_digest: string;
  /** The sum of the quoted premiums: what the shopper was shown, so the merchant can check it without the items. */
  premium_total: Minor;
  /**
   * Each item's quoted premium, by reference number (premiumsDigest): two items of one cost whose
   * events swap rate bands keep the total but not their premiums. Absent from tokens signed before
   * it was sealed (they live 7 days): those are held to the total alone.
   */
  premiums_digest?: string;
}

/** Each item's premium under a terms version, its rate band chosen by the days from `soldAt` to its event. */
export function priceItems(
  items: readonly ItemToPrice[],
  terms: Pick<LiveTerms, 'rate_bands' | 'minimum_premium'>,
  currency: string,
  soldAt: Date,
): PricedItem[] {
  return items.map((item) => ({
    reference_number: item.reference_number,
    cost: item.cost,
    premium: premiumUnder(terms, item.cost, currency, daysToEvent(soldAt, item.event?.start_date)),
  }));
}

export const premiumTotal = (items: readonly PricedItem[]): Minor => sumMinor(items.map((item) => item.premium));

/**
 * SHA-256 of the items as (reference_number, amount in minor units) pairs sorted by reference
 * number: the merchant may list the items in any order, and any other difference changes the digest.
 */
function pairsDigest<T extends { reference_number: string }>(items: readonly T[], amountOf: (item: T) => Minor): string {
  const pairs = items.map((item) => [item.reference_number, amountOf(item)] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return hash('sha256', JSON.stringify(pairs), 'base64url'); // one call: a third of createHash's cost
}

/** The items' digest: their reference numbers and costs. */
export const itemsDigest = (items: readonly { reference_number: string; cost: Minor }[]): string => pairsDigest(items, (item) => item.cost);

/** The premiums' digest: each item's reference number and premium. */
export const premiumsDigest = (items: readonly { reference_number: string; premium: Minor }[]): string => pairsDigest(items, (item) => item.premium);

export function sealOf(quote: PricedQuote, quotedAt: Date): QuoteSeal {
  return {
    quote_id: quote.quote_id,
    client_id: quote.client_id,
    currency: quote.currency,
    terms_version: quote.terms_version,
    quoted_at: quotedAt,
    item_count: quote.items.length,
    items_digest: itemsDigest(quote.items),
    premium_total: premiumTotal(quote.items),
    premiums_digest: premiumsDigest(quote.items),
  };
}

/** The claims a quote token carries beside sub (client), iat and exp. */
export interface QuoteClaims {
  qid: string;
  opt_in: boolean;
  currency: string;
  /** The terms version the quote priced under. */
  tv: number;
  /** Tokens signed before terms had versions carried the client's flat rate instead ("0.085"). */
  rate?: string;
  n: number;
  items: string;
  /** The premium total, as the API writes money in the quote's currency ("12.34" USD, "1049" JPY). */
  pt: string;
  /** Each item's premium (premiumsDigest); tokens signed before it was sealed have none. */
  pd?: string;
}

export function quoteClaims(seal: QuoteSeal, optIn: boolean): QuoteClaims {
  return {
    qid: seal.quote_id,
    opt_in: optIn,
    currency: seal.currency,
    tv: seal.terms_version,
    n: seal.item_count,
    items: seal.items_digest,
    pt: formatMoney(seal.premium_total, seal.currency),
    ...(seal.premiums_digest === undefined ? {} : { pd: seal.premiums_digest }),
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

/**
 * Throws 422 `quote_mismatch` unless the items, priced under the sealed version as of the quote's
 * time, are each at its quoted premium and add up to the sealed total: an item's event moved to
 * another rate band since the quote (also when two items of one cost swapped bands).
 */
export function assertPremiumsMatchSeal(priced: readonly PricedItem[], seal: QuoteSeal): void {
  if (premiumTotal(priced) !== seal.premium_total || (seal.premiums_digest !== undefined && premiumsDigest(priced) !== seal.premiums_digest)) {
    throw new ValidationError(
      "items must price as the quote did: an item's event date puts it in another rate band than when it was quoted; ask for a new quote.",
      'items',
      'quote_mismatch',
    );
  }
}
