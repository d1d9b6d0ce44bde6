import type { RecordChange } from '../platform/record-change.js';
import { formatMoney, type Minor } from '../platform/money/index.js';
import { claimInMinorUnits, type Claim, type ClaimStatus } from '../claims/index.js';
import { headerInMinorUnits, itemInMinorUnits, type Order, type OrderItem, type Policy } from '../orders/index.js';

/**
 * The webhooks a change announces, derived from the change's own records as the table's stream
 * carries them (their images before and after): the outbox is the change itself, so there is no
 * change without its event and no event without its change, and the write paths write nothing
 * more. An event's id is derived from the stream record's id, so a record delivered again gives
 * the same event (and the same `webhook-id`). `data` holds ids, statuses and amounts (with
 * the `currency` they are in): never a customer's personal data.
 *
 * Each event type is one entry of WEBHOOK_EVENTS below: which stream, which record and which
 * change of it make the event, and how its data is built. EVENT_TYPES, what an endpoint may
 * subscribe to, is the table's types but the test event.
 */
export interface EventFacts {
  id: string;
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

/** Which stream a change comes from: the main table's (orders, their items, claims, test requests) or the metrics table's (checkout records). */
export type ChangeSource = 'orders' | 'checkouts';

/** One event type: the change that makes it and the event it makes. */
export interface EventRule {
  /** The stream whose changes make it (its consumer: webhooks-dispatch for `orders`, webhooks-optouts for `checkouts`). */
  source: ChangeSource;
  /** The record whose change makes it (its `entity`; the consumer's `stream.entities` in shared/platform/functions.ts must name it). */
  entity: 'order' | 'item' | 'claim' | 'webhook_test' | 'checkout' | 'statement_closing';
  /** Whether this change of such a record makes the event. */
  when: (change: RecordChange) => boolean;
  /** The event, without its type; undefined when the record lacks what it needs. `eventId` turns the change's id into the event's. */
  make: (change: RecordChange, eventId: (changeId: string) => string) => EventFacts | undefined;
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

/**
 * An event of one of an order's records (its header or an item), none when the change names no
 * order. `created`: when the change happened, as the record says (to the millisecond); the
 * stream's own time (to the second) when it says nothing. `data` starts with the order's id; the
 * dispatcher puts the order's number before it (items do not carry it).
 */
function orderEvent(change: RecordChange, eventId: (changeId: string) => string, when: unknown, data: Record<string, unknown>): EventFacts | undefined {
  const where = change.order;
  if (!where) return undefined;
  return { id: eventId(change.changeId), created: typeof when === 'string' ? when : change.at, ...where, data: { service_order_id: where.order_id, ...data } };
}

/** order.created's amounts: the header's subtotal in its currency's digits. */
const orderCreated: EventRule['make'] = (change, eventId) => {
  const header = headerInMinorUnits(change.after as unknown as Pick<Order, 'currency' | 'subtotal'>);
  return orderEvent(change, eventId, change.after!.created, { currency: header.currency, subtotal: formatMoney(header.subtotal, header.currency) });
};

/**
 * A new policy that replaces one (upgrade, downgrade, exchange): the new policy, what it replaces,
 * the premium's difference, in `currency`, and the event it covers (the new date's, on an exchange
 * to another date).
 */
const policyChanged = (changeType: NonNullable<Policy['change_type']>): EventRule => ({
  source: 'orders',
  entity: 'item',
  when: (change) => change.kind === 'INSERT' && (change.after as unknown as OrderItem | undefined)?.policy.change_type === changeType,
  make: (change, eventId) => {
    const { item, currency, money } = itemMoney(change.after as unknown as OrderItem);
    const { policy } = item;
    const delta = policy.premium_delta ?? 0;
    return orderEvent(change, eventId, policy.created, {
      currency,
      policy: policyView(policy, money),
      ...(policy.replaces ? { replaces: { policy_number: policy.replaces, premium: money(policy.premium - delta) } } : {}),
      premium_delta: money(delta),
      // The event the new policy covers: another date's after an exchange to it.
      event: item.event ?? null,
    });
  },
});

/** An Issued policy canceled or voided: the policy with what the merchant refunds (`refund_due`), in `currency`. */
const policyEnded = (status: 'Canceled' | 'Void'): EventRule => ({
  source: 'orders',
  entity: 'item',
  when: (change) =>
    change.kind === 'MODIFY' &&
    (change.before as unknown as OrderItem | undefined)?.policy.status === 'Issued' &&
    (change.after as unknown as OrderItem | undefined)?.policy.status === status,
  make: (change, eventId) => {
    const { item, currency, money } = itemMoney(change.after as unknown as OrderItem);
    return orderEvent(change, eventId, item.policy.history.at(-1)?.at, { currency, policy: policyView(item.policy, money, true) });
  },
});

/**
 * A claim's move, from the claim's record: its facts only. The description and messages live in
 * another record and never reach an event; the reason is left out too (with the order it would
 * tell the merchant about a customer's health). `claim.submitted` is a new claim: one answered
 * after a request for documents goes back to Submitted without a second one.
 */
const claimMoved = (status: ClaimStatus): EventRule => ({
  source: 'orders',
  entity: 'claim',
  when: (change) => {
    const after = change.after as unknown as Claim | undefined;
    if (after?.status !== status) return false;
    if (change.kind === 'INSERT') return true;
    return change.kind === 'MODIFY' && status !== 'Submitted' && (change.before as unknown as Claim | undefined)?.status !== status;
  },
  make: (change, eventId) => {
    const claim = claimInMinorUnits(change.after as unknown as Claim);
    return {
      id: eventId(change.changeId),
      created: claim.updated,
      client_id: claim.client_id,
      order_id: claim.service_order_id,
      data: {
        service_order_id: claim.service_order_id,
        claim: {
          claim_id: claim.claim_id,
          status: claim.status,
          currency: claim.currency,
          amount_claimed: formatMoney(claim.amount_claimed, claim.currency),
          amount_approved: claim.amount_approved === undefined ? null : formatMoney(claim.amount_approved, claim.currency),
          payout_reference: claim.payout_reference ?? null,
          policy_numbers: claim.policies.map((policy) => policy.policy_number),
        },
      },
    };
  },
});

/**
 * A month's close (the ledger's statement_closing record, which the hourly close writes and moves
 * on): the month, its due date and what each currency's balance came to (`closing_balance`, owed
 * by the due date when above zero). Its lane is the client's statements (`statements`), not an
 * order's. `statement.closed` when it is written, `statement.overdue` when it moves to overdue.
 */
const statementEvent = (when: EventRule['when'], at: 'closed_at' | 'status_at'): EventRule => ({
  source: 'orders',
  entity: 'statement_closing',
  when,
  make: (change, eventId) => {
    const record = change.after!;
    const rows = record.rows as { currency: string; opening_balance: string; closing_balance: string }[] | undefined;
    if (typeof record.client_id !== 'string' || typeof record.period !== 'string' || !Array.isArray(rows)) return undefined;
    return {
      id: eventId(change.changeId),
      created: typeof record[at] === 'string' ? record[at] : change.at,
      client_id: record.client_id,
      order_id: STATEMENTS_LANE,
      data: {
        period: record.period,
        due_date: record.due_date,
        currencies: rows.map((row) => ({
          currency: row.currency,
          opening_balance: formatMoney(BigInt(row.opening_balance), row.currency),
          closing_balance: formatMoney(BigInt(row.closing_balance), row.currency),
        })),
      },
    };
  },
});
/** The lane of a client's statement events (events of one lane are delivered in order). */
export const STATEMENTS_LANE = 'statements';

/**
 * Every webhook event type, one entry each, in the order endpoints list them (openapi.yaml's
 * EventType); the test event last. Adding a type: its entry here, its case in
 * webhook-events.test.ts, its body in openapi.yaml's `webhooks` (and EventType), then
 * `npm run generate:client`.
 */
export const WEBHOOK_EVENTS = {
  'order.created': { source: 'orders', entity: 'order', when: (change) => change.kind === 'INSERT', make: orderCreated },
  /**
   * A new opt-out's checkout record on the metrics table's stream: the order number is in the
   * record only sealed (`order_ref`), for the dispatcher to open into each body. The order's "id"
   * is the order number's hash (an opt-out creates no order).
   */
  'order.opted_out': {
    source: 'checkouts',
    entity: 'checkout',
    when: (change) => change.kind === 'INSERT' && change.after?.opt_in === false && change.after.counted_by === 'stream',
    make: (change, eventId) => {
      const record = change.after!;
      if (typeof record.order_ref !== 'string' || typeof record.client_id !== 'string' || typeof record.order_hash !== 'string') return undefined;
      return {
        id: eventId(change.changeId),
        created: typeof record.logged_at === 'string' ? record.logged_at : change.at,
        client_id: record.client_id,
        order_id: record.order_hash,
        sealed_order_number: record.order_ref,
        data: { currency: record.currency, subtotal: record.subtotal },
      };
    },
  },
  'order.canceled': {
    source: 'orders',
    entity: 'order',
    when: (change) => change.kind === 'MODIFY' && Boolean(change.after?.canceled_at) && !change.before?.canceled_at,
    make: (change, eventId) => orderEvent(change, eventId, change.after!.canceled_at, {}),
  },
  'policy.upgraded': policyChanged('upgrade'),
  'policy.downgraded': policyChanged('downgrade'),
  'policy.exchanged': policyChanged('exchange'),
  'policy.canceled': policyEnded('Canceled'),
  'policy.voided': policyEnded('Void'),
  'claim.submitted': claimMoved('Submitted'),
  'claim.approved': claimMoved('Approved'),
  'claim.denied': claimMoved('Denied'),
  'claim.paid': claimMoved('Paid'),
  'claim.withdrawn': claimMoved('Withdrawn'),
  'statement.closed': statementEvent((change) => change.kind === 'INSERT', 'closed_at'),
  'statement.overdue': statementEvent(
    (change) => change.kind === 'MODIFY' && change.after?.status === 'overdue' && change.before?.status !== 'overdue',
    'status_at',
  ),
  /**
   * A new test request (POST /webhook_endpoints/{id}/test): its id is the one the request answered
   * with. Its lane is `test_<endpoint id>`, not an order's, so it neither waits behind an order's
   * pending events nor holds them up.
   */
  'webhook_endpoint.test': {
    source: 'orders',
    entity: 'webhook_test',
    when: (change) => change.kind === 'INSERT' && change.after !== undefined,
    make: (change) => {
      const { event_id: id, client_id: clientId, endpoint_id: endpointId, created } = change.after!;
      if (typeof id !== 'string' || typeof clientId !== 'string' || typeof endpointId !== 'string' || typeof created !== 'string') return undefined;
      return { id, created, client_id: clientId, order_id: `test_${endpointId}`, data: { endpoint_id: endpointId } };
    },
  },
} satisfies Record<string, EventRule>;

/** Every type the delivery log holds. */
export type LoggedEventType = keyof typeof WEBHOOK_EVENTS;
export const LOGGED_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as readonly LoggedEventType[];
/** The event POST /webhook_endpoints/{id}/test sends one endpoint alone: nobody subscribes to it, so it is not an EventType. */
export const TEST_EVENT_TYPE = 'webhook_endpoint.test' satisfies LoggedEventType;
export type EventType = Exclude<LoggedEventType, typeof TEST_EVENT_TYPE>;
/** What an endpoint may subscribe to (all by default, in this order). */
export const EVENT_TYPES = LOGGED_EVENT_TYPES.filter((type): type is EventType => type !== TEST_EVENT_TYPE);

/** Events about no order (the dispatcher reads no order number for them). */
export const namesAnOrder = (type: LoggedEventType): boolean => type !== TEST_EVENT_TYPE && type !== 'statement.closed' && type !== 'statement.overdue';

export interface WebhookEvent extends EventFacts {
  type: LoggedEventType;
}

const RULES = Object.entries(WEBHOOK_EVENTS) as [LoggedEventType, EventRule][];

/**
 * The event a changed record of the `source` stream announces, if any: the entry of its record
 * whose change it is. An order's events come without their order number (the dispatcher adds it
 * from the order's header: items do not carry it). `eventId` turns the change's id into the event's.
 */
export function eventOf(change: RecordChange, eventId: (changeId: string) => string, source: ChangeSource = 'orders'): WebhookEvent | undefined {
  const entity = (change.after ?? change.before)?.entity;
  const found = RULES.find(([, rule]) => rule.source === source && rule.entity === entity && rule.when(change));
  if (!found) return undefined;
  const [type, rule] = found;
  const facts = rule.make(change, eventId);
  return facts && { ...facts, type };
}

/** Whether an endpoint is sent the event: a test event its own endpoint alone, any other every endpoint subscribing to its type. */
export const isFor = (event: Pick<WebhookEvent, 'type' | 'data'>, endpoint: { id: string; events: readonly EventType[] }): boolean =>
  event.type === TEST_EVENT_TYPE ? event.data.endpoint_id === endpoint.id : endpoint.events.includes(event.type);

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

/** Events and their deliveries are kept 30 days (the delivery log), then DynamoDB's TTL removes them. */
export const LOG_KEEP_SECONDS = 30 * 24 * 60 * 60;
