import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { IdempotencyClaim, IdempotencyReceipt, IdempotencyStore, OrderReplay, StoredAnswer } from '../idempotency-receipts.js';
import { ConflictError } from '../errors.js';
import { idempotencyKey, storedRecord } from './keys.js';

const RETENTION_SECONDS = 24 * 3600;
/** Longer than any function timeout: a claim older than this belongs to a run that died. */
const LOCK_MS = 30_000;
/** Tries of a claim whose record is released between the refused write and the read. */
const MAX_CLAIM_ATTEMPTS = 3;

const completedRecord = (receipt: IdempotencyReceipt, outcome: { answer: StoredAnswer } | { replay: OrderReplay | null }) =>
  storedRecord(idempotencyKey(receipt.clientId, receipt.key), 'idempotency', {
    status: 'completed',
    fingerprint: receipt.fingerprint,
    ...outcome,
    expires_at: Math.floor(receipt.now.getTime() / 1000) + RETENTION_SECONDS,
  });

/**
 * The receipt as one action of the transaction that commits the request's write: the completed
 * record, with what a replay needs to answer (`null`: an answer without a body, the opt-out's 204).
 */
export function receiptAction(tableName: string, receipt: IdempotencyReceipt, replay: OrderReplay | null) {
  return { Put: { TableName: tableName, Item: completedRecord(receipt, { replay }) } };
}

/** Idempotency records live in the main table beside the client's data and expire by TTL. */
export class DynamoIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async claim(clientId: string, key: string, fingerprint: string, now: Date, attempt = 1): Promise<IdempotencyClaim> {
    const nowSeconds = Math.floor(now.getTime() / 1000);
    // This run's mark on its claim: when the claim's answer is lost, a read tells whether it was written.
    const claimToken = randomUUID();
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.tableName,
          Item: storedRecord(idempotencyKey(clientId, key), 'idempotency', {
            status: 'in_progress',
            fingerprint,
            claim_token: claimToken,
            locked_until: now.getTime() + LOCK_MS,
            expires_at: nowSeconds + RETENTION_SECONDS,
          }),
          // Free, expired, or claimed by a run that died with the same request.
          ConditionExpression:
            'attribute_not_exists(PK) OR expires_at < :now OR (#status = :in_progress AND locked_until < :now_ms AND fingerprint = :fingerprint)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':now': nowSeconds, ':now_ms': now.getTime(), ':in_progress': 'in_progress', ':fingerprint': fingerprint },
        }),
      );
      return { kind: 'claimed' };
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) {
        // An unknown outcome (a lost answer): the claim is this run's if the record bears its token.
        const written = await this.doc
          .send(new GetCommand({ TableName: this.tableName, Key: idempotencyKey(clientId, key), ConsistentRead: true }))
          .catch(() => undefined);
        if (written?.Item?.claim_token === claimToken) return { kind: 'claimed' };
        throw err;
      }
    }
    const { Item } = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: idempotencyKey(clientId, key), ConsistentRead: true }));
    if (!Item) {
      // Released in between: try again, a few times at most.
      if (attempt >= MAX_CLAIM_ATTEMPTS)
        throw new ConflictError('request_in_progress', 'A request with this Idempotency-Key is still being processed; retry shortly.', 'Idempotency-Key');
      return this.claim(clientId, key, fingerprint, now, attempt + 1);
    }
    const stored = String(Item.fingerprint);
    if (Item.status !== 'completed') return { kind: 'in_progress', fingerprint: stored };
    return Item.answer
      ? { kind: 'completed', fingerprint: stored, answer: Item.answer as StoredAnswer }
      : { kind: 'completed', fingerprint: stored, replay: (Item.replay ?? undefined) as OrderReplay | undefined };
  }

  async complete(receipt: IdempotencyReceipt, answer: StoredAnswer): Promise<void> {
    await this.doc.send(new PutCommand({ TableName: this.tableName, Item: completedRecord(receipt, { answer }) }));
  }

  async release(clientId: string, key: string): Promise<void> {
    try {
      // Never a completed record: its write committed (even if the caller saw an error), so a retry must replay it.
      await this.doc.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: idempotencyKey(clientId, key),
          ConditionExpression: '#status = :in_progress',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':in_progress': 'in_progress' },
        }),
      );
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
    }
  }
}
