import {
  BatchWriteCommand,
  type BatchWriteCommandInput,
  type BatchWriteCommandOutput,
  GetCommand,
  QueryCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { Attempt, Delivery, DeliveryStore, EventPage } from './dispatch-webhooks.js';
import type { WebhookEndpoint } from './webhook-endpoints.js';
import { orderSequence, type WebhookEvent } from './webhook-events.js';
import {
  eventListKey,
  eventListSort,
  holdKey,
  holdSort,
  listShard,
  orderKey,
  RETRY_SHARDS,
  retryKey,
  storedRecord,
  webhookDeliveryKey,
  webhookEventKey,
  recordFields,
} from '../platform/dynamo/keys.js';
import { queryAll } from '../platform/dynamo/query-all.js';
import { shardedList, shardLimit, sortRange } from '../platform/dynamo/sharded-list.js';
import { unlessConditionFails } from '../platform/dynamo/transactions.js';
import { EVENT_LIST_INDEX, HOLD_INDEX, RETRY_INDEX } from '../platform/dynamo/table-definitions.js';

type WriteRequests = NonNullable<BatchWriteCommandInput['RequestItems']>[string];

/** Events and deliveries are kept 30 days (the delivery log), then DynamoDB's TTL removes them. */
const KEEP_SECONDS = 30 * 24 * 60 * 60;

const stripKeys = <T>(record: Record<string, unknown>): T =>
  recordFields<T>(record, ['retry_key', 'retry_at', 'expires_at', 'elist_key', 'elist_sort', 'hold_key', 'hold_sort']);

/**
 * An event is one partition (`CLIENT#<client>#EVENT#<id>`): the event (`EVENT`) and a delivery per
 * endpoint (`DELIVERY#<endpoint>`) with its attempts. A pending delivery carries `retry_key` /
 * `retry_at`, which put it in the sparse `webhook-retries` index (16 shards) until it is delivered
 * or failed; the retry sweep reads that index.
 */
export class DynamoWebhookDeliveries implements DeliveryStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async record(event: WebhookEvent, endpoints: readonly Pick<WebhookEndpoint, 'id' | 'url'>[], dueBy: Date): Promise<Delivery[]> {
    const kept = await this.event(event.client_id, event.id);
    if (kept) return kept.deliveries; // the stream gave this change again: carry on with what was kept
    const expires = Math.floor(Date.parse(event.created) / 1000) + KEEP_SECONDS;
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
    // Deliveries first, the event last: an event record means its deliveries are all there.
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
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      const answer: BatchWriteCommandOutput = await this.doc.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: requests } }));
      requests = answer.UnprocessedItems?.[this.tableName];
    }
    await this.doc.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: webhookEventKey(event.client_id, event.id),
        UpdateExpression:
          'SET entity = :entity, id = :id, #type = :type, created = :created, client_id = :client, order_id = :order, #data = :data, expires_at = :expires, deliveries_total = :total, elist_key = :listKey, elist_sort = :listSort' +
          (event.sealed_order_number === undefined ? '' : ', sealed_order_number = :sealed'),
        ExpressionAttributeNames: { '#type': 'type', '#data': 'data' },
        ExpressionAttributeValues: {
          ':entity': 'webhook_event',
          ':id': event.id,
          ':type': event.type,
          ':created': event.created,
          ':client': event.client_id,
          ':order': event.order_id,
          ':data': event.data,
          ':expires': expires,
          ':total': deliveries.length,
          ':listKey': eventListKey(event.client_id, listShard(event.order_id)),
          ':listSort': eventListSort(event.created, event.id),
          ...(event.sealed_order_number === undefined ? {} : { ':sealed': event.sealed_order_number }),
        },
      }),
    );
    return deliveries;
  }

  async recordAttempt(delivery: Delivery, attempt: Attempt, next: Pick<Delivery, 'status' | 'next_at'>): Promise<boolean> {
    const pending = next.status === 'pending' && next.next_at;
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
    return written !== undefined;
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

  /** A canceled delivery leaves the event's count; the event is a success when every one left was delivered (none left: still null). */
  async noteCanceled(clientId: string, eventId: string): Promise<void> {
    const answer = await unlessConditionFails(
      this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: webhookEventKey(clientId, eventId),
          UpdateExpression: 'ADD deliveries_total :minus',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':minus': -1 },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    const Attributes = answer?.Attributes;
    const total = Number(Attributes?.deliveries_total ?? 0);
    if (total > 0 && Number(Attributes?.delivered_count ?? 0) >= total) {
      // Only while no attempt failed: false stays false.
      await unlessConditionFails(
        this.doc.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: webhookEventKey(clientId, eventId),
            UpdateExpression: 'SET delivery_success = :yes',
            ConditionExpression: 'attribute_not_exists(delivery_success)',
            ExpressionAttributeValues: { ':yes': true },
          }),
        ),
      );
    }
  }

  /**
   * Found in the retry index (every pending delivery is in it), filtered to this endpoint: a read of
   * the sweep's backlog, which an endpoint's deletion (rare) can afford.
   */
  async pendingTo(clientId: string, endpointId: string): Promise<Delivery[]> {
    const shards = Array.from({ length: RETRY_SHARDS }, (_, n) => `RETRY#${String(n).padStart(2, '0')}`);
    const found = await Promise.all(
      shards.map((key) =>
        queryAll(this.doc, {
          TableName: this.tableName,
          IndexName: RETRY_INDEX,
          KeyConditionExpression: 'retry_key = :key',
          FilterExpression: 'client_id = :client AND endpoint_id = :endpoint',
          ExpressionAttributeValues: { ':key': key, ':client': clientId, ':endpoint': endpointId },
        }),
      ),
    );
    return found.flat().map((record) => stripKeys<Delivery>(record));
  }

  /**
   * Keeps the event's delivery_success: false from its first failed attempt, true once every
   * delivery is delivered (an event redelivered successfully turns true again).
   */
  async noteOutcome(clientId: string, eventId: string, delivered: boolean): Promise<void> {
    const key = webhookEventKey(clientId, eventId);
    if (!delivered) {
      // Once: a failing event is not written again at each failed attempt (each write of the event
      // record is a write of its events-index entry too).
      await unlessConditionFails(
        this.doc.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: key,
            UpdateExpression: 'SET delivery_success = :no',
            ConditionExpression: 'attribute_not_exists(delivery_success) OR delivery_success = :yes',
            ExpressionAttributeValues: { ':no': false, ':yes': true },
          }),
        ),
      );
      return;
    }
    // The usual event has one delivery: one write marks it a success.
    const single = await unlessConditionFails(
      this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key,
          UpdateExpression: 'SET delivery_success = :yes, delivered_count = :one',
          ConditionExpression: 'deliveries_total = :one',
          ExpressionAttributeValues: { ':yes': true, ':one': 1 },
        }),
      ),
    );
    if (single) return;
    const { Attributes } = await this.doc.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: key,
        UpdateExpression: 'ADD delivered_count :one',
        ExpressionAttributeValues: { ':one': 1 },
        ReturnValues: 'ALL_NEW',
      }),
    );
    if (Number(Attributes?.delivered_count) >= Number(Attributes?.deliveries_total)) {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key,
          UpdateExpression: 'SET delivery_success = :yes',
          ExpressionAttributeValues: { ':yes': true },
        }),
      );
    }
  }

  /** A page of the client's events, newest first (the events index, 64 shards merged). */
  async listEvents(clientId: string, query: { after?: string; type?: string; deliverySuccess?: boolean; limit: number }): Promise<EventPage> {
    const range = sortRange('elist_sort', { after: query.after })!;
    const conditions: string[] = [];
    const values: Record<string, unknown> = {};
    if (query.type) {
      conditions.push('#type = :type');
      values[':type'] = query.type;
    }
    if (query.deliverySuccess !== undefined) {
      conditions.push('delivery_success = :success');
      values[':success'] = query.deliverySuccess;
    }
    const records = shardedList(this.doc, {
      tableName: this.tableName,
      indexName: EVENT_LIST_INDEX,
      keyAttribute: 'elist_key',
      sortAttribute: 'elist_sort',
      key: (shard) => eventListKey(clientId, shard),
      range,
      ...(conditions.length ? { filter: { expression: conditions.join(' AND '), names: query.type ? { '#type': 'type' } : {}, values } } : {}),
      limit: (reads) => shardLimit(query.limit + 1, 4, reads),
    });
    const page: Record<string, unknown>[] = [];
    for (let record = await records.next(); record !== undefined; record = await records.next()) {
      if (page.length === query.limit) return { events: page.map(eventView), next: String(page[page.length - 1]!.elist_sort) };
      page.push(record);
    }
    return { events: page.map(eventView) };
  }

  /** Every delivery of the event due again now, and one for each endpoint given that has none (POST /events/{id}/redeliver). */
  async requeue(clientId: string, eventId: string, endpoints: readonly Pick<WebhookEndpoint, 'id' | 'url'>[], now: Date): Promise<number> {
    const kept = await this.event(clientId, eventId);
    if (!kept) return 0;
    for (const endpoint of endpoints) {
      const existing = kept.deliveries.some((d) => d.endpoint_id === endpoint.id);
      const due = {
        ':pending': 'pending',
        ':now': now.toISOString(),
        ':retryKey': retryKey(eventId),
        ':holdKey': holdKey(clientId, kept.event.order_id, endpoint.id),
        ':holdSort': holdSort(orderSequence(kept.event), eventId),
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
                ':expires': Math.floor(now.getTime() / 1000) + KEEP_SECONDS,
              },
        }),
      );
    }
    if (endpoints.length > 0) {
      // Counted afresh: every delivery due again, the event is a success only once they all are.
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: webhookEventKey(clientId, eventId),
          UpdateExpression: 'SET deliveries_total = :total, delivered_count = :zero REMOVE delivery_success',
          ExpressionAttributeValues: { ':total': endpoints.length, ':zero': 0 },
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
    const shards = Array.from({ length: RETRY_SHARDS }, (_, n) => `RETRY#${String(n).padStart(2, '0')}`);
    const pages = await Promise.all(
      shards.map((key) =>
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
      .map((item) => ({ ...stripKeys<Delivery>(item), next_at: String(item.retry_at) }));
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

  async event(clientId: string, eventId: string): Promise<{ event: WebhookEvent; deliveries: Delivery[] } | undefined> {
    const records = await queryAll(this.doc, {
      TableName: this.tableName,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': webhookEventKey(clientId, eventId).PK },
      ConsistentRead: true,
    });
    const event = records.find((record) => record.entity === 'webhook_event');
    if (!event) return undefined;
    return {
      event: stripKeys<WebhookEvent>(event),
      deliveries: records.filter((record) => record.entity === 'webhook_delivery').map((record) => stripKeys<Delivery>(record)),
    };
  }
}

const eventView = (record: Record<string, unknown>) => ({
  ...stripKeys<WebhookEvent>(record),
  delivery_success: typeof record.delivery_success === 'boolean' ? record.delivery_success : null,
});

/** An order's number, from its header (the dispatcher's one read per order it announces). */
export async function orderNumberOf(doc: DynamoDBDocumentClient, tableName: string, clientId: string, orderId: string): Promise<string | undefined> {
  const { Item } = await doc.send(new GetCommand({ TableName: tableName, Key: orderKey(clientId, orderId), ProjectionExpression: 'order_number' }));
  return typeof Item?.order_number === 'string' ? Item.order_number : undefined;
}
