import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { CheckoutRecord } from './checkout-record.js';
import { countAfter, type DayCountBatch } from './conversion.js';
import type { DayCount } from './conversion.js';
import type { DayCountStore, MetricsStore } from './ports.js';
import type { IdempotencyReceipt } from '../platform/idempotency-receipts.js';
import { receiptAction } from '../platform/dynamo/idempotency-store.js';
import { checkoutKey, dayCounterKey, DAY_PREFIX, storedRecord } from '../platform/dynamo/keys.js';
import { queryAll } from '../platform/dynamo/query-all.js';
import { singleWriteError, transactUnlessRefused, unlessConditionFails } from '../platform/dynamo/transactions.js';

/**
 * The checkout record, as an action of the checkout's transaction (or its only write): once per
 * (client, order_number). It is the only metrics write a checkout makes; the day counts follow
 * from the table's stream (DynamoDayCounts), so no item takes a write per checkout.
 */
export function checkoutAction(tableName: string, record: CheckoutRecord) {
  return {
    Put: {
      TableName: tableName,
      // `counted_by`: the stream counts only records written by this code; records written before
      // the day counts moved to the stream were counted inline (and a migrated one must not count again).
      Item: { ...storedRecord(checkoutKey(record.client_id, record.order_hash), 'checkout', record), counted_by: 'stream' },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

export class DynamoMetricsStore implements MetricsStore {
  /** `receiptsTableName`: the main table, where Idempotency-Key receipts live (only writers need it). */
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly receiptsTableName?: string,
  ) {}

  /**
   * One round trip, once per order_number: a conditional PutItem (1 write unit), or with an
   * Idempotency-Key a transaction of the record and the receipt. A refusal reads what holds the
   * number (one more GetItem, on a repeat only): an opt-out is a repeat, an order is `order_exists`.
   */
  async logOptOut(record: CheckoutRecord, receipt?: IdempotencyReceipt): Promise<'logged' | 'duplicate' | 'order_exists'> {
    if (receipt && !this.receiptsTableName) throw new Error('DynamoMetricsStore needs the receipts table to log with a receipt');
    const action = checkoutAction(this.tableName, record);
    if (!receipt) {
      try {
        await this.doc.send(new PutCommand(action.Put));
        return 'logged';
      } catch (err) {
        if (err instanceof ConditionalCheckFailedException) return this.heldBy(record);
        throw singleWriteError(err) ?? err;
      }
    }
    const TransactItems = [action, receiptAction(this.receiptsTableName!, receipt, null)];
    if (!(await transactUnlessRefused(this.doc, TransactItems))) return this.heldBy(record);
    receipt.committed = true;
    return 'logged';
  }

  /** What already holds an opt-out's order number: another opt-out, or a protected order. */
  private async heldBy(record: CheckoutRecord): Promise<'duplicate' | 'order_exists'> {
    const { Item } = await this.doc.send(
      new GetCommand({
        TableName: this.tableName,
        Key: checkoutKey(record.client_id, record.order_hash),
        ProjectionExpression: 'opt_in',
        ConsistentRead: true,
      }),
    );
    return Item?.opt_in === true ? 'order_exists' : 'duplicate';
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
      ProjectionExpression: '#day, opt_in, opt_out',
      ExpressionAttributeNames: { '#day': 'day' },
    });
    return records.map((item) => ({ day: String(item.day), opt_in: Number(item.opt_in ?? 0), opt_out: Number(item.opt_out ?? 0) }));
  }
}

/**
 * The day counts, kept from the metrics table's stream. A day's count item holds, per stream
 * shard, the position of the last checkout it counted (`counted_<shard>`); an update adds only
 * checkouts after it and moves it, in one conditional write, so a batch delivered again adds
 * nothing. Usually one round trip per (client, day) per batch: the update assumes the batch is
 * new; when the watermark says otherwise it reads it, counts what is left, and writes on it.
 */
export class DynamoDayCounts implements DayCountStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async addToDayCount(source: string, batch: DayCountBatch): Promise<void> {
    const first = batch.checkouts[0]?.position;
    if (first === undefined) return;
    let counted: string | undefined; // unknown until read: assume nothing of this batch was counted
    for (let attempt = 0; attempt < 5; attempt++) {
      const add = countAfter(batch.checkouts, counted);
      if (add.last === undefined || add.last === counted) return; // everything was already counted
      const added = await unlessConditionFails(
        this.doc.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: dayCounterKey(batch.client_id, batch.day),
            UpdateExpression: 'SET entity = :entity, #day = :day, #counted = :last ADD opt_in :in, opt_out :out',
            ConditionExpression: counted === undefined ? 'attribute_not_exists(#counted) OR #counted < :first' : '#counted = :counted',
            ExpressionAttributeNames: { '#day': 'day', '#counted': `counted_${source}` },
            ExpressionAttributeValues: {
              ':entity': 'day_counter',
              ':day': batch.day,
              ':last': add.last,
              ':in': add.opt_in,
              ':out': add.opt_out,
              ...(counted === undefined ? { ':first': first } : { ':counted': counted }),
            },
          }),
        ),
      );
      if (added) return;
      // Refused: part of this batch was counted before; read the watermark and count the rest.
      const { Item } = await this.doc.send(
        new GetCommand({
          TableName: this.tableName,
          Key: dayCounterKey(batch.client_id, batch.day),
          ConsistentRead: true,
          ProjectionExpression: '#counted',
          ExpressionAttributeNames: { '#counted': `counted_${source}` },
        }),
      );
      counted = typeof Item?.[`counted_${source}`] === 'string' ? (Item[`counted_${source}`] as string) : undefined;
      if (counted === undefined) throw new Error('day count: the watermark refused the update but is not there');
    }
    throw new Error('day count: the watermark kept moving under this batch (two consumers on one shard?)');
  }
}
