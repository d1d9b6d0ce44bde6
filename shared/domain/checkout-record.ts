import { formatCents, sumCents, type Cents } from './money.js';

/**
 * The one record the metrics table keeps per (client, order_number): enough to measure
 * conversion and nothing that identifies a person. Opt-out orders leave only this behind;
 * opt-in orders leave it too (it also guards order_number uniqueness).
 */
export interface CheckoutRecord {
  client_id: string;
  order_number: string;
  opt_in: boolean;
  service_order_id: string | null;
  quote_id: string | null;
  currency: string;
  item_count: number;
  subtotal: string;
  premium_total: string;
  country: string | null;
  state: string | null;
  zip_prefix: string | null;
  payment_type: string | null;
  event_dates: string[];
  /** UTC day the decision was logged on, YYYY-MM-DD: the counter it counts in. */
  day: string;
  logged_at: string;
}

/** What the sanitizer is given: the request as validated, any PII included. */
export interface CheckoutInput {
  order_number: string;
  currency: string;
  items: readonly { cost: Cents; event?: { start_date: string } }[];
  event?: { start_date: string };
  billing_address?: { country?: string; state?: string; zip_code?: string };
  payment?: { type: string };
}

export interface CheckoutFacts {
  client_id: string;
  opt_in: boolean;
  service_order_id?: string;
  quote_id?: string;
  premium_total: Cents;
  now: Date;
}

// Region names and payment types are kept only when they look like what they claim to be, so a
// name, a card number or an address pasted into the wrong field never reaches the table.
const REGION = /^[\p{L}][\p{L} .'-]{0,63}$/u;
const PAYMENT_TYPE = /^[a-z][a-z_-]{0,31}$/i;

const keepIf = (value: string | undefined, pattern: RegExp): string | null => {
  const trimmed = value?.trim();
  return trimmed && pattern.test(trimmed) ? trimmed : null;
};

/** First three characters of a postal code, the granularity of a US ZIP3 area. */
const zipPrefix = (zip: string | undefined): string | null => {
  const compact = zip?.replace(/[\s-]/g, '').toUpperCase();
  return compact && /^[0-9A-Z]{3,}$/.test(compact) ? compact.slice(0, 3) : null;
};

export function sanitizeCheckout(input: CheckoutInput, facts: CheckoutFacts): CheckoutRecord {
  const eventDates = new Set<string>();
  for (const event of [input.event, ...input.items.map((item) => item.event)]) if (event) eventDates.add(event.start_date);
  const paymentType = keepIf(input.payment?.type, PAYMENT_TYPE);
  const loggedAt = facts.now.toISOString();
  return {
    client_id: facts.client_id,
    order_number: input.order_number,
    opt_in: facts.opt_in,
    service_order_id: facts.service_order_id ?? null,
    quote_id: facts.quote_id ?? null,
    currency: input.currency,
    item_count: input.items.length,
    subtotal: formatCents(sumCents(input.items.map((item) => item.cost))),
    premium_total: formatCents(facts.premium_total),
    country: keepIf(input.billing_address?.country, REGION),
    state: keepIf(input.billing_address?.state, REGION),
    zip_prefix: zipPrefix(input.billing_address?.zip_code),
    payment_type: paymentType?.toLowerCase() ?? null,
    event_dates: [...eventDates].sort(),
    day: loggedAt.slice(0, 10),
    logged_at: loggedAt,
  };
}
