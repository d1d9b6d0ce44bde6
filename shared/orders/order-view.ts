import { formatMoney, fromHundredths, inMinorUnits } from '../platform/money/index.js';
import { FIRST_TERMS_VERSION } from '../terms/index.js';
import type { Customer, Order, OrderEvent, OrderItem } from './order.js';
import type { FoundPolicy, OrderReader } from './ports.js';
import type { OrderReplay } from '../platform/idempotency-receipts.js';
import { emptyResponse, jsonResponse } from '../platform/http/envelope.js';
import type { Replayer } from '../platform/http/idempotency.js';

/**
 * The Order as merchants see it (spec §2.9): money as strings with exactly the currency's digits, the customer repeated on
 * every item, `event_id` beside the event, and one policy per item with its status.
 */
// Fields are listed one by one so the response order never depends on how storage returned them.
const customerView = (customer: Customer | null) =>
  customer && { id: customer.id, email: customer.email, first_name: customer.first_name, last_name: customer.last_name };
const eventView = (event: OrderEvent | null) =>
  event && {
    id: event.id,
    name: event.name,
    start_date: event.start_date,
    start_time: event.start_time,
    end_date: event.end_date,
    end_time: event.end_time,
    location: event.location,
  };

function itemView(order: Order, item: OrderItem) {
  return {
    id: item.id,
    name: item.name,
    reference_number: item.reference_number,
    cost: formatMoney(item.cost, order.currency),
    customer: customerView(order.customer),
    event: eventView(item.event),
    event_id: item.event?.id ?? null,
  };
}

function policyView(order: Order, item: OrderItem) {
  const { policy } = item;
  return {
    policy_number: policy.policy_number,
    policy_number_new: policy.policy_number_new,
    currency: order.currency,
    premium: formatMoney(policy.premium, order.currency),
    // The merchant's share, under the terms version it was sold under (0 and 1 on a policy from before versions).
    commission: formatMoney(policy.commission ?? 0, order.currency),
    terms_version: policy.terms_version ?? FIRST_TERMS_VERSION,
    coverage_amount: formatMoney(policy.coverage_amount, order.currency),
    status: policy.status,
    ...(policy.change_type ? { change_type: policy.change_type, replaces: policy.replaces } : {}),
    ...(policy.premium_delta === undefined ? {} : { premium_delta: formatMoney(policy.premium_delta, order.currency) }),
    ...(policy.premium_delta === undefined ? {} : { commission_delta: formatMoney(policy.commission_delta ?? 0, order.currency) }),
    ...(policy.refund_due === undefined ? {} : { refund_due: formatMoney(policy.refund_due, order.currency) }),
    history: policy.history.map((step) => ({ status: step.status, at: step.at, reason: step.reason })),
    // Fixed at sale; null only on a policy stored before it was (npm run migrate gives it one).
    void_until: policy.void_until ?? null,
    // While a claim is open the policy is locked (change, cancel and void answer 409 claim_open).
    ...(item.open_claim ? { open_claim: item.open_claim } : {}),
    item: { id: item.id, name: item.name, reference_number: item.reference_number, cost: formatMoney(item.cost, order.currency) },
  };
}

/** The order with the given items (all of them by default; PATCH shows only the new ones). */
export function orderView(order: Order, items: readonly OrderItem[] = order.items) {
  return {
    created: order.created,
    updated: order.updated,
    order_number: order.order_number,
    subtotal: formatMoney(order.subtotal, order.currency),
    currency: order.currency,
    service_order_id: order.service_order_id,
    items: items.map((item) => itemView(order, item)),
    customer: customerView(order.customer),
    client: order.client_id,
    policies: items.map((item) => policyView(order, item)),
  };
}

export type OrderView = ReturnType<typeof orderView>;

/**
 * The answer a committed write gave, rebuilt from its receipt for a replay: the items it created
 * (their policies were Issued then) and the order header as it was after that write.
 */
function answeredOrderView(order: Order, replay: OrderReplay) {
  const end = replay.first_position + replay.count;
  const items = order.items
    .filter((item) => item.position >= replay.first_position && item.position < end)
    // As sold: Issued, its first step only, nothing owed back yet (a later cancel or void set
    // refund_due) and no claim on it yet (a claim filed later holds it as open_claim).
    .map((item) => {
      const { open_claim: _claimedLater, ...sold } = item;
      const { refund_due: _later, ...policy } = item.policy;
      return { ...sold, policy: { ...policy, status: 'Issued' as const, history: item.policy.history.slice(0, 1) } };
    });
  // A receipt written before amounts counted minor units (they live 24 hours) held hundredths.
  const subtotal = inMinorUnits(replay) ? replay.subtotal : fromHundredths(replay.subtotal, order.currency);
  return orderView({ ...order, subtotal, updated: replay.updated }, items);
}

/** Replays Idempotency-Keys of the order routes (`statusCode`: what the first answer was). */
export const orderReplayer =
  (orders: OrderReader, statusCode: number): Replayer =>
  async (replay, clientId) => {
    if (!replay) return emptyResponse(204);
    const order = await orders.get(clientId, replay.service_order_id);
    if (!order) throw new Error(`an idempotency receipt names order ${replay.service_order_id}, which does not exist`);
    return jsonResponse(statusCode, replay.whole ? orderView(order) : answeredOrderView(order, replay));
  };

/** A policy on its own (cancel and void answer it, GET /policies lists it): what it is, what is owed back in which currency, and where it sits. */
export function policyDetailView({ service_order_id, currency, item }: FoundPolicy) {
  const { policy } = item;
  return {
    policy_number: policy.policy_number,
    status: policy.status,
    currency,
    premium: formatMoney(policy.premium, currency),
    commission: formatMoney(policy.commission ?? 0, currency),
    terms_version: policy.terms_version ?? FIRST_TERMS_VERSION,
    coverage_amount: formatMoney(policy.coverage_amount, currency),
    refund_due: policy.refund_due === undefined ? null : formatMoney(policy.refund_due, currency),
    history: policy.history.map((step) => ({ status: step.status, at: step.at, reason: step.reason })),
    void_until: policy.void_until ?? null,
    service_order_id,
    reference_number: item.reference_number,
    created: policy.created,
    updated: policy.history[policy.history.length - 1]!.at,
  };
}
