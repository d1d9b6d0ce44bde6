import type { RecordChange } from '../platform/record-change.js';
import { formatMoney, type Minor } from '../platform/money/index.js';
import { claimInMinorUnits, type Claim, type ClaimStatus } from '../claims/index.js';
import { headerInMinorUnits, itemInMinorUnits, type Order, type OrderItem, type Policy } from '../orders/index.js';
import { TEST_EVENT_TYPE, type EventType, type LoggedEventType, type WebhookEndpoint } from './webhook-endpoints.js';

/**
 * The webhooks a change announces, derived from the change's own records as the table's stream
 * carries them (their images before and after): the outbox is the change itself, so there is no
 * change without its event and no event without its change, and the write paths write nothing
 * more. An event's id is derived from the stream record's id, so a record delivered again gives
 * the same event (and the same `webhook-id`). `data` holds ids, statuses and amounts (with
 * the `currency` they are in): never a customer's personal data.
 */
export interface WebhookEvent {
  id: string;
  type: LoggedEventType;
  created: string;
  client_id: string;
  /** The order the event is about (events of one order are delivered in order); a test event's lane is `test_<endpoint id>`. */
  order_id: string;
  data: Record<string, unknown>;
  /**
   * An opt-out's order number, sealed: kept so, in the event record as in the checkout record, and
   * opened only into the body of each delivery (`order.opted_out` names it; nothing at rest does).
   */
  sealed_order_number?: string;
}

/**
 * An item's amounts as an event writes them: in its currency's digits. An item record carries its
 * order's currency since amounts count minor units; one written before (an event derived during
 * the upgrade) counted hundredths and is written as the event was then, with two digits.
 */
const itemMoney = (image: OrderItem & { currency?: unknown }) => {
  if (typeof image.currency === 'string') {
    const currency = image.currency;
    return { item: itemInMinorUnits(image, currency), currency, money: (minor: Minor) => formatMoney(minor, currency) };
  }
  return { item: image, currency: 'USD', money: (hundredths: Minor) => formatMoney(hundredths, 'USD') };
};

const policyView = (policy: Policy, money: (minor: Minor) => string, withRefund = false) => ({
  policy_number: policy.policy_number,
  status: policy.status,
  premium: money(policy.premium),
  ...(withRefund && policy.refund_due !== undefined ? { refund_due: money(policy.refund_due) } : {}),
});

/** order.created's amounts: the header's subtotal in its currency's digits. */
const orderCreatedData = (image: Record<string, unknown>) => {
  const header = headerInMinorUnits(image as unknown as Pick<Order, 'currency' | 'subtotal'>);
  return { currency: header.currency, subtotal: formatMoney(header.subtotal, header.currency) };
};

const CHANGE_EVENT = { upgrade: 'policy.upgraded', downgrade: 'policy.downgraded', exchange: 'policy.exchanged' } as const;

/**
 * The event one changed record announces, if any, without its order number (the dispatcher adds
 * it from the order's header: items do not carry it). `eventId` turns the change's id into the
 * event's.
 */
export function eventOf(change: RecordChange, eventId: (changeId: string) => string): WebhookEvent | undefined {
  const record = change.after ?? change.before;
  if (!record) return undefined;
  if (record.entity === 'claim') return claimEventOf(change, eventId);
  if (record.entity === 'webhook_test') return testEventOf(change);
  const where = change.order;
  if (!where) return undefined;
  // When the change happened, as the change itself says (to the millisecond); the stream's own time is only to the second.
  const at = (when: unknown) => (typeof when === 'string' ? when : change.at);
  const base = { id: eventId(change.changeId), created: change.at, ...where };
  const data = (rest: Record<string, unknown>) => ({ service_order_id: where.order_id, ...rest });

  if (record.entity === 'order') {
    if (change.kind === 'INSERT') {
      return {
        ...base,
        created: at(change.after!.created),
        type: 'order.created',
        data: data(orderCreatedData(change.after!)),
      };
    }
    if (change.kind === 'MODIFY' && change.after?.canceled_at && !change.before?.canceled_at) {
      return { ...base, created: at(change.after.canceled_at), type: 'order.canceled', data: data({}) };
    }
    return undefined;
  }
  if (record.entity !== 'item') return undefined;
  const before = change.before as unknown as OrderItem | undefined;
  // A policy event's amounts (premium, refund_due, replaces.premium, premium_delta) are in `currency`, named beside them.
  const {
    item: after,
    currency,
    money,
  } = change.after ? itemMoney(change.after as unknown as OrderItem) : { item: undefined, currency: undefined, money: undefined };
  if (change.kind === 'INSERT' && after?.policy.change_type) {
    const { policy } = after;
    const delta = policy.premium_delta ?? 0;
    return {
      ...base,
      created: at(policy.created),
      type: CHANGE_EVENT[policy.change_type!],
      data: data({
        currency,
        policy: policyView(policy, money),
        ...(policy.replaces ? { replaces: { policy_number: policy.replaces, premium: money(policy.premium - delta) } } : {}),
        premium_delta: money(delta),
      }),
    };
  }
  if (change.kind === 'MODIFY' && before?.policy.status === 'Issued' && after && (after.policy.status === 'Canceled' || after.policy.status === 'Void')) {
    return {
      ...base,
      created: at(after.policy.history.at(-1)?.at),
      type: after.policy.status === 'Canceled' ? 'policy.canceled' : 'policy.voided',
      data: data({ currency, policy: policyView(after.policy, money, true) }),
    };
  }
  return undefined;
}

/**
 * `webhook_endpoint.test`, from a new test request (POST /webhook_endpoints/{id}/test): its id is
 * the one the request answered with. Its lane is `test_<endpoint id>`, not an order's, so it
 * neither waits behind an order's pending events nor holds them up.
 */
function testEventOf(change: RecordChange): WebhookEvent | undefined {
  const record = change.after;
  if (change.kind !== 'INSERT' || !record) return undefined;
  const { event_id: id, client_id: clientId, endpoint_id: endpointId, created } = record;
  if (typeof id !== 'string' || typeof clientId !== 'string' || typeof endpointId !== 'string' || typeof created !== 'string') return undefined;
  return { id, type: TEST_EVENT_TYPE, created, client_id: clientId, order_id: `test_${endpointId}`, data: { endpoint_id: endpointId } };
}

/** Whether an endpoint is sent the event: a test event its own endpoint alone, any other every endpoint subscribing to its type. */
export const isFor = (event: Pick<WebhookEvent, 'type' | 'data'>, endpoint: Pick<WebhookEndpoint, 'id' | 'events'>): boolean =>
  event.type === TEST_EVENT_TYPE ? event.data.endpoint_id === endpoint.id : endpoint.events.includes(event.type);

const CLAIM_EVENT: Partial<Record<ClaimStatus, EventType>> = {
  Submitted: 'claim.submitted',
  Approved: 'claim.approved',
  Denied: 'claim.denied',
  Paid: 'claim.paid',
  Withdrawn: 'claim.withdrawn',
};

/**
 * `claim.submitted` (a new claim), `claim.approved`, `claim.denied`, `claim.paid`, `claim.withdrawn` (its status moved
 * there), from the claim's record: its facts only. The description and messages live in another
 * record and never reach an event; the reason is left out too (with the order it would tell the
 * merchant about a customer's health). A claim answered after a request for documents goes back to
 * Submitted without a second `claim.submitted`.
 */
function claimEventOf(change: RecordChange, eventId: (changeId: string) => string): WebhookEvent | undefined {
  const after = change.after && claimInMinorUnits(change.after as unknown as Claim);
  const before = change.before as unknown as Claim | undefined;
  if (!after || (change.kind !== 'INSERT' && change.kind !== 'MODIFY')) return undefined;
  if (change.kind === 'MODIFY' && (before?.status === after.status || after.status === 'Submitted')) return undefined;
  const type = CLAIM_EVENT[after.status];
  if (!type) return undefined;
  return {
    id: eventId(change.changeId),
    type,
    created: after.updated,
    client_id: after.client_id,
    order_id: after.service_order_id,
    data: {
      service_order_id: after.service_order_id,
      claim: {
        claim_id: after.claim_id,
        status: after.status,
        currency: after.currency,
        amount_claimed: formatMoney(after.amount_claimed, after.currency),
        amount_approved: after.amount_approved === undefined ? null : formatMoney(after.amount_approved, after.currency),
        payout_reference: after.payout_reference ?? null,
        policy_numbers: after.policies.map((policy) => policy.policy_number),
      },
    },
  };
}

/**
 * `order.opted_out`, from a new opt-out's checkout record on the metrics table's stream: the
 * order number is in the record only sealed (`order_ref`), for the dispatcher to open. The
 * order's "id" is the order number's hash (an opt-out creates no order).
 */
export function optOutEventOf(change: RecordChange, eventId: (changeId: string) => string): WebhookEvent | undefined {
  const record = change.after;
  if (change.kind !== 'INSERT' || !record || record.entity !== 'checkout' || record.opt_in !== false || record.counted_by !== 'stream') return undefined;
  if (typeof record.order_ref !== 'string' || typeof record.client_id !== 'string' || typeof record.order_hash !== 'string') return undefined;
  return {
    id: eventId(change.changeId),
    type: 'order.opted_out',
    created: typeof record.logged_at === 'string' ? record.logged_at : change.at,
    client_id: record.client_id,
    order_id: record.order_hash,
    sealed_order_number: record.order_ref,
    data: { currency: record.currency, subtotal: record.subtotal },
  };
}

/**
 * Where an event stands among its order's events, for delivering them in order: by when it
 * happened and, at one instant, the policies' events before the order's own (an order's cancel
 * or void writes its policies and its header at one time: every `policy.canceled`/`policy.voided`
 * goes out before its `order.canceled`).
 */
export const orderSequence = (event: Pick<WebhookEvent, 'created' | 'type'>): string => `${event.created}#${event.type === 'order.canceled' ? 1 : 0}`;

/** The body a receiver gets: `{id, type, created, data}` (an opt-out's number opened into data by the sender). */
export const eventBody = (event: WebhookEvent): string => {
  // One spelling for every attempt: the store does not keep a map's key order.
  const data = Object.fromEntries(Object.entries(event.data).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return JSON.stringify({ id: event.id, type: event.type, created: event.created, data });
};

/** Retries after a failed attempt (api.md): about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then failed. */
export const RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;

/**
 * When the attempt after `attempts` failed ones is due, ±20 % jitter, times `scale` (tests compress
 * the schedule by configuration, never by sleeping it); undefined when the schedule is spent.
 */
export function nextAttemptAt(attempts: number, from: Date, random: () => number, scale = 1): Date | undefined {
  const wait = RETRY_SCHEDULE_MS[attempts - 1];
  if (wait === undefined) return undefined;
  return new Date(from.getTime() + Math.round(wait * scale * (0.8 + 0.4 * random())));
}

/** Five days of failures disable an endpoint (api.md). */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 60 * 60 * 1000;
