import { ConflictError, ForbiddenError, ValidationError } from '../platform/errors.js';
import { sanitizeCheckout } from '../conversion/index.js';
import { sealedTerms, termsInForce, voidWindowEnd, type ClientStore, type SealedTermsDeps } from '../clients/index.js';
import { commissionOn, type LiveTerms } from '../terms/index.js';
import type { Ids } from '../platform/ids.js';
import { sumMinor, type Minor } from '../platform/money/index.js';
import type { Customer, Order, OrderEvent, OrderItem } from './order.js';
import type { Clock } from '../platform/clock.js';
import type { IdempotencyReceipt } from '../platform/idempotency-receipts.js';
import type { MetricsStore } from '../conversion/index.js';
import type { OrderWriter } from './ports.js';
import type { QuoteReader } from '../quotes/index.js';
import {
  assertEventsNotOver,
  assertItemsMatchSeal,
  assertPremiumsMatchSeal,
  premiumTotal,
  priceItems,
  type PricedItem,
  type QuoteSeal,
} from '../quotes/index.js';

export interface EventFields {
  name: string;
  start_date: string;
  start_time: string;
  end_date?: string | null;
  end_time?: string | null;
  location?: string | null;
}

export interface CreateOrderInput {
  token?: string;
  order_number: string;
  currency: string;
  items: { name: string; reference_number: string; cost: Minor; event?: EventFields }[];
  event?: EventFields;
  customer?: { first_name?: string; last_name?: string; email?: string; phone?: string };
  billing_address?: { address1?: string; address2?: string; city?: string; zip_code?: string; state?: string; country?: string };
  payment?: { type: string };
}

export interface CreateOrderDeps {
  orders: Pick<OrderWriter, 'create'>;
  metrics: MetricsStore;
  /** Read for a protected order without a token: the terms version in force (kept a minute per container). */
  clients: Pick<ClientStore, 'get'>;
  /** A version of the client's terms by number, for an order redeeming a quote token (kept per container: versions never change). */
  terms: SealedTermsDeps['terms'];
  quotes: QuoteReader;
  /** Keyed hash of an order number: all the metrics table keeps of it. */
  hashOrderNumber: (clientId: string, orderNumber: string) => Promise<string>;
  /** An opt-out's order number sealed for its webhook (the metrics table never holds the number). */
  sealOrderNumber: (clientId: string, orderNumber: string) => Promise<string>;
  clock: Clock;
  ids: Ids;
}

export type CreateOrderResult = { kind: 'opted_out' } | { kind: 'created'; order: Order };

/**
 * POST /orders. A quote token with opt_in false logs a sanitized opt-out and creates nothing.
 * A token with opt_in true, or no token at all (spec rule 2), creates the protected order.
 */
export async function createOrder(deps: CreateOrderDeps, clientId: string, input: CreateOrderInput, receipt?: IdempotencyReceipt): Promise<CreateOrderResult> {
  const now = deps.clock.now();
  const [sealed, orderHash] = await Promise.all([
    input.token === undefined ? undefined : deps.quotes.read(input.token, clientId),
    deps.hashOrderNumber(clientId, input.order_number),
  ]);
  const facts = { client_id: clientId, order_hash: orderHash, quote_id: sealed?.quote.quote_id, now };
  if (sealed) {
    assertMatchesSeal(input, sealed.quote);
    if (!sealed.optIn) {
      const orderRef = await deps.sealOrderNumber(clientId, input.order_number);
      const record = sanitizeCheckout(input, {
        ...facts,
        order_ref: orderRef,
        opt_in: false,
        // What the shopper was shown and declined: the items are the sealed ones (their digest matched).
        premium_total: sealed.quote.premium_total,
      });
      if ((await deps.metrics.logOptOut(record, receipt)) === 'order_exists') throw orderExists();
      return { kind: 'opted_out' };
    }
  }
  // A token's terms version is sealed in it, and its items are priced as of the quote's time: the
  // premiums are the ones the quote showed, whatever was published since. Without a token, the
  // version in force now.
  const items = input.items.map((item) => ({ ...item, event: item.event ?? input.event }));
  // Sold now, with or without a token: a token seals the items' costs, not their events.
  assertEventsNotOver(items, now, (index, field) => (input.items[index]!.event ? `items[${index}].event.${field}` : `event.${field}`));
  let terms: LiveTerms;
  let priced: PricedItem[];
  if (sealed) {
    terms = await sealedTerms(deps, clientId, sealed.quote.terms_version);
    priced = priceItems(items, terms, input.currency, sealed.quote.quoted_at);
    assertPremiumsMatchSeal(priced, sealed.quote);
  } else {
    const client = await deps.clients.get(clientId);
    if (!client) throw new Error('authenticated client has no client record');
    // A suspended client sells no new protection without a quote made before the suspension.
    if (client.suspended)
      throw new ForbiddenError('client_suspended', "This merchant's protection is suspended: only an order redeeming a quote made before can be sold.");
    terms = termsInForce(client, now);
    priced = priceItems(items, terms, input.currency, now);
  }
  const order = buildOrder(deps.ids, clientId, input, priced, terms, now);
  const checkout = sanitizeCheckout(input, { ...facts, opt_in: true, service_order_id: order.service_order_id, premium_total: premiumTotal(priced) });
  // A quote sells one order: its opt-in token, redeemed, is spent (409 `quote_redeemed` for another order).
  await deps.orders.create(order, checkout, receipt, sealed && { quote_id: sealed.quote.quote_id, expires_at: sealed.expiresAt });
  return { kind: 'created', order };
}

function assertMatchesSeal(input: CreateOrderInput, seal: QuoteSeal): void {
  if (seal.currency !== input.currency) {
    throw new ValidationError(`currency must be the quote's currency (${seal.currency}).`, 'currency', 'quote_mismatch');
  }
  assertItemsMatchSeal(input.items, seal);
}

/** An event as an order keeps it: the fields given, with an id of its own. */
export function toEvent(ids: Ids, event: EventFields): OrderEvent {
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

/** The order_number was used before, by a protected order (an opt-out never replaces one, nor the reverse). */
export const orderExists = () => new ConflictError('order_exists', 'An order with this order_number was already submitted.', 'order_number');

function buildOrder(ids: Ids, clientId: string, input: CreateOrderInput, priced: readonly PricedItem[], terms: LiveTerms, now: Date): Order {
  const created = now.toISOString();
  const voidUntil = voidWindowEnd(now, terms.look_period_days);
  const orderEvent = input.event ? toEvent(ids, input.event) : null;
  const items: OrderItem[] = input.items.map((item, position): OrderItem => ({
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
      premium: priced[position]!.premium,
      commission: commissionOn(priced[position]!.premium, terms.commission_ppm),
      terms_version: terms.version,
      coverage_amount: item.cost,
      status: 'Issued',
      history: [{ status: 'Issued', at: created, reason: 'order_created' }],
      created,
      void_until: voidUntil,
    },
  }));
  return {
    service_order_id: ids.orderId(),
    client_id: clientId,
    order_number: input.order_number,
    currency: input.currency,
    subtotal: sumMinor(items.map((item) => item.cost)),
    customer: toCustomer(ids, input.customer),
    created,
    updated: created,
    version: 1,
    items,
  };
}
