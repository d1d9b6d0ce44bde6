import { TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AttemptLimits } from './ports.js';
import { attemptWindowKey } from '../platform/dynamo/keys.js';
import { retryOnConflict, transactUnlessRefused } from '../platform/dynamo/transactions.js';

/** The window attempts are counted in. */
export const ATTEMPT_WINDOW_MS = 15 * 60_000;

/**
 * Attempts per scope in fixed 15-minute windows: one counter item per scope and window, deleted
 * by TTL an hour after its window. Reserving is one transaction of a conditional ADD per scope:
 * every counter moves, or none does when one is at its limit, and concurrent attempts each see
 * the counts the others left, so no burst passes a limit. Giving a successful attempt back is one
 * transaction of an ADD of -1 per scope (the counters exist: they were written in this window).
 */
export class DynamoAttemptLimits implements AttemptLimits {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async reserve(scopes: readonly { scope: string; limit: number }[], now: Date): Promise<number | undefined> {
    const window = Math.floor(now.getTime() / ATTEMPT_WINDOW_MS);
    const expires = Math.floor(((window + 1) * ATTEMPT_WINDOW_MS) / 1000) + 3600;
    const TransactItems = scopes.map(({ scope, limit }) => ({
      Update: {
        TableName: this.tableName,
        Key: attemptWindowKey(scope, window),
        UpdateExpression: 'SET entity = :entity, expires_at = :expires ADD failures :one',
        ConditionExpression: 'attribute_not_exists(failures) OR failures < :limit',
        ExpressionAttributeValues: { ':entity': 'attempts', ':expires': expires, ':one': 1, ':limit': limit },
      },
    }));
    // Refused when any one of the counters is at its limit.
    if (await transactUnlessRefused(this.doc, TransactItems, (codes) => codes.includes('ConditionalCheckFailed'))) return undefined;
    return Math.ceil(((window + 1) * ATTEMPT_WINDOW_MS - now.getTime()) / 1000);
  }

  async giveBack(scopes: readonly string[], now: Date): Promise<void> {
    const window = Math.floor(now.getTime() / ATTEMPT_WINDOW_MS);
    const TransactItems = scopes.map((scope) => ({
      Update: {
        TableName: this.tableName,
        Key: attemptWindowKey(scope, window),
        UpdateExpression: 'ADD failures :minus',
        ExpressionAttributeValues: { ':minus': -1 },
      },
    }));
    await retryOnConflict(() => this.doc.send(new TransactWriteCommand({ TransactItems })));
  }
}
