import { GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Order, OrderItem } from '../order.js';
import type { FoundPolicy, ItemsWanted, OrderExcerpt, OrderExcerpts, OrderReader, PolicyFinder } from '../ports.js';
import { MAX_ORDER_ITEMS } from '../../platform/limits.js';
import { orderItemKey, orderKey, orderPartition, policyLookupKey, type Key } from '../../platform/dynamo/keys.js';
import { POLICY_INDEX } from '../../platform/dynamo/table-definitions.js';
import { queryAll } from '../../platform/dynamo/query-all.js';
import { batchGet, keyId } from '../../platform/dynamo/batch-get.js';
import { assemble, itemOf } from './dynamo-order-records.js';
import { itemCurrency } from './dynamo-old-order-records.js';

/**
 * Query pages an order's partition may take: its header and at most MAX_ORDER_ITEMS items, and a
 * Query page that has more holds at least one record, so the last page is at most one past them.
 */
export const ORDER_QUERY_PAGES = 1 + MAX_ORDER_ITEMS + 1;

/** What an excerpt reads of a header or an item (every name aliased: DynamoDB reserves many words). */
const EXCERPT_PROJECTION = {
  expression: '#pk, #sk, #order_number, #name, #event',
  names: { '#pk': 'PK', '#sk': 'SK', '#order_number': 'order_number', '#name': 'name', '#event': 'event' },
};

/** A policy's item record with its order and currency (read from the header for an item stored without it). */
export async function foundPolicy(doc: DynamoDBDocumentClient, tableName: string, clientId: string, record: Record<string, unknown>): Promise<FoundPolicy> {
  const serviceOrderId = String(record.PK).slice(orderPartition(clientId, '').length);
  const currency = await itemCurrency(doc, tableName, clientId, serviceOrderId, record);
  return { service_order_id: serviceOrderId, currency, item: itemOf(record, currency) };
}

/** Reads of one order, one policy or excerpts of orders by key: reading an order is one Query of its partition. */
export class DynamoOrderReads implements OrderReader, PolicyFinder, OrderExcerpts {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(clientId: string, orderId: string): Promise<Order | undefined> {
    const records = await queryAll(
      this.doc,
      {
        TableName: this.tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': orderPartition(clientId, orderId) },
        ConsistentRead: true,
      },
      ORDER_QUERY_PAGES,
    );
    if (!records.some((record) => record.entity === 'order')) return undefined;
    return assemble(records);
  }

  /**
   * The headers and the wanted items by key, only the attributes an excerpt shows: one BatchGetItem
   * per MAX_BATCH_KEYS keys, sent together. Read consistently, so an item a change made a moment ago is found.
   */
  async excerpts(wanted: readonly ItemsWanted[]): Promise<OrderExcerpt[]> {
    const keys = wanted.flatMap((order) => [
      orderKey(order.client_id, order.service_order_id),
      ...order.reference_numbers.map((reference) => orderItemKey(order.client_id, order.service_order_id, reference)),
    ]);
    const records = await batchGet(this.doc, this.tableName, keys, { consistent: true, projection: EXCERPT_PROJECTION });
    const byKey = new Map(records.map((record) => [keyId({ PK: record.PK, SK: record.SK }), record]));
    return wanted.flatMap((order) => {
      const header = byKey.get(keyId(orderKey(order.client_id, order.service_order_id)));
      if (!header) return [];
      const items = order.reference_numbers.flatMap((reference) => {
        const item = byKey.get(keyId(orderItemKey(order.client_id, order.service_order_id, reference)));
        return item ? [{ reference_number: reference, name: String(item.name), event: (item.event as OrderItem['event'] | undefined) ?? null }] : [];
      });
      return [{ client_id: order.client_id, service_order_id: order.service_order_id, order_number: String(header.order_number), items }];
    });
  }

  /** The policy-number index (keys only, eventually consistent) says where; the item itself is read consistently. */
  async findPolicy(clientId: string, policyNumber: string): Promise<FoundPolicy | undefined> {
    const { Items = [] } = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: POLICY_INDEX,
        KeyConditionExpression: 'policy_key = :key',
        ExpressionAttributeValues: { ':key': policyLookupKey(clientId, policyNumber) },
      }),
    );
    const [where] = Items as Key[];
    if (!where) return undefined;
    const { Item } = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: { PK: where.PK, SK: where.SK }, ConsistentRead: true }));
    if (!Item) return undefined;
    return foundPolicy(this.doc, this.tableName, clientId, Item);
  }
}
