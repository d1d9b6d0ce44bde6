import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CheckoutRecord } from '../domain/checkout-record.js';
import type { DayCount, IdempotencyReceipt, MetricsStore } from '../domain/ports.js';
import { receiptAction } from './idempotency-store.js';
import { checkoutKey, dayCounterKey, DAY_PREFIX, storedRecord } from './keys.js';
import { queryAll } from './query-all.js';
import { cancellationCodes, cancellationError, retryOnConflict } from './transactions.js';

/** The checkout record and the day's counter, as the two actions of one transaction. */
export function checkoutActions(tableName: string, record: CheckoutRecord) {
  const counter = record.opt_in ? 'opt_in' : 'opt_out';
  return [
    {
      Put: {
        TableName: tableName,
        Item: storedRecord(checkoutKey(record.client_id, record.order_hash), 'checkout', record),
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    {
      Update: {
        TableName: tableName,
        Key: dayCounterKey(record.client_id, record.day),
        UpdateExpression: 'SET entity = :entity, #day = :day ADD #counter :one',
        ExpressionAttributeNames: { '#counter': counter, '#day': 'day' },
        ExpressionAttributeValues: { ':one': 1, ':entity': 'day_counter', ':day': record.day },
      },
    },
  ];
}

export class DynamoMetricsStore implements MetricsStore {
  /** `receiptsTableName`: the main table, where Idempotency-Key receipts live (only writers need it). */
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly receiptsTableName?: string,
  ) {}

  /** One round trip: the record, the count (and the receipt) commit together, once per order_number. */
  async logOptOut(record: CheckoutRecord, receipt?: IdempotencyReceipt): Promise<'logged' | 'duplicate'> {
    if (receipt && !this.receiptsTableName) throw new Error('DynamoMetricsStore needs the receipts table to log with a receipt');
    const TransactItems = [...checkoutActions(this.tableName, record), ...(receipt ? [receiptAction(this.receiptsTableName!, receipt, null)] : [])];
    try {
      await retryOnConflict(() => this.doc.send(new TransactWriteCommand({ TransactItems })));
    } catch (err) {
      const codes = cancellationCodes(err);
      if (!codes) throw err;
      if (codes[0] === 'ConditionalCheckFailed') return 'duplicate';
      throw cancellationError(codes);
    }
    if (receipt) receipt.committed = true;
    return 'logged';
  }

  /** The service_order_id the checkout of this order number created; undefined for none or an opt-out. */
  async orderIdByHash(clientId: string, orderHash: string): Promise<string | undefined> {
    const { Item } = await this.doc.send(
      new GetCommand({ TableName: this.tableName, Key: checkoutKey(clientId, orderHash), ProjectionExpression: 'service_order_id' }),
    );
    return typeof Item?.service_order_id === 'string' ? Item.service_order_id : undefined;
  }

  async dailyCounts(clientId: string, fromDay: string, toDay: string): Promise<DayCount[]> {
    const records = await queryAll(this.doc, {
      TableName: this.tableName,
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': dayCounterKey(clientId, fromDay).PK, ':from': `${DAY_PREFIX}${fromDay}`, ':to': `${DAY_PREFIX}${toDay}` },
    });
    return records.map((item) => ({ day: String(item.day), opt_in: Number(item.opt_in ?? 0), opt_out: Number(item.opt_out ?? 0) }));
  }
}
