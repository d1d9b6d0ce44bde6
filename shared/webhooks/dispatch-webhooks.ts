import type { Clock } from '../platform/clock.js';
import type { RecordChange } from '../platform/record-change.js';
import { signingSecrets, type WebhookEndpoint } from './webhook-endpoints.js';
import {
  DISABLE_AFTER_FAILING_MS,
  eventBody,
  eventOf,
  isFor,
  nextAttemptAt,
  orderSequence,
  namesAnOrder,
  type ChangeSource,
  type WebhookEvent,
} from './webhook-events.js';
import { checkWebhookUrl, type ResolveHost, type WebhookUrlPolicy } from './webhook-url.js';
import type { Attempt, Delivery, DeliveryQueue, EndpointDirectory, EventLog } from './ports.js';

/**
 * Delivering webhooks: each event to every enabled endpoint of its client that subscribes to its
 * type, signed the Standard Webhooks way, at least once. A delivery that fails is retried on
 * api.md's schedule (nextAttemptAt) by the retry sweep; 410 disables the endpoint at once, five
 * days of failures too. Every attempt is kept on the delivery (the delivery log).
 *
 * Tenants are isolated (issue 35.2, docs/decisions.md): a run sends at most PER_CLIENT_SENDS of one
 * client's deliveries at once; the dispatcher's first try waits FIRST_TRY_TIMEOUT_MS, starts sends
 * only for DISPATCH_WINDOW_MS, and once one of a client's first tries is slow (or its endpoint is
 * already failing) hands that client's other deliveries to the retry sweep, due at once, whose
 * attempts wait the full DELIVERY_TIMEOUT_MS. So a batch waits on a slow receiver for one first try
 * once one of its tries was slow, and ends within DISPATCH_WINDOW_MS + FIRST_TRY_TIMEOUT_MS of being
 * recorded: one client's receivers never hold another's sends in the batch, and delay the shard's
 * next batch (another client's events) by that bound at most.
 *
 * A delivery is sent only under a lease (`lease_until`): the dispatcher's from the moment it records
 * the delivery, the sweep's when it leases a due one. Nothing else sends it, wakes it or cancels it
 * meanwhile, so one attempt is one send, logged (issue 35.13). Right before the request the sender
 * reads the endpoint again (consistently): a delete that committed before is never sent to (35.9).
 *
 * Storage is reached through the ports of ports.ts: the event log (what happened, how its
 * deliveries ended) and the delivery queue (what is still to send, under whose lease).
 */

/** What one request of a delivery gave. */
export interface SendResult {
  status_code?: number;
  error?: string;
  duration_ms: number;
}
/** POSTs a signed body; gives up after `timeoutMs` (DELIVERY_TIMEOUT_MS by default). */
export type SendWebhook = (url: string, headers: Record<string, string>, body: string, timeoutMs?: number) => Promise<SendResult>;

export interface DispatchDeps {
  /** The events and how their deliveries ended (GET /events). */
  eventLog: EventLog;
  /** The deliveries still to send, each under a lease. */
  deliveries: DeliveryQueue;
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
  /** How long a sweep may go on starting sends (SWEEP_BUDGET_MS deployed; a send takes at most 10 s; the functions get 60 s). */
  budgetMs: number;
  /** Operational figures for the alarms: deliveries that ended (delivered or failed), and the oldest due delivery's wait. */
  observe: (figure: 'delivered' | 'failed' | 'oldest_due_seconds', value: number) => void;
}

/** A 2xx within this long is delivered (api.md); the sweep's attempts wait this long. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Sends at once in a run, across clients, orders and endpoints; an order's events to one endpoint go one after another. */
export const SEND_CONCURRENCY = 32;
/** One client's sends at once in a run: a client's slow receivers fill at most these, never the run. */
export const PER_CLIENT_SENDS = 4;
/** How long the dispatcher's first try waits for an answer; a slower receiver gets its next attempts from the sweep, each with DELIVERY_TIMEOUT_MS. */
export const FIRST_TRY_TIMEOUT_MS = 2_000;
/** A first try that took this long (answered or not) marks its client slow: its other deliveries of the batch are the sweep's. */
export const SLOW_SEND_MS = 1_000;
/** How long the dispatcher starts first tries in a batch, once it is recorded; what it has not started by then is the sweep's, due at once. */
export const DISPATCH_WINDOW_MS = 5_000;
/** How long a sweep starts sends (it runs every minute with 60 s; each send waits at most DELIVERY_TIMEOUT_MS). */
export const SWEEP_BUDGET_MS = 40_000;
/** A lease on a delivery: the dispatcher's from its record, the sweep's from its take; longer than either run can send. */
export const LEASE_MS = 60_000;
if (FIRST_TRY_TIMEOUT_MS >= DELIVERY_TIMEOUT_MS || DISPATCH_WINDOW_MS + FIRST_TRY_TIMEOUT_MS >= LEASE_MS || SWEEP_BUDGET_MS + DELIVERY_TIMEOUT_MS >= LEASE_MS) {
  throw new Error('webhook limits: a first try is shorter than a delivery, and every run ends within its lease');
}
if (SLOW_SEND_MS >= FIRST_TRY_TIMEOUT_MS) throw new Error('webhook limits: a slow first try is one that has not timed out yet');
if (PER_CLIENT_SENDS * 2 > SEND_CONCURRENCY) throw new Error('webhook limits: one client fills at most half a run');

/** One send of a lane: `slow` when the receiver did not answer in time; `handOff` instead of `run` when the task is not started. */
export interface LaneTask {
  /** Its tasks run one after another (an order's events to one endpoint). */
  lane: string;
  /** The client: at most `perTenant` of its lanes run at once. */
  tenant: string;
  run: () => Promise<'done' | 'slow'>;
  handOff?: () => Promise<unknown>;
}

/**
 * Runs each lane's tasks in order: up to `concurrency` tasks at once in all, `perTenant` of one
 * tenant's. A task not started by `deadline`, or (with `cutSlowTenants`) of a tenant one of whose
 * tasks was slow, is handed off instead (the retry sweep takes it up). So one tenant's slow
 * receivers hold up only its own lanes, and a run always ends within its time.
 */
export async function inLanes(
  tasks: readonly LaneTask[],
  limits: { concurrency: number; perTenant: number; deadline: number; now: () => number; cutSlowTenants?: boolean },
): Promise<void> {
  const tenants = new Map<string, Map<string, LaneTask[]>>();
  for (const task of tasks) {
    const lanes = tenants.get(task.tenant) ?? new Map<string, LaneTask[]>();
    tenants.set(task.tenant, lanes.set(task.lane, [...(lanes.get(task.lane) ?? []), task]));
  }
  // The run's slots, taken in turn (first come, first served across tenants).
  let free = limits.concurrency;
  const waiting: (() => void)[] = [];
  const acquire = () => (free > 0 ? (free--, Promise.resolve()) : new Promise<void>((resolve) => waiting.push(resolve)));
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };
  const slow = new Set<string>();
  const stopped = (tenant: string) => limits.now() >= limits.deadline || (limits.cutSlowTenants === true && slow.has(tenant));
  await allEnded(
    [...tenants].map(([tenant, lanes]) => {
      const queue = [...lanes.values()];
      return allEnded(
        Array.from({ length: Math.min(limits.perTenant, queue.length) }, async () => {
          for (let lane = queue.shift(); lane; lane = queue.shift()) {
            for (const task of lane) {
              let outcome: 'done' | 'slow' | 'left' = 'left';
              if (!stopped(tenant)) {
                await acquire();
                try {
                  if (!stopped(tenant)) outcome = await task.run();
                } finally {
                  release();
                }
              }
              if (outcome === 'left') await task.handOff?.();
              if (outcome === 'slow') slow.add(tenant);
            }
          }
        }),
      );
    }),
  );
}

/**
 * Waits for every one of `runs` to end, then fails with the first failure, if any. A send still
 * running when its run fails would outlive it: the batch given again would find its delivery
 * unattempted and send it a second time, and the log would show one of the two requests.
 */
async function allEnded(runs: readonly Promise<unknown>[]): Promise<void> {
  const ended = await Promise.allSettled(runs);
  const failed = ended.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
}

/** The two stores a delivery lives in: the event log and the delivery queue. */
export type Stores = Pick<DispatchDeps, 'eventLog' | 'deliveries'>;

/**
 * Keeps the event and a pending delivery per endpoint, once: a repeat (the stream gives the change
 * again) finds the event kept and carries on with its deliveries. Deliveries first, the event
 * last: an event in the log means its deliveries are all queued; should queuing them fail, the
 * event is not kept and the stream's next try queues them again. The deliveries are leased to the
 * dispatcher until `dueBy`, then due for the retry sweep, should no attempt follow.
 */
export async function recordEvent(
  stores: Stores,
  event: WebhookEvent,
  endpoints: readonly Pick<WebhookEndpoint, 'id' | 'url'>[],
  dueBy: Date,
): Promise<Delivery[]> {
  const kept = await stores.eventLog.event(event.client_id, event.id);
  if (kept) return kept.deliveries;
  const deliveries = await stores.deliveries.enqueue(event, endpoints, dueBy);
  await stores.eventLog.keep(event, deliveries.length);
  return deliveries;
}

/**
 * The stream consumer: the events a batch of changes announces, each recorded (with a delivery
 * per subscribed endpoint, leased to this run and due for the sweep in LEASE_MS should this run
 * die) and then sent: across clients, orders and endpoints at once, an order's events to an
 * endpoint in order, each a first try of FIRST_TRY_TIMEOUT_MS. An endpoint already failing gets
 * no first try here, and a client one of whose first tries was slow gets no more in this batch:
 * their deliveries are the sweep's, due at once. `source`: the main table's stream (orders, items,
 * claims, test requests) or the metrics table's (new opt-out records, whose order number is sealed
 * in the record); webhook-events.ts's table says which change makes which event.
 */
export async function dispatchChanges(deps: DispatchDeps, changes: readonly RecordChange[], source: ChangeSource = 'orders'): Promise<void> {
  const started = deps.clock.now().getTime();
  const dueBy = new Date(started + LEASE_MS);
  const endpointsOf = new Map<string, Promise<WebhookEndpoint[]>>();
  // A batch often holds several changes of one order (a PATCH of three items): its number is read once.
  const orderNumbers = new Map<string, Promise<string | undefined>>();
  const orderNumberOf = ({ client_id: clientId, order_id: orderId }: WebhookEvent) => {
    const key = `${clientId}#${orderId}`;
    if (!orderNumbers.has(key)) orderNumbers.set(key, deps.orderNumber(clientId, orderId));
    return orderNumbers.get(key)!;
  };
  const sends: (LaneTask & { sequence: string })[] = [];
  const toSweep: Delivery[] = [];
  for (const change of changes) {
    const found = eventOf(change, deps.eventId, source);
    if (!found) continue;
    if (!endpointsOf.has(found.client_id)) endpointsOf.set(found.client_id, deps.endpoints.list(found.client_id));
    const endpoints = (await endpointsOf.get(found.client_id)!).filter((e) => e.status === 'enabled' && isFor(found, e));
    if (endpoints.length === 0) continue; // nobody listens: nothing to deliver or keep
    // An opt-out's number stays sealed in what is kept; attemptDelivery opens it into the body it sends.
    const orderNumber = found.sealed_order_number === undefined && namesAnOrder(found.type) ? await orderNumberOf(found) : undefined;
    const event = withOrderNumber(found, orderNumber);
    const deliveries = await recordEvent(deps, event, endpoints, dueBy);
    for (const delivery of deliveries) {
      // Ours: recorded by this run or by an earlier run of this batch (Lambda gives a batch to one
      // run at a time), while that lease runs; one the sweep leased or may lease, or one attempted
      // already, is the sweep's.
      const ours = delivery.leased_by === 'dispatch' && Date.parse(delivery.lease_until ?? '') > started;
      if (delivery.status !== 'pending' || delivery.attempts.length > 0 || !ours) continue;
      const endpoint = endpoints.find((e) => e.id === delivery.endpoint_id);
      // An endpoint whose last failure was a timeout would only hold the batch: the sweep's at once.
      if (endpoint?.failing_since && endpoint.timed_out) {
        toSweep.push(delivery);
        continue;
      }
      sends.push({
        lane: `${event.order_id}#${delivery.endpoint_id}`,
        tenant: event.client_id,
        sequence: `${orderSequence(event)}#${event.id}`, // as the hold index orders them
        run: async () => {
          const after = await attemptDelivery(deps, event, delivery, { leased: true, timeoutMs: FIRST_TRY_TIMEOUT_MS });
          const tried = after.attempts.length > delivery.attempts.length ? after.attempts.at(-1) : undefined;
          return tried && (tried.error === 'timeout' || tried.duration_ms >= SLOW_SEND_MS) ? 'slow' : 'done';
        },
        handOff: () => deps.deliveries.hold(delivery, deps.clock.now()),
      });
    }
  }
  // Already failing: the sweep's at once, without a first try here (one write each, several at once).
  await inLanes(
    toSweep.map((delivery) => ({
      lane: delivery.event_id,
      tenant: '',
      run: () => deps.deliveries.hold(delivery, deps.clock.now()).then(() => 'done' as const),
    })),
    { concurrency: SEND_CONCURRENCY, perTenant: SEND_CONCURRENCY, deadline: Infinity, now: () => 0 },
  );
  // A change's records reach the stream in any order (an order's void: its header among its items);
  // each lane sends in the order the events happened, as the hold index keeps them.
  sends.sort((a, b) => (a.sequence < b.sequence ? -1 : a.sequence > b.sequence ? 1 : 0));
  // The window opens once the batch is recorded, and no first try may outlast the leases.
  const sendsFrom = deps.clock.now().getTime();
  await inLanes(sends, {
    concurrency: SEND_CONCURRENCY,
    perTenant: PER_CLIENT_SENDS,
    deadline: Math.min(sendsFrom + DISPATCH_WINDOW_MS, started + LEASE_MS - DELIVERY_TIMEOUT_MS),
    now: () => deps.clock.now().getTime(),
    cutSlowTenants: true,
  });
}

/**
 * The retry sweep: every pending delivery that is due gets its next attempt, at most `limit` a
 * sweep, taken round-robin across clients (each client's oldest first), PER_CLIENT_SENDS of a
 * client at once, each waiting DELIVERY_TIMEOUT_MS.
 */
export async function retryDue(deps: DispatchDeps, limit = 100): Promise<number> {
  const now = deps.clock.now();
  const due = fairShare(await deps.deliveries.due(now, limit), limit);
  // How late the latest-running due delivery is: the sweep falling behind (the "oldest undelivered" alarm).
  const lateness = due.map((d) => (now.getTime() - Date.parse(d.next_at ?? now.toISOString())) / 1000);
  deps.observe('oldest_due_seconds', Math.max(0, ...lateness));
  let attempted = 0;
  await inLanes(
    due.map((delivery) => ({
      lane: `${delivery.event_id}#${delivery.endpoint_id}`,
      tenant: delivery.client_id,
      run: async () => {
        // A lease for LEASE_MS: a sweep that dies leaves it due again after that.
        const leased = await deps.deliveries.lease(delivery, deps.clock.now(), new Date(deps.clock.now().getTime() + LEASE_MS));
        if (!leased) return 'done';
        const kept = await deps.eventLog.event(delivery.client_id, delivery.event_id);
        if (!kept) return 'done';
        await attemptDelivery(deps, kept.event, leased, { leased: true });
        attempted++;
        return 'done';
      },
    })),
    { concurrency: SEND_CONCURRENCY, perTenant: PER_CLIENT_SENDS, deadline: now.getTime() + deps.budgetMs, now: () => deps.clock.now().getTime() },
  );
  return attempted;
}

/** Up to `limit` deliveries, one client's after another's in turn (each client's oldest first): one client's backlog never fills a sweep. */
export function fairShare(due: readonly Delivery[], limit: number): Delivery[] {
  const byClient = new Map<string, Delivery[]>();
  for (const delivery of due) {
    const queue = byClient.get(delivery.client_id);
    if (queue) queue.push(delivery);
    else byClient.set(delivery.client_id, [delivery]);
  }
  const queues = [...byClient.values()];
  const picked: Delivery[] = [];
  for (let round = 0; picked.length < limit && queues.some((queue) => round < queue.length); round++) {
    for (const queue of queues) if (round < queue.length && picked.length < limit) picked.push(queue[round]!);
  }
  return picked;
}

/**
 * One attempt of a delivery: under its lease (`leased`: the caller holds it; else it is leased here,
 * and nothing is sent when another holds it), in its order's turn, the URL rules checked again, the
 * endpoint read again (consistently) right before the request, so a delete that committed before
 * is never sent to. `timeoutMs`: how long the request waits (the dispatcher's first try is shorter).
 */
export async function attemptDelivery(
  deps: DispatchDeps,
  event: WebhookEvent,
  delivery: Delivery,
  options: { leased?: boolean; timeoutMs?: number } = {},
): Promise<Delivery> {
  const started = deps.clock.now();
  if (!options.leased) {
    const leased = await deps.deliveries.lease(delivery, started, new Date(started.getTime() + LEASE_MS));
    if (!leased) return delivery;
    delivery = leased;
  }
  // An order's events reach an endpoint in order: while an earlier one is pending, this one waits
  // (the earlier one's end wakes it; a minute at most, should that wake be lost).
  const first = await deps.deliveries.firstPending(delivery.client_id, event.order_id, delivery.endpoint_id);
  if (first !== undefined && first !== event.id) {
    const until = new Date(started.getTime() + 60_000);
    await deps.deliveries.hold(delivery, until);
    return { ...delivery, next_at: until.toISOString() };
  }
  // The URL rules again, at each delivery: a name may point elsewhere since it was registered (an
  // endpoint's URL never changes, so the delivery's is the endpoint's).
  const verdict = await checkWebhookUrl(delivery.url, deps.urlPolicy, deps.resolve);
  const body = verdict.ok ? await bodyOf(deps, event) : '';
  // The last look at the endpoint, with nothing but signing between it and the request.
  const endpoint = await deps.endpoints.get(delivery.client_id, delivery.endpoint_id);
  if (!endpoint) return cancelDelivery(deps, event, delivery, deps.clock.now());
  let result: SendResult;
  if (endpoint.status !== 'enabled') result = { error: 'endpoint_disabled', duration_ms: 0 };
  else if (!verdict.ok) result = { error: 'url_refused', duration_ms: 0 };
  else
    result = await deps.send(
      verdict.url,
      deps.sign(signingSecrets(endpoint, started), event.id, started, body),
      body,
      options.timeoutMs ?? DELIVERY_TIMEOUT_MS,
    );
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
    await deps.eventLog.noteOutcome(delivery.client_id, delivery.event_id, ok);
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
      const failingSince = await deps.endpoints.noteResult(delivery.client_id, delivery.endpoint_id, ok, started, result.error === 'timeout');
      if (failingSince && started.getTime() - Date.parse(failingSince) >= DISABLE_AFTER_FAILING_MS)
        await deps.endpoints.disable(delivery.client_id, delivery.endpoint_id);
    }
  }
  const { leased_by: _by, lease_until: _until, ...unleased } = delivery;
  return { ...unleased, ...next, attempts: [...delivery.attempts, attempt] };
}

/**
 * A delivery whose endpoint was deleted: canceled under the caller's lease, nothing sent (the
 * delete cancels the pending deliveries nobody is sending; this catches the one being sent).
 */
async function cancelDelivery(deps: DispatchDeps, event: WebhookEvent, delivery: Delivery, now: Date): Promise<Delivery> {
  if (await cancelled(deps, delivery, now, true)) await deps.deliveries.wakeNext(delivery.client_id, event.order_id, delivery.endpoint_id, now);
  const { next_at: _dropped, leased_by: _by, lease_until: _until, ...ended } = delivery;
  return { ...ended, status: 'canceled' };
}

/** Ends a pending delivery without an attempt; it no longer counts toward its event's success. False when it had moved meanwhile, or another holds its lease. */
async function cancelled(stores: Stores, delivery: Delivery, now: Date, leased = false): Promise<boolean> {
  if (!(await stores.deliveries.cancel(delivery, now, leased))) return false;
  await stores.eventLog.noteCanceled(delivery.client_id, delivery.event_id);
  return true;
}

/**
 * A deleted endpoint's pending deliveries, each canceled as the sweep would cancel it; one being
 * sent is left to its sender, which reads the endpoint again right before its request and cancels
 * it (nothing is sent after). How many were canceled here.
 */
export async function cancelPendingDeliveries(stores: Stores, clientId: string, endpointId: string, now: Date): Promise<number> {
  let canceled = 0;
  for (const delivery of await stores.deliveries.pendingTo(clientId, endpointId)) if (await cancelled(stores, delivery, now)) canceled++;
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
  deps: Pick<DispatchDeps, 'eventLog' | 'deliveries' | 'endpoints' | 'clock'>,
  clientId: string,
  eventId: string,
): Promise<number | undefined> {
  const kept = await deps.eventLog.event(clientId, eventId);
  if (!kept) return undefined;
  const endpoints = (await deps.endpoints.list(clientId)).filter((e) => e.status === 'enabled' && isFor(kept.event, e));
  const queued = await deps.deliveries.requeue(kept, endpoints, deps.clock.now());
  // Counted afresh once they are all due again: the event is a success only once they all are.
  if (queued > 0) await deps.eventLog.noteRequeued(clientId, eventId, queued);
  return queued;
}
