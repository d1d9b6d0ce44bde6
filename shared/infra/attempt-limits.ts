import { BatchGetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AttemptLimits } from '../domain/ports.js';
import { attemptWindowKey } from './keys.js';

/** The window failed attempts are counted in. */
export const ATTEMPT_WINDOW_MS = 15 * 60_000;

/**
 * Failed attempts per scope in fixed 15-minute windows: one counter item per scope and window,
 * deleted by TTL an hour after its window. Checking costs one BatchGetItem; a failure one atomic
 * ADD per scope. Nothing is written on the success path.
 */
export class DynamoAttemptLimits implements AttemptLimits {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async retryAfter(scopes: readonly { scope: string; limit: number }[], now: Date): Promise<number | undefined> {
    const window = Math.floor(now.getTime() / ATTEMPT_WINDOW_MS);
    const { Responses } = await this.doc.send(
      new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: scopes.map(({ scope }) => attemptWindowKey(scope, window)), ConsistentRead: true } } }),
    );
    const counts = new Map((Responses?.[this.tableName] ?? []).map((record) => [String(record.PK), Number(record.failures ?? 0)]));
    const over = scopes.some(({ scope, limit }) => (counts.get(attemptWindowKey(scope, window).PK) ?? 0) >= limit);
    return over ? Math.ceil(((window + 1) * ATTEMPT_WINDOW_MS - now.getTime()) / 1000) : undefined;
  }

  async recordFailure(scopes: readonly string[], now: Date): Promise<void> {
    const window = Math.floor(now.getTime() / ATTEMPT_WINDOW_MS);
    const expires = Math.floor(((window + 1) * ATTEMPT_WINDOW_MS) / 1000) + 3600;
    await Promise.all(
      scopes.map((scope) =>
        this.doc.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: attemptWindowKey(scope, window),
            UpdateExpression: 'SET entity = :entity, expires_at = :expires ADD failures :one',
            ExpressionAttributeValues: { ':entity': 'attempts', ':expires': expires, ':one': 1 },
          }),
        ),
      ),
    );
  }
}
