import { formatCents, formatRate, parseCents, premiumFor, sumCents, type Cents, type RatePpm } from './money.js';

/** A priced quote: what the widget shows and what both quote tokens carry. */
export interface PricedItem { reference_number: string; cost: Cents; premium: Cents }
export interface PricedQuote { quote_id: string; client_id: string; currency: string; rate_ppm: RatePpm; items: PricedItem[] }

export function priceItems(items: readonly { reference_number: string; cost: Cents }[], rate: RatePpm): PricedItem[] {
  return items.map((item) => ({ reference_number: item.reference_number, cost: item.cost, premium: premiumFor(item.cost, rate) }));
}

export const premiumTotal = (items: readonly PricedItem[]): Cents => sumCents(items.map((item) => item.premium));

/** The claims a quote token carries beside sub (client), iat and exp. Money travels as strings. */
export interface QuoteClaims {
  qid: string;
  opt_in: boolean;
  currency: string;
  rate: string;
  items: { reference_number: string; cost: string; premium: string }[];
}

export function quoteClaims(quote: PricedQuote, optIn: boolean): QuoteClaims {
  return {
    qid: quote.quote_id,
    opt_in: optIn,
    currency: quote.currency,
    rate: formatRate(quote.rate_ppm),
    items: quote.items.map((item) => ({ reference_number: item.reference_number, cost: formatCents(item.cost), premium: formatCents(item.premium) })),
  };
}

/** Reads the priced items back out of verified claims; undefined if they are not well-formed. */
export function pricedItemsOf(claims: Partial<QuoteClaims>): PricedItem[] | undefined {
  if (!Array.isArray(claims.items)) return undefined;
  const items: PricedItem[] = [];
  for (const item of claims.items) {
    const cost = parseCents(String(item?.cost));
    const premium = parseCents(String(item?.premium));
    if (typeof item?.reference_number !== 'string' || cost === undefined || premium === undefined) return undefined;
    items.push({ reference_number: item.reference_number, cost, premium });
  }
  return items;
}

/**
 * Index of the first order item that differs from the quote (unknown reference or another cost),
 * `items.length` when the quote has an item the order lacks, or -1 when they match.
 */
export function firstMismatch(orderItems: readonly { reference_number: string; cost: Cents }[], quoted: readonly PricedItem[]): number {
  const byReference = new Map(quoted.map((item) => [item.reference_number, item]));
  const index = orderItems.findIndex((item) => byReference.get(item.reference_number)?.cost !== item.cost);
  if (index >= 0) return index;
  return orderItems.length === quoted.length ? -1 : orderItems.length;
}
