import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Key } from './keys.js';

/** BatchGetItem takes at most 100 keys a request, and refuses a request that names one key twice. */
const MAX_BATCH_KEYS = 100;

/** A record's key as one string, to find records by key in a batch's answer. */
export const keyId = (key: { PK: unknown; SK: unknown }): string => `${String(key.PK)}\n${String(key.SK)}`;

export interface BatchGetOptions {
  consistent?: boolean;
  /** Only these attributes: a ProjectionExpression and its names (`#name` → `name`). */
  projection?: { expression: string; names: Record<string, string> };
}

/**
 * The records at these keys, missing ones left out, in no particular order: the keys without
 * repeats, one BatchGetItem per 100 of them, all sent at once; what DynamoDB leaves unprocessed is
 * asked for again with backoff.
 */
export async function batchGet(
  doc: DynamoDBDocumentClient,
  tableName: string,
  keys: readonly Key[],
  options: BatchGetOptions = {},
): Promise<Record<string, unknown>[]> {
  const unique = [...new Map(keys.map((key) => [keyId(key), key])).values()];
  const chunks: Key[][] = [];
  for (let start = 0; start < unique.length; start += MAX_BATCH_KEYS) chunks.push(unique.slice(start, start + MAX_BATCH_KEYS));
  const pages = await Promise.all(
    chunks.map(async (chunk) => {
      const found: Record<string, unknown>[] = [];
      let pending: Record<string, unknown>[] | undefined = chunk.map((key) => ({ PK: key.PK, SK: key.SK }));
      for (let attempt = 0; pending?.length; attempt++) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** Math.min(attempt, 6)));
        const answer = await doc.send(
          new BatchGetCommand({
            RequestItems: {
              [tableName]: {
                Keys: pending,
                ...(options.consistent ? { ConsistentRead: true } : {}),
                ...(options.projection ? { ProjectionExpression: options.projection.expression, ExpressionAttributeNames: options.projection.names } : {}),
              },
            },
          }),
        );
        found.push(...(answer.Responses?.[tableName] ?? []));
        pending = answer.UnprocessedKeys?.[tableName]?.Keys as Record<string, unknown>[] | undefined;
      }
      return found;
    }),
  );
  return pages.flat();
}
