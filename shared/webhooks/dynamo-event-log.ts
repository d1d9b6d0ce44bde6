import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { deliveryOf } from './dynamo-delivery-queue.js';
import type { EventLog, EventPage, LoggedEvent } from './ports.js';
import { LOG_KEEP_SECONDS, type WebhookEvent } from './webhook-events.js';
import { eventListKey, eventListSort, listShard, orderKey, webhookEventKey, recordFields } from '../platform/dynamo/keys.js';
import { queryAll } from '../platform/dynamo/query-all.js';
import { shardedList, shardLimit, sortRange } from '../platform/dynamo/sharded-list.js';
import { retryTransient, unlessConditionFails } from '../platform/dynamo/transactions.js';
import { EVENT_LIST_INDEX } from '../platform/dynamo/table-definitions.js';

/** An event as the log keeps it, without its index attributes. */
const eventOf = (record: Record<string, unknown>): WebhookEvent => recordFields<WebhookEvent>(record, ['expires_at', 'elist_key', 'elist_sort']);

const eventView = (record: Record<string, unknown>) => ({
  ...eventOf(record),
  delivery_success: typeof record.delivery_success === 'boolean' ? record.delivery_success : null,
});

/**
 * The event log: an event is kept (`EVENT`) in its own partition (`CLIENT#<client>#EVENT#<id>`),
 * beside its deliveries (the delivery queue's), for LOG_KEEP_SECONDS; `elist_key` / `elist_sort`
 * put it in the `events-by-client` index (LIST_SHARDS shards by its order), which GET /events
 * pages through. It counts its deliveries (`deliveries_total`, `delivered_count`) and keeps
 * `delivery_success`: false from the first failed attempt, true once every delivery is delivered.
 */
export class DynamoEventLog implements EventLog {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async keep(event: WebhookEvent, deliveries: number): Promise<void> {
    const expires = Math.floor(Date.parse(event.created) / 1000) + LOG_KEEP_SECONDS;
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
          ':total': deliveries,
          ':listKey': eventListKey(event.client_id, listShard(event.order_id)),
          ':listSort': eventListSort(event.created, event.id),
          ...(event.sealed_order_number === undefined ? {} : { ':sealed': event.sealed_order_number }),
        },
      }),
    );
  }

  async event(clientId: string, eventId: string): Promise<LoggedEvent | undefined> {
    const records = await queryAll(this.doc, {
      TableName: this.tableName,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': webhookEventKey(clientId, eventId).PK },
      ConsistentRead: true,
    });
    const event = records.find((record) => record.entity === 'webhook_event');
    if (!event) return undefined;
    return {
      event: eventOf(event),
      deliveries: records.filter((record) => record.entity === 'webhook_delivery').map(deliveryOf),
    };
  }

  /** A page of the client's events, newest first (the events index, LIST_SHARDS shards merged). */
  async list(clientId: string, query: { after?: string; type?: string; deliverySuccess?: boolean; limit: number }): Promise<EventPage> {
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

  /**
   * Keeps the event's delivery_success: false from its first failed attempt, true once every
   * delivery is delivered (an event redelivered successfully turns true again).
   */
  async noteOutcome(clientId: string, eventId: string, delivered: boolean): Promise<void> {
    const key = webhookEventKey(clientId, eventId);
    if (!delivered) {
      // Once: a failing event is not written again at each failed attempt (each write of the event
      // record is a write of its events-index entry too). Written again through a throttle or a lost
      // answer (it sets what it sets, so twice is once), as is a single delivery's success below.
      await retryTransient(() =>
        unlessConditionFails(
          this.doc.send(
            new UpdateCommand({
              TableName: this.tableName,
              Key: key,
              UpdateExpression: 'SET delivery_success = :no',
              ConditionExpression: 'attribute_not_exists(delivery_success) OR delivery_success = :yes',
              ExpressionAttributeValues: { ':no': false, ':yes': true },
            }),
          ),
        ),
      );
      return;
    }
    // The usual event has one delivery: one write marks it a success.
    const single = await retryTransient(() =>
      unlessConditionFails(
        this.doc.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: key,
            UpdateExpression: 'SET delivery_success = :yes, delivered_count = :one',
            ConditionExpression: 'deliveries_total = :one',
            ExpressionAttributeValues: { ':yes': true, ':one': 1 },
          }),
        ),
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

  /** Counted afresh: every delivery due again, the event is a success only once they all are. */
  async noteRequeued(clientId: string, eventId: string, deliveries: number): Promise<void> {
    await this.doc.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: webhookEventKey(clientId, eventId),
        UpdateExpression: 'SET deliveries_total = :total, delivered_count = :zero REMOVE delivery_success',
        ExpressionAttributeValues: { ':total': deliveries, ':zero': 0 },
      }),
    );
  }
}

/** An order's number, from its header (the dispatcher's one read per order it announces). */
export async function orderNumberOf(doc: DynamoDBDocumentClient, tableName: string, clientId: string, orderId: string): Promise<string | undefined> {
  const { Item } = await doc.send(new GetCommand({ TableName: tableName, Key: orderKey(clientId, orderId), ProjectionExpression: 'order_number' }));
  return typeof Item?.order_number === 'string' ? Item.order_number : undefined;
}
