import { ValidationError } from '../errors.js';
import { sanitizeCheckout } from './checkout-record.js';
import type { ClientStore } from './client.js';
import type { Ids } from './ids.js';
import { premiumFor, sumCents, type Cents, type RatePpm } from './money.js';
import type { Customer, Order, OrderEvent, OrderItem } from './order.js';
import type { Clock, MetricsStore, OrderStore, QuoteReader } from './ports.js';
import { firstMismatch, premiumTotal, priceItems, type PricedItem } from './quote.js';

/**
 * An order must fit one DynamoDB transaction (100 actions) with its header, its checkout record
 * and its day counter: 97 items. Quotes and opt-out orders take up to 100.
 */
export const MAX_OPT_IN_ITEMS = 97;

export interface EventFields { name: string; start_date: string; start_time: string; end_date?: string | null; end_time?: string | null; location?: string }

export interface CreateOrderInput {
  token?: string;
  order_number: string;
  currency: string;
  items: { name: string; reference_number: string; cost: Cents; event?: EventFields }[];
  event?: EventFields;
  customer?: { first_name?: string; last_name?: string; email?: string; phone?: string };
  billing_address?: { address1?: string; address2?: string; city?: string; zip_code?: string; state?: string; country?: string };
  payment?: { type: string };
}

export interface CreateOrderDeps { orders: OrderStore; metrics: MetricsStore; clients: ClientStore; quotes: QuoteReader; clock: Clock; ids: Ids }

export type CreateOrderResult = { kind: 'opted_out' } | { kind: 'created'; order: Order };

/**
 * POST /orders. A quote token with opt_in false logs a sanitized opt-out and creates nothing.
 * A token with opt_in true, or no token at all (spec rule 2), creates the protected order.
 */
export async function createOrder(deps: CreateOrderDeps, clientId: string, input: CreateOrderInput): Promise<CreateOrderResult> {
  const now = deps.clock.now();
  let priced: PricedItem[];
  let rate: RatePpm;
  let quoteId: string | undefined;

  if (input.token !== undefined) {
    const { optIn, quote } = await deps.quotes.read(input.token, clientId);
    assertMatchesQuote(input, quote.currency, quote.items);
    if (!optIn) {
      const record = sanitizeCheckout(input, { client_id: clientId, opt_in: false, quote_id: quote.quote_id, premium_total: premiumTotal(quote.items), now });
      await deps.metrics.logOptOut(record);
      return { kind: 'opted_out' };
    }
    priced = quote.items;
    rate = quote.rate_ppm;
    quoteId = quote.quote_id;
  } else {
    const client = await deps.clients.get(clientId);
    if (!client) throw new Error('authenticated client has no client record');
    rate = client.rate_ppm;
    priced = priceItems(input.items, rate);
  }

  if (input.items.length > MAX_OPT_IN_ITEMS) {
    throw new ValidationError(`items must hold at most ${MAX_OPT_IN_ITEMS} items for a protected order.`, 'items');
  }
  const order = buildOrder(deps.ids, clientId, input, priced, rate, now);
  const checkout = sanitizeCheckout(input, { client_id: clientId, opt_in: true, service_order_id: order.service_order_id, quote_id: quoteId, premium_total: premiumTotal(priced), now });
  await deps.orders.create(order, checkout);
  return { kind: 'created', order };
}

function assertMatchesQuote(input: CreateOrderInput, currency: string, quoted: readonly PricedItem[]): void {
  if (currency !== input.currency) {
    throw new ValidationError(`currency must be the quote's currency (${currency}).`, 'currency', 'quote_mismatch');
  }
  const index = firstMismatch(input.items, quoted);
  if (index === input.items.length) {
    throw new ValidationError('items must be the quoted items: the quote has items this order lacks.', 'items', 'quote_mismatch');
  }
  if (index >= 0) {
    throw new ValidationError(`items[${index}] must be an item of the quote with the quoted cost.`, `items[${index}]`, 'quote_mismatch');
  }
}

function toEvent(ids: Ids, event: EventFields): OrderEvent {
  return {
    id: ids.eventId(),
    name: event.name,
    start_date: event.start_date,
    start_time: event.start_time,
    end_date: event.end_date ?? null,
    end_time: event.end_time ?? null,
    location: event.location ?? null,
  };
}

function toCustomer(ids: Ids, customer: CreateOrderInput['customer']): Customer | null {
  if (!customer || (!customer.email && !customer.first_name && !customer.last_name)) return null;
  // The phone number is not kept: no response shows it and the product does not need it.
  return { id: ids.customerId(), email: customer.email ?? null, first_name: customer.first_name ?? null, last_name: customer.last_name ?? null };
}

function buildOrder(ids: Ids, clientId: string, input: CreateOrderInput, priced: readonly PricedItem[], rate: RatePpm, now: Date): Order {
  const created = now.toISOString();
  const orderEvent = input.event ? toEvent(ids, input.event) : null;
  const premiumOf = new Map(priced.map((item) => [item.reference_number, item.premium]));
  const items: OrderItem[] = input.items.map((item, position) => ({
    id: ids.itemId(),
    position,
    reference_number: item.reference_number,
    name: item.name,
    cost: item.cost,
    event: item.event ? toEvent(ids, item.event) : orderEvent,
    created,
    policy: {
      policy_number: ids.policyNumber(),
      policy_number_new: ids.policyNumberNew(),
      premium: premiumOf.get(item.reference_number) ?? premiumFor(item.cost, rate),
      coverage_amount: item.cost,
      status: 'Issued',
      created,
    },
  }));
  return {
    service_order_id: ids.orderId(),
    client_id: clientId,
    order_number: input.order_number,
    currency: input.currency,
    subtotal: sumCents(items.map((item) => item.cost)),
    rate_ppm: rate,
    customer: toCustomer(ids, input.customer),
    created,
    updated: created,
    version: 1,
    items,
  };
}
