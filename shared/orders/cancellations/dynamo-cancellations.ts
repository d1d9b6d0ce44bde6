import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { cancellationExpiry, type Cancellation } from './cancellation.js';
import type { CancellationStore } from './ports.js';
import { cancellationKey, recordFields, storedRecord } from '../../platform/dynamo/keys.js';

const ENTITY = 'cancellation';

/**
 * The kept previews: one record each under its client, deleted by the table's TTL
 * KEEP_AFTER_CONFIRM_BEFORE_DAYS after `confirm_before`. Its `confirmed_at` is written by the
 * transaction that moves its policies (dynamo-order-transactions.ts), never here.
 */
export class DynamoCancellations implements CancellationStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async save(cancellation: Cancellation): Promise<void> {
    const key = cancellationKey(cancellation.client_id, cancellation.cancellation_id);
    await this.doc.send(
      new PutCommand({
        TableName: this.tableName,
        Item: storedRecord(key, ENTITY, { ...cancellation, expires_at: cancellationExpiry(cancellation) }),
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  }

  async get(clientId: string, cancellationId: string): Promise<Cancellation | undefined> {
    const { Item } = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: cancellationKey(clientId, cancellationId), ConsistentRead: true }));
    return Item ? recordFields<Cancellation>(Item, ['expires_at']) : undefined;
  }
}
