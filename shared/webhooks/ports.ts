import type { WebhookEndpoint } from './webhook-endpoints.js';
import type { WebhookEvent } from './webhook-events.js';

/**
 * The webhooks' ports: what the use cases (dispatch-webhooks.ts, list-events.ts) ask of storage,
 * each narrow. The event log keeps what happened and how its deliveries ended (GET /events);
 * the delivery queue keeps what is still to be sent and who may send it now (the dispatcher, the
 * retry sweep). Their DynamoDB adapters are dynamo-event-log.ts and dynamo-delivery-queue.ts.
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
  /** Who may send it until `lease_until`: the dispatcher that recorded it, or the sweep that leased it. */
  leased_by?: 'dispatch' | 'sweep';
  lease_until?: string;
}

/** A page of the delivery log: events newest first, each with whether all its deliveries succeeded (null while none has ended). */
export interface EventPage {
  events: (WebhookEvent & { delivery_success: boolean | null })[];
  /** Where the next page starts, when there is one. */
  next?: string;
}

/** An event as the log keeps it, with its deliveries and their attempts. */
export interface LoggedEvent {
  event: WebhookEvent & { delivery_success?: boolean };
  deliveries: Delivery[];
}

/** The event log: every event sent to at least one endpoint, and how its deliveries ended (delivery_success). */
export interface EventLog {
  /**
   * Keeps the event, with the count of its deliveries: written after its deliveries are queued,
   * so an event in the log has all its deliveries.
   */
  keep(event: WebhookEvent, deliveries: number): Promise<void>;
  /** The event with its deliveries (they share its partition: one read), or undefined when it was never kept. */
  event(clientId: string, eventId: string): Promise<LoggedEvent | undefined>;
  /** A page of the client's events, newest first, optionally of one type and one outcome. */
  list(clientId: string, query: { after?: string; type?: string; deliverySuccess?: boolean; limit: number }): Promise<EventPage>;
  /** Notes a delivery that ended (delivered) or an attempt that failed, for the event's delivery_success. */
  noteOutcome(clientId: string, eventId: string, delivered: boolean): Promise<void>;
  /** Notes a delivery canceled (its endpoint deleted): it no longer counts toward the event's delivery_success (issue 35.14). */
  noteCanceled(clientId: string, eventId: string): Promise<void>;
  /** Notes the event queued again for `deliveries` endpoints (a redelivery): counted afresh, its delivery_success open again. */
  noteRequeued(clientId: string, eventId: string, deliveries: number): Promise<void>;
}

/**
 * The delivery queue: a pending delivery per event and endpoint, due at `next_at`, sent only under
 * a lease (`lease_until`), one attempt at a time, an order's events to an endpoint in order.
 */
export interface DeliveryQueue {
  /**
   * Queues a pending delivery of the event per endpoint, leased to the dispatcher until `dueBy`,
   * then due for the retry sweep, should no attempt follow.
   */
  enqueue(event: WebhookEvent, endpoints: readonly Pick<WebhookEndpoint, 'id' | 'url'>[], dueBy: Date): Promise<Delivery[]>;
  /** Adds an attempt, moves the delivery and ends its lease, only if it is pending and has not moved since it was read; false otherwise. */
  recordAttempt(delivery: Delivery, attempt: Attempt, next: Pick<Delivery, 'status' | 'next_at'>): Promise<boolean>;
  /** Pending deliveries due by `now`, oldest first (at most `limit` from each shard of the retry index). */
  due(now: Date, limit: number): Promise<Delivery[]>;
  /** Leases a due delivery to the sweep until `until` (due again then), unless another holds a lease on it or it moved; the leased delivery, or undefined. */
  lease(delivery: Delivery, now: Date, until: Date): Promise<Delivery | undefined>;
  /** The event id of the order's oldest pending delivery to the endpoint (events of an order go out in order). */
  firstPending(clientId: string, orderId: string, endpointId: string): Promise<string | undefined>;
  /** Keeps a pending delivery waiting, without an attempt, until `until` (its lease ends: the sweep leases it then). */
  hold(delivery: Delivery, until: Date): Promise<void>;
  /** Makes the order's next pending delivery to the endpoint due now, unless someone holds a lease on it (it is being sent). */
  wakeNext(clientId: string, orderId: string, endpointId: string, now: Date): Promise<void>;
  /**
   * Ends a pending delivery without an attempt (its endpoint is gone), only if it has not moved since
   * it was read and, unless `leased` (the caller holds its lease), nobody holds a lease on it at `now`; false otherwise.
   */
  cancel(delivery: Delivery, now: Date, leased?: boolean): Promise<boolean>;
  /** Every pending delivery to the endpoint. */
  pendingTo(clientId: string, endpointId: string): Promise<Delivery[]>;
  /** Makes the logged event due again now for these endpoints (a delivery each, made if missing); how many. */
  requeue(logged: LoggedEvent, endpoints: readonly Pick<WebhookEndpoint, 'id' | 'url'>[], now: Date): Promise<number>;
}

/** The client's endpoints, as the dispatcher and the sweep read and note them. */
export interface EndpointDirectory {
  list(clientId: string): Promise<WebhookEndpoint[]>;
  get(clientId: string, id: string): Promise<WebhookEndpoint | undefined>;
  /** Notes a failed (or a successful) delivery, and whether the failure was a timeout; returns when the endpoint has been failing since, if it is. */
  noteResult(clientId: string, id: string, ok: boolean, at: Date, timedOut?: boolean): Promise<string | undefined>;
  disable(clientId: string, id: string): Promise<void>;
}
