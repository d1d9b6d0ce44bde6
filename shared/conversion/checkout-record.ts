import { countryCode, paymentTypeCode, subdivisionCode, type PaymentType } from './coded-values.js';
import { formatMoney, sumMinor, type Minor } from '../platform/money/index.js';

/**
 * The one record the metrics table keeps per (client, order_number): enough to measure
 * conversion and nothing that identifies a person, so it holds coded values only. Opt-out orders
 * leave only this behind; opt-in orders leave it too (it also guards order_number uniqueness).
 */
export interface CheckoutRecord {
  client_id: string;
  /** Keyed hash of the client id and order number: merchants put e-mails in order numbers. */
  order_hash: string;
  /** An opt-out's order number sealed for the `order.opted_out` webhook (never the number itself); null on an opt-in. */
  order_ref: string | null;
  opt_in: boolean;
  service_order_id: string | null;
  quote_id: string | null;
  currency: string;
  item_count: number;
  /** Decimal text with exactly the currency's digits, as the API answers money (records logged before JPY/KWD had theirs wrote two). */
  subtotal: string;
  premium_total: string;
  /** ISO 3166-1 alpha-2. */
  country: string | null;
  /** ISO 3166-2 of `country`, in full form (`US-OR`). */
  state: string | null;
  zip_prefix: string | null;
  payment_type: PaymentType | 'other' | null;
  event_dates: string[];
  /** UTC day the decision was logged on, YYYY-MM-DD: the counter it counts in. */
  day: string;
  logged_at: string;
}

/** What the sanitizer is given: the request as validated, any PII included. */
export interface CheckoutInput {
  currency: string;
  items: readonly { cost: Minor; event?: { start_date: string } }[];
  event?: { start_date: string };
  billing_address?: { country?: string; state?: string; zip_code?: string };
  payment?: { type: string };
}

export interface CheckoutFacts {
  client_id: string;
  /** The order number's keyed hash, computed by the caller: this module stays pure. */
  order_hash: string;
  /** An opt-out's sealed order number, computed by the caller. */
  order_ref?: string;
  opt_in: boolean;
  service_order_id?: string;
  quote_id?: string;
  premium_total: Minor;
  now: Date;
}

/**
 * First three characters of a postal code, the granularity of a US ZIP3 area — only of something
 * shaped like one: 3 to 10 letters and digits once spaces and hyphens are gone, at least one of
 * them a digit (postal codes of every country have one). A name or a card number is not kept.
 */
const zipPrefix = (zip: string | undefined): string | null => {
  const compact = zip?.replace(/[\s-]/g, '').toUpperCase();
  return compact && /^[0-9A-Z]{3,10}$/.test(compact) && /\d/.test(compact) ? compact.slice(0, 3) : null;
};

export function sanitizeCheckout(input: CheckoutInput, facts: CheckoutFacts): CheckoutRecord {
  const eventDates = new Set<string>();
  for (const event of [input.event, ...input.items.map((item) => item.event)]) if (event) eventDates.add(event.start_date);
  const country = countryCode(input.billing_address?.country);
  const loggedAt = facts.now.toISOString();
  return {
    client_id: facts.client_id,
    order_hash: facts.order_hash,
    order_ref: facts.order_ref ?? null,
    opt_in: facts.opt_in,
    service_order_id: facts.service_order_id ?? null,
    quote_id: facts.quote_id ?? null,
    currency: input.currency,
    item_count: input.items.length,
    subtotal: formatMoney(sumMinor(input.items.map((item) => item.cost)), input.currency),
    premium_total: formatMoney(facts.premium_total, input.currency),
    country,
    state: subdivisionCode(input.billing_address?.state, country),
    zip_prefix: zipPrefix(input.billing_address?.zip_code),
    payment_type: paymentTypeCode(input.payment?.type),
    event_dates: [...eventDates].sort(),
    day: loggedAt.slice(0, 10),
    logged_at: loggedAt,
  };
}
