import type { Clock } from '../platform/clock.js';
import type { RecordChange } from '../platform/record-change.js';
import { signingSecrets, TEST_EVENT_TYPE, type WebhookEndpoint } from './webhook-endpoints.js';
import { DISABLE_AFTER_FAILING_MS, eventBody, eventOf, isFor, nextAttemptAt, optOutEventOf, orderSequence, type WebhookEvent } from './webhook-events.js';
import { checkWebhookUrl, type ResolveHost, type WebhookUrlPolicy } from './webhook-url.js';

/**
 * Delivering webhooks: each event to every enabled endpoint of its client that subscribes to its
 * type, signed the Standard Webhooks way, at least once. A delivery that fails is retried on
 * api.md's schedule (nextAttemptAt) by the retry sweep; 410 disables the endpoint at once, five
 * days of failures too. Every attempt is kept on the delivery (the delivery log).
 */
export interface Attempt {
  at: string;
  endpoint_id: string;
  status_code?: number;
  error?: string;
  duration_ms: number;
}

export interface Delivery {
  client_id: string;
  event_id: string;
  endpoint_id: string;
  url: string;
  /** `canceled`: its endpoint was deleted before it was delivered (nothing is sent after). */
  status: 'pending' | 'delivered' | 'failed' | 'canceled';
  attempts: Attempt[];
  /** When the next attempt is due (pending only). */
  next_at?: string;
}

/** A page of the delivery log: events newest first, each with whether all its deliveries succeeded (null while none has ended). */
export interface EventPage {
  events: (WebhookEvent & { delivery_success: boolean | null })[];
  /** Where the next page starts, when there is one. */
  next?: string;
}

export interface DeliveryStore {
  /**
   * Keeps the event and a pending delivery per endpoint, once: a repeat (the stream again) finds
   * those kept. The deliveries are due for the retry sweep at `dueBy`, should no attempt follow.
   */
  record(event: WebhookEvent, endpoints: readonly Pick<WebhookEndpoint, 'id' | 'url'>[], dueBy: Date): Promise<Delivery[]>;
  /** Adds an attempt and moves the delivery, only if it is pending and has not moved since it was read; false otherwise. */
  recordAttempt(delivery: Delivery, attempt: Attempt, next: Pick<Delivery, 'status' | 'next_at'>): Promise<boolean>;
  /** Pending deliveries due by `now`, oldest first. */
  due(now: Date, limit: number): Promise<Delivery[]>;
  /** Takes a due delivery for one attempt (moves its due time to `until`, so no other sweep takes it meanwhile); false if another did. */
  claim(delivery: Delivery, until: Date): Promise<boolean>;
  event(clientId: string, eventId: string): Promise<{ event: WebhookEvent & { delivery_success?: boolean }; deliveries: Delivery[] } | undefined>;
  /** Notes a delivery that ended (delivered) or an attempt that failed, for the event's delivery_success. */
  noteOutcome(clientId: string, eventId: string, delivered: boolean): Promise<void>;
  listEvents(clientId: string, query: { after?: string; type?: string; deliverySuccess?: boolean; limit: number }): Promise<EventPage>;
  /** The event id of the order's oldest pending delivery to the endpoint (events of an order go out in order). */
  firstPending(clientId: string, orderId: string, endpointId: string): Promise<string | undefined>;
  /** Keeps a pending delivery waiting, without an attempt, until `until`. */
  hold(delivery: Delivery, until: Date): Promise<void>;
  /** Makes the order's next pending delivery to the endpoint due now. */
  wakeNext(clientId: string, orderId: string, endpointId: string, now: Date): Promise<void>;
  /** Ends a pending delivery without an attempt (its endpoint is gone), only if it has not moved since it was read; false otherwise. */
  cancel(delivery: Delivery): Promise<boolean>;
  /** Every pending delivery to the endpoint. */
  pendingTo(clientId: string, endpointId: string): Promise<Delivery[]>;
  /** Makes the event due again now for these endpoints (a delivery each, made if missing); how many. */
  requeue(clientId: string, eventId: string, endpoints: readonly Pick<WebhookEndpoint, 'id' | 'url'>[], now: Date): Promise<number>;
}

export interface EndpointDirectory {
  list(clientId: string): Promise<WebhookEndpoint[]>;
  get(clientId: string, id: string): Promise<WebhookEndpoint | undefined>;
  /** Notes a failed (or a successful) delivery; returns when the endpoint has been failing since, if it is. */
  noteResult(clientId: string, id: string, ok: boolean, at: Date): Promise<string | undefined>;
  disable(clientId: string, id: string): Promise<void>;
}

export interface SendResult {
  status_code?: number;
  error?: string;
  duration_ms: number;
}
export type SendWebhook = (url: string, headers: Record<string, string>, body: string) => Promise<SendResult>;

export interface DispatchDeps {
  deliveries: DeliveryStore;
  endpoints: EndpointDirectory;
  /** The order number of an order (events of orders carry it; items do not hold it). */
  orderNumber: (clientId: string, orderId: string) => Promise<string | undefined>;
  /** An opt-out's order number, from the seal its checkout record carries. */
  openOrderNumber: (clientId: string, sealed: string) => Promise<string | undefined>;
  send: SendWebhook;
  sign: (secrets: readonly string[], id: string, at: Date, body: string) => Record<string, string>;
  eventId: (changeId: string) => string;
  clock: Clock;
  random: () => number;
  urlPolicy: WebhookUrlPolicy;
  resolve: ResolveHost;
  /** Multiplies the retry schedule (1 deployed; tests and npm start may compress it). */
  retryScale: number;
  /** How long a run may go on starting sends (a send takes at most 10 s; the functions get 60 s). */
  budgetMs: number;
  /** Operational figures for the alarms: deliveries that ended (delivered or failed), and the oldest due delivery's wait. */
  observe: (figure: 'delivered' | 'failed' | 'oldest_due_seconds', value: number) => void;
}

/** Sends at once, across orders and endpoints; an order's events to one endpoint go one after another. */
const SEND_CONCURRENCY = 16;

/**
 * Runs each lane's tasks in order, up to `concurrency` lanes at a time; a task not started by
 * `deadline` is left (the retry sweep takes it up), so one slow receiver holds up only its lane,
 * and a batch always ends within its time.
 */
async function inLanes(
  tasks: readonly { lane: string; run: () => Promise<unknown> }[],
  concurrency: number,
  deadline: number,
  now: () => number,
): Promise<void> {
  const lanes = new Map<string, (() => Promise<unknown>)[]>();
  for (const task of tasks) lanes.set(task.lane, [...(lanes.get(task.lane) ?? []), task.run]);
  const queue = [...lanes.values()];
  await Promise.all(
    Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
      for (let lane = queue.shift(); lane; lane = queue.shift()) {
        for (const run of lane) {
          if (now() >= deadline) return;
          await run();
        }
      }
    }),
  );
}

/**
 * The stream consumer: the events a batch of changes announces, each recorded (with a delivery
 * per subscribed endpoint, due for the sweep in a minute should this run die) and then sent:
 * across orders and endpoints at once, an order's events to an endpoint in order. Main table:
 * changes of orders (`eventOf`); metrics table: new opt-out records (`optOutEventOf`, whose order
 * number is sealed in the record).
 */
export async function dispatchChanges(deps: DispatchDeps, changes: readonly RecordChange[], source: 'orders' | 'checkouts' = 'orders'): Promise<void> {
  const started = deps.clock.now().getTime();
  const endpointsOf = new Map<string, Promise<WebhookEndpoint[]>>();
  // A batch often holds several changes of one order (a PATCH of three items): its number is read once.
  const orderNumbers = new Map<string, Promise<string | undefined>>();
  const orderNumberOf = ({ client_id: clientId, order_id: orderId }: WebhookEvent) => {
    const key = `${clientId}#${orderId}`;
    if (!orderNumbers.has(key)) orderNumbers.set(key, deps.orderNumber(clientId, orderId));
    return orderNumbers.get(key)!;
  };
  const sends: { lane: string; sequence: string; run: () => Promise<unknown> }[] = [];
  for (const change of changes) {
    const found = source === 'orders' ? eventOf(change, deps.eventId) : optOutEventOf(change, deps.eventId);
    if (!found) continue;
    if (!endpointsOf.has(found.client_id)) endpointsOf.set(found.client_id, deps.endpoints.list(found.client_id));
    const endpoints = (await endpointsOf.get(found.client_id)!).filter((e) => e.status === 'enabled' && isFor(found, e));
    if (endpoints.length === 0) continue; // nobody listens: nothing to deliver or keep
    // An opt-out's number stays sealed in what is kept; attemptDelivery opens it into the body it sends.
    const orderNumber = found.sealed_order_number === undefined && found.type !== TEST_EVENT_TYPE ? await orderNumberOf(found) : undefined;
    const event = withOrderNumber(found, orderNumber);
    const deliveries = await deps.deliveries.record(event, endpoints, new Date(started + 60_000));
    for (const delivery of deliveries) {
      if (delivery.status !== 'pending' || delivery.attempts.length > 0) continue;
      const endpoint = endpoints.find((e) => e.id === delivery.endpoint_id);
      sends.push({
        lane: `${event.order_id}#${delivery.endpoint_id}`,
        sequence: `${orderSequence(event)}#${event.id}`, // as the hold index orders them
        run: () => attemptDelivery(deps, event, delivery, endpoint),
      });
    }
  }
  // A change's records reach the stream in any order (an order's void: its header among its items);
  // each lane sends in the order the events happened, as the hold index keeps them.
  sends.sort((a, b) => (a.sequence < b.sequence ? -1 : a.sequence > b.sequence ? 1 : 0));
  await inLanes(sends, SEND_CONCURRENCY, started + deps.budgetMs, () => deps.clock.now().getTime());
}

/** The retry sweep: every pending delivery that is due gets its next attempt (at most `limit` a sweep, several at once). */
export async function retryDue(deps: DispatchDeps, limit = 100): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.deliveries.due(now, limit);
  // How late the latest-running due delivery is: the sweep falling behind (the "oldest undelivered" alarm).
  const lateness = due.map((d) => (now.getTime() - Date.parse(d.next_at ?? now.toISOString())) / 1000);
  deps.observe('oldest_due_seconds', Math.max(0, ...lateness));
  let attempted = 0;
  await inLanes(
    due.map((delivery) => ({
      lane: `${delivery.event_id}#${delivery.endpoint_id}`,
      run: async () => {
        // A claim for a minute: a sweep that dies leaves it due again after that.
        if (!(await deps.deliveries.claim(delivery, new Date(now.getTime() + 60_000)))) return;
        const kept = await deps.deliveries.event(delivery.client_id, delivery.event_id);
        if (!kept) return;
        await attemptDelivery(deps, kept.event, delivery);
        attempted++;
      },
    })),
    SEND_CONCURRENCY,
    now.getTime() + deps.budgetMs,
    () => deps.clock.now().getTime(),
  );
  return attempted;
}

/** Sends the event to the delivery's endpoint again now, whatever its state (POST /events/{id}/redeliver). */
export async function attemptDelivery(deps: DispatchDeps, event: WebhookEvent, delivery: Delivery, known?: WebhookEndpoint): Promise<Delivery> {
  const started = deps.clock.now();
  // An order's events reach an endpoint in order: while an earlier one is pending, this one waits
  // (the earlier one's end wakes it; a minute at most, should that wake be lost).
  const first = await deps.deliveries.firstPending(delivery.client_id, event.order_id, delivery.endpoint_id);
  if (first !== undefined && first !== event.id) {
    const until = new Date(started.getTime() + 60_000);
    await deps.deliveries.hold(delivery, until);
    return { ...delivery, next_at: until.toISOString() };
  }
  // The dispatcher knows the endpoint from the client's list it just read; the sweep reads it.
  const endpoint = known ?? (await deps.endpoints.get(delivery.client_id, delivery.endpoint_id));
  if (!endpoint) return cancelDelivery(deps, event, delivery, started);
  let result: SendResult;
  if (endpoint.status !== 'enabled') result = { error: 'endpoint_disabled', duration_ms: 0 };
  else {
    // The URL rules again, at each delivery: a name may point elsewhere since it was registered.
    const verdict = await checkWebhookUrl(endpoint.url, deps.urlPolicy, deps.resolve);
    if (!verdict.ok) result = { error: 'url_refused', duration_ms: 0 };
    else {
      const body = await bodyOf(deps, event);
      result = await deps.send(verdict.url, deps.sign(signingSecrets(endpoint, started), event.id, started, body), body);
    }
  }
  const ok = result.status_code !== undefined && result.status_code >= 200 && result.status_code < 300;
  const attempt: Attempt = { at: started.toISOString(), endpoint_id: delivery.endpoint_id, ...result };
  const attempts = delivery.attempts.length + 1;
  let next: Pick<Delivery, 'status' | 'next_at'>;
  if (ok) next = { status: 'delivered' };
  else if (endpoint.status !== 'enabled' || result.status_code === 410) next = { status: 'failed' };
  else {
    const at = nextAttemptAt(attempts, started, deps.random, deps.retryScale);
    next = at ? { status: 'pending', next_at: at.toISOString() } : { status: 'failed' };
  }
  if (await deps.deliveries.recordAttempt(delivery, attempt, next)) {
    await deps.deliveries.noteOutcome(delivery.client_id, delivery.event_id, ok);
    if (next.status !== 'pending') {
      // "Failed" for the alarm: the schedule spent, not a merchant's own 410 or deleted endpoint.
      if (next.status === 'delivered') deps.observe('delivered', 1);
      else if (endpoint.status === 'enabled' && result.status_code !== 410) deps.observe('failed', 1);
      await deps.deliveries.wakeNext(delivery.client_id, event.order_id, delivery.endpoint_id, started);
    }
  }
  if (endpoint.status === 'enabled') {
    if (result.status_code === 410) await deps.endpoints.disable(delivery.client_id, delivery.endpoint_id);
    else if (!ok || endpoint.failing_since) {
      // Written only on a failure, or on the success that ends a failing spell: no write per delivery.
      const failingSince = await deps.endpoints.noteResult(delivery.client_id, delivery.endpoint_id, ok, started);
      if (failingSince && started.getTime() - Date.parse(failingSince) >= DISABLE_AFTER_FAILING_MS)
        await deps.endpoints.disable(delivery.client_id, delivery.endpoint_id);
    }
  }
  return { ...delivery, ...next, attempts: [...delivery.attempts, attempt] };
}

/**
 * A delivery whose endpoint was deleted: canceled, nothing sent (the delete cancels its pending
 * deliveries; this catches one recorded meanwhile). Not delivered, so its event is no success.
 */
async function cancelDelivery(deps: DispatchDeps, event: WebhookEvent, delivery: Delivery, now: Date): Promise<Delivery> {
  if (await cancelled(deps.deliveries, delivery)) await deps.deliveries.wakeNext(delivery.client_id, event.order_id, delivery.endpoint_id, now);
  const { next_at: _dropped, ...ended } = delivery;
  return { ...ended, status: 'canceled' };
}

/** Ends a pending delivery without an attempt, and so its event's success; false when it had moved meanwhile. */
async function cancelled(deliveries: DeliveryStore, delivery: Delivery): Promise<boolean> {
  if (!(await deliveries.cancel(delivery))) return false;
  await deliveries.noteOutcome(delivery.client_id, delivery.event_id, false);
  return true;
}

/** A deleted endpoint's pending deliveries, each canceled as the sweep would cancel it (nothing is sent after); how many. */
export async function cancelPendingDeliveries(deliveries: DeliveryStore, clientId: string, endpointId: string): Promise<number> {
  let canceled = 0;
  for (const delivery of await deliveries.pendingTo(clientId, endpointId)) if (await cancelled(deliveries, delivery)) canceled++;
  return canceled;
}

/** The body of one delivery: an opt-out's order number is opened here, for the body only. */
async function bodyOf(deps: Pick<DispatchDeps, 'openOrderNumber'>, event: WebhookEvent): Promise<string> {
  const { sealed_order_number: sealed, ...sent } = event;
  if (sealed === undefined) return eventBody(sent);
  return eventBody(withOrderNumber(sent, await deps.openOrderNumber(event.client_id, sealed)));
}

/** The event with its order's number first in `data`, when it has one. */
const withOrderNumber = (event: WebhookEvent, orderNumber: string | undefined): WebhookEvent =>
  orderNumber === undefined ? event : { ...event, data: { order_number: orderNumber, ...event.data } };

/** POST /events/{id}/redeliver: due again now at every enabled endpoint that subscribes to it; how many (the retry sweep sends them). */
export async function redeliver(
  deps: Pick<DispatchDeps, 'deliveries' | 'endpoints' | 'clock'>,
  clientId: string,
  eventId: string,
): Promise<number | undefined> {
  const kept = await deps.deliveries.event(clientId, eventId);
  if (!kept) return undefined;
  const endpoints = (await deps.endpoints.list(clientId)).filter((e) => e.status === 'enabled' && isFor(kept.event, e));
  return deps.deliveries.requeue(clientId, eventId, endpoints, deps.clock.now());
}
