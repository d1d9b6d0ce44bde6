import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Claim, IdempotencyStore, StoredResponse } from '../http/idempotency.js';
import { idempotencyKey } from './keys.js';

const RETENTION_SECONDS = 24 * 3600;
/** Longer than any function timeout: a claim older than this belongs to a run that died. */
const LOCK_MS = 30_000;

/** Idempotency records live in the main table beside the client's data and expire by TTL. */
export class DynamoIdempotencyStore implements IdempotencyStore {
  constructor(private readonly doc: DynamoDBDocumentClient, private readonly tableName: string) {}

  async claim(clientId: string, key: string, fingerprint: string, now: Date): Promise<Claim> {
    const nowSeconds = Math.floor(now.getTime() / 1000);
    try {
      await this.doc.send(new PutCommand({
        TableName: this.tableName,
        Item: {
          ...idempotencyKey(clientId, key),
          entity: 'idempotency',
          status: 'in_progress',
          fingerprint,
          locked_until: now.getTime() + LOCK_MS,
          expires_at: nowSeconds + RETENTION_SECONDS,
        },
        // Free, expired, or claimed by a run that died with the same request.
        ConditionExpression: 'attribute_not_exists(PK) OR expires_at < :now OR (#status = :in_progress AND locked_until < :now_ms AND fingerprint = :fingerprint)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':now': nowSeconds, ':now_ms': now.getTime(), ':in_progress': 'in_progress', ':fingerprint': fingerprint },
      }));
      return { kind: 'claimed' };
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
    }
    const { Item } = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: idempotencyKey(clientId, key), ConsistentRead: true }));
    if (!Item) return this.claim(clientId, key, fingerprint, now); // released in between: try again
    return Item.status === 'completed'
      ? { kind: 'completed', fingerprint: String(Item.fingerprint), response: Item.response as StoredResponse }
      : { kind: 'in_progress', fingerprint: String(Item.fingerprint) };
  }

  async complete(clientId: string, key: string, fingerprint: string, response: StoredResponse, now: Date): Promise<void> {
    await this.doc.send(new PutCommand({
      TableName: this.tableName,
      Item: {
        ...idempotencyKey(clientId, key),
        entity: 'idempotency',
        status: 'completed',
        fingerprint,
        response,
        expires_at: Math.floor(now.getTime() / 1000) + RETENTION_SECONDS,
      },
    }));
  }

  async release(clientId: string, key: string): Promise<void> {
    await this.doc.send(new DeleteCommand({ TableName: this.tableName, Key: idempotencyKey(clientId, key) }));
  }
}
