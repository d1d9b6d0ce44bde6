import {
  BatchWriteCommand,
  GetCommand,
  type BatchWriteCommandInput,
  type BatchWriteCommandOutput,
  QueryCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { Attempt, Delivery, DeliveryQueue, LoggedEvent } from './ports.js';
import type { WebhookEndpoint } from './webhook-endpoints.js';
import { LOG_KEEP_SECONDS, orderSequence, type WebhookEvent } from './webhook-events.js';
import { holdKey, holdSort, RETRY_SHARDS, retryKey, storedRecord, webhookDeliveryKey, recordFields } from '../platform/dynamo/keys.js';
import { queryAll } from '../platform/dynamo/query-all.js';
import { retryTransient, unlessConditionFails } from '../platform/dynamo/transactions.js';
import { HOLD_INDEX, RETRY_INDEX } from '../platform/dynamo/table-definitions.js';

type WriteRequests = NonNullable<BatchWriteCommandInput['RequestItems']>[string];

/**
 * How many BatchWrites an event's deliveries get (the first and its retries of what DynamoDB left
 * unprocessed, 50 ms × n apart: 2.25 s in all); then the write throws and the stream gives the
 * batch again, the event not yet kept (nothing is lost, nothing half-written is taken as done).
 */
export const BATCH_WRITE_ATTEMPTS = 10;

/** A delivery as the queue keeps it, without its index attributes. */
export const deliveryOf = (record: Record<string, unknown>): Delivery =>
  recordFields<Delivery>(record, ['retry_key', 'retry_at', 'expires_at', 'hold_key', 'hold_sort']);

/** The retry index's partitions, RETRY#00 to RETRY#<RETRY_SHARDS - 1>. */
const retryShards = (): string[] => Array.from({ length: RETRY_SHARDS }, (_, n) => `RETRY#${String(n).padStart(2, '0')}`);

/**
 * The delivery queue: a delivery per endpoint (`DELIVERY#<endpoint>`) in its event's partition
 * (`CLIENT#<client>#EVENT#<id>`), with its attempts. A pending delivery carries `retry_key` /
 * `retry_at`, which put it in the sparse `webhook-retries` index (RETRY_SHARDS shards) until it is
 * delivered or failed; the retry sweep reads that index. It carries `hold_key` / `hold_sort` too,
 * which put it in the `pending-by-order` index: an order's events go to an endpoint in order.
 */
export class DynamoDeliveryQueue implements DeliveryQueue {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async enqueue(event: WebhookEvent, endpoints: readonly Pick<WebhookEndpoint, 'id' | 'url'>[], dueBy: Date): Promise<Delivery[]> {
    const expires = Math.floor(Date.parse(event.created) / 1000) + LOG_KEEP_SECONDS;
    const deliveries: Delivery[] = endpoints.map((endpoint) => ({
      client_id: event.client_id,
      event_id: event.id,
      endpoint_id: endpoint.id,
      url: endpoint.url,
      status: 'pending',
      attempts: [],
      next_at: dueBy.toISOString(),
      leased_by: 'dispatch',
      lease_until: dueBy.toISOString(),
    }));
    // One BatchWrite: at most MAX_ENDPOINTS deliveries, within BATCH_WRITE_MAX_ITEMS (asserted in webhook-endpoints.ts).
    let requests: WriteRequests | undefined = deliveries.map((delivery) => ({
      PutRequest: {
        Item: {
          ...storedRecord(webhookDeliveryKey(event.client_id, event.id, delivery.endpoint_id), 'webhook_delivery', delivery),
          expires_at: expires,
          // Leased to the dispatcher until dueBy, then due for the retry sweep should it die before its
          // attempt; in the hold index while pending (an order's events go to an endpoint in order).
          retry_key: retryKey(event.id),
          retry_at: dueBy.toISOString(),
          hold_key: holdKey(event.client_id, event.order_id, delivery.endpoint_id),
          hold_sort: holdSort(orderSequence(event), event.id),
        },
      },
    }));
    for (let attempt = 0; requests?.length; attempt++) {
      if (attempt === BATCH_WRITE_ATTEMPTS) {
        throw new Error(
          `webhook deliveries: ${requests.length} of ${deliveries.length} deliveries of event ${event.id} still unprocessed after ${BATCH_WRITE_ATTEMPTS} BatchWrites`,
        );
      }
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      const answer: BatchWriteCommandOutput = await this.doc.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: requests } }));
      requests = answer.UnprocessedItems?.[this.tableName];
    }
    return deliveries;
  }

  async recordAttempt(delivery: Delivery, attempt: Attempt, next: Pick<Delivery, 'status' | 'next_at'>): Promise<boolean> {
    const pending = next.status === 'pending' && next.next_at;
    // The request was sent: its attempt must be logged, through a throttle or a lost answer (retryTransient).
    return retryTransient(async (tries) => {
      const written = await unlessConditionFails(
        this.doc.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: webhookDeliveryKey(delivery.client_id, delivery.event_id, delivery.endpoint_id),
            UpdateExpression: pending
              ? 'SET attempts = list_append(attempts, :attempt), #status = :status, next_at = :next, retry_key = :retryKey, retry_at = :next REMOVE leased_by, lease_until'
              : 'SET attempts = list_append(attempts, :attempt), #status = :status REMOVE next_at, retry_key, retry_at, hold_key, hold_sort, leased_by, lease_until',
            // One writer per attempt: the count of attempts it read is still the count; a canceled one stays so.
            ConditionExpression: '#status = :pending AND size(attempts) = :count',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':attempt': [attempt],
              ':status': next.status,
              ':pending': 'pending',
              ':count': delivery.attempts.length,
              ...(pending ? { ':next': next.next_at, ':retryKey': retryKey(delivery.event_id) } : {}),
            },
          }),
        ),
      );
      if (written !== undefined) return true;
      // Refused: the delivery moved meanwhile, or an earlier try wrote this very attempt and its answer was lost.
      return tries > 1 && (await this.holdsAttempt(delivery, attempt));
    });
  }

  /** Whether the delivery's log holds this attempt (read consistently). */
  private async holdsAttempt(delivery: Delivery, attempt: Attempt): Promise<boolean> {
    const { Item } = await this.doc.send(
      new GetCommand({ TableName: this.tableName, Key: webhookDeliveryKey(delivery.client_id, delivery.event_id, delivery.endpoint_id), ConsistentRead: true }),
    );
    return ((Item?.attempts ?? []) as Attempt[]).some((logged) => logged.at === attempt.at && logged.endpoint_id === attempt.endpoint_id);
  }

  async cancel(delivery: Delivery, now: Date, leased = false): Promise<boolean> {
    const written = await unlessConditionFails(
      this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: webhookDeliveryKey(delivery.client_id, delivery.event_id, delivery.endpoint_id),
          UpdateExpression: 'SET #status = :canceled REMOVE next_at, retry_key, retry_at, hold_key, hold_sort, leased_by, lease_until',
          // Not one another is sending: its sender reads the endpoint again before the request and cancels it itself.
          ConditionExpression:
            '#status = :pending AND size(attempts) = :count' + (leased ? '' : ' AND (attribute_not_exists(lease_until) OR lease_until <= :now)'),
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':canceled': 'canceled',
            ':pending': 'pending',
            ':count': delivery.attempts.length,
            ...(leased ? {} : { ':now': now.toISOString() }),
          },
        }),
      ),
    );
    return written !== undefined;
  }

  /**
   * Found in the retry index (every pending delivery is in it), filtered to this endpoint: a read of
   * the sweep's backlog, which an endpoint's deletion (rare) can afford.
   */
  async pendingTo(clientId: string, endpointId: string): Promise<Delivery[]> {
    const found = await Promise.all(
      retryShards().map((key) =>
        queryAll(this.doc, {
          TableName: this.tableName,
          IndexName: RETRY_INDEX,
          KeyConditionExpression: 'retry_key = :key',
          FilterExpression: 'client_id = :client AND endpoint_id = :endpoint',
          ExpressionAttributeValues: { ':key': key, ':client': clientId, ':endpoint': endpointId },
        }),
      ),
    );
    return found.flat().map(deliveryOf);
  }

  /** Every delivery of the event due again now, and one for each endpoint given that has none (POST /events/{id}/redeliver). */
  async requeue(logged: LoggedEvent, endpoints: readonly Pick<WebhookEndpoint, 'id' | 'url'>[], now: Date): Promise<number> {
    const { event } = logged;
    const { client_id: clientId, id: eventId } = event;
    for (const endpoint of endpoints) {
      const existing = logged.deliveries.some((d) => d.endpoint_id === endpoint.id);
      const due = {
        ':pending': 'pending',
        ':now': now.toISOString(),
        ':retryKey': retryKey(eventId),
        ':holdKey': holdKey(clientId, event.order_id, endpoint.id),
        ':holdSort': holdSort(orderSequence(event), eventId),
      };
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: webhookDeliveryKey(clientId, eventId, endpoint.id),
          UpdateExpression: existing
            ? 'SET #status = :pending, next_at = :now, retry_key = :retryKey, retry_at = :now, hold_key = :holdKey, hold_sort = :holdSort'
            : 'SET entity = :entity, client_id = :client, event_id = :event, endpoint_id = :endpoint, #url = :url, #status = :pending, attempts = :none, next_at = :now, retry_key = :retryKey, retry_at = :now, expires_at = :expires, hold_key = :holdKey, hold_sort = :holdSort',
          ExpressionAttributeNames: existing ? { '#status': 'status' } : { '#status': 'status', '#url': 'url' },
          ExpressionAttributeValues: existing
            ? due
            : {
                ...due,
                ':entity': 'webhook_delivery',
                ':client': clientId,
                ':event': eventId,
                ':endpoint': endpoint.id,
                ':url': endpoint.url,
                ':none': [],
                ':expires': Math.floor(now.getTime() / 1000) + LOG_KEEP_SECONDS,
              },
        }),
      );
    }
    return endpoints.length;
  }

  /** The event id of the order's oldest pending delivery to this endpoint (the hold index), if any. */
  async firstPending(clientId: string, orderId: string, endpointId: string): Promise<string | undefined> {
    const { Items = [] } = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: HOLD_INDEX,
        KeyConditionExpression: 'hold_key = :key',
        ExpressionAttributeValues: { ':key': holdKey(clientId, orderId, endpointId) },
        Limit: 1,
      }),
    );
    const partition: unknown = Items[0]?.PK;
    return typeof partition === 'string' ? partition.slice(partition.lastIndexOf('#EVENT#') + '#EVENT#'.length) : undefined;
  }

  /** Keeps a pending delivery waiting (no attempt, its lease ended) until `until`, or until the delivery ahead of it ends. */
  async hold(delivery: Delivery, until: Date): Promise<void> {
    // Refused: it moved meanwhile, nothing to do.
    await unlessConditionFails(
      this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: webhookDeliveryKey(delivery.client_id, delivery.event_id, delivery.endpoint_id),
          UpdateExpression: 'SET next_at = :until, retry_key = :retryKey, retry_at = :until REMOVE leased_by, lease_until',
          ConditionExpression: '#status = :pending AND size(attempts) = :count',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':until': until.toISOString(),
            ':retryKey': retryKey(delivery.event_id),
            ':pending': 'pending',
            ':count': delivery.attempts.length,
          },
        }),
      ),
    );
  }

  /** Makes the order's next pending delivery to this endpoint due now (the one ahead of it has ended), unless it is leased (being sent, or its dispatcher is about to). */
  async wakeNext(clientId: string, orderId: string, endpointId: string, now: Date): Promise<void> {
    // After a sent delivery's end: a lost wake leaves the next one waiting its minute, so a throttle is tried again.
    await retryTransient(() => this.wake(clientId, orderId, endpointId, now));
  }

  private async wake(clientId: string, orderId: string, endpointId: string, now: Date): Promise<void> {
    const next = await this.firstPending(clientId, orderId, endpointId);
    if (!next) return;
    // Refused: it moved meanwhile, nothing to do.
    await unlessConditionFails(
      this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: webhookDeliveryKey(clientId, next, endpointId),
          UpdateExpression: 'SET next_at = :now, retry_key = :retryKey, retry_at = :now',
          ConditionExpression:
            '#status = :pending AND (attribute_not_exists(retry_at) OR retry_at > :now) AND (attribute_not_exists(lease_until) OR lease_until <= :now)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':now': now.toISOString(), ':retryKey': retryKey(next), ':pending': 'pending' },
        }),
      ),
    );
  }

  async due(now: Date, limit: number): Promise<Delivery[]> {
    const pages = await Promise.all(
      retryShards().map((key) =>
        this.doc.send(
          new QueryCommand({
            TableName: this.tableName,
            IndexName: RETRY_INDEX,
            KeyConditionExpression: 'retry_key = :key AND retry_at <= :now',
            ExpressionAttributeValues: { ':key': key, ':now': now.toISOString() },
            Limit: limit,
          }),
        ),
      ),
    );
    return pages
      .flatMap((page) => page.Items ?? [])
      .sort((a, b) => String(a.retry_at).localeCompare(String(b.retry_at)))
      .map((item) => ({ ...deliveryOf(item), next_at: String(item.retry_at) }));
  }

  /** The sweep's lease: due again at `until` (a sweep that dies leaves it so), refused while another's lease runs or once it moved. */
  async lease(delivery: Delivery, now: Date, until: Date): Promise<Delivery | undefined> {
    const written = await unlessConditionFails(
      this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: webhookDeliveryKey(delivery.client_id, delivery.event_id, delivery.endpoint_id),
          UpdateExpression: 'SET retry_at = :until, leased_by = :sweep, lease_until = :until',
          ConditionExpression:
            '#status = :pending AND size(attempts) = :count AND retry_at <= :now AND (attribute_not_exists(lease_until) OR lease_until <= :now)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':until': until.toISOString(),
            ':sweep': 'sweep',
            ':pending': 'pending',
            ':count': delivery.attempts.length,
            ':now': now.toISOString(),
          },
        }),
      ),
    );
    return written === undefined ? undefined : { ...delivery, leased_by: 'sweep', lease_until: until.toISOString() };
  }
}
