import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Key } from './keys.js';
import { RateLimitError } from '../errors.js';

/** BatchGetItem takes at most 100 keys a request, and refuses a request that names one key twice. */
export const MAX_BATCH_KEYS = 100;
/**
 * Requests a chunk of keys may take while DynamoDB leaves some unprocessed (it does under
 * throttling), the first included: then the read is refused as throttled (429, retry later).
 */
export const MAX_BATCH_GET_ATTEMPTS = 8;
/** The wait before a retry: BATCH_GET_BACKOFF_MS doubled per attempt, up to 2^BATCH_GET_BACKOFF_DOUBLINGS times it. */
const BATCH_GET_BACKOFF_MS = 20;
const BATCH_GET_BACKOFF_DOUBLINGS = 6;

/** A record's key as one string, to find records by key in a batch's answer. */
export const keyId = (key: { PK: unknown; SK: unknown }): string => `${String(key.PK)}\n${String(key.SK)}`;

export interface BatchGetOptions {
  consistent?: boolean;
  /** Only these attributes: a ProjectionExpression and its names (`#name` → `name`). */
  projection?: { expression: string; names: Record<string, string> };
}

/**
 * The records at these keys, missing ones left out, in no particular order: the keys without
 * repeats, one BatchGetItem per MAX_BATCH_KEYS of them, all sent at once; what DynamoDB leaves
 * unprocessed is asked for again with backoff, MAX_BATCH_GET_ATTEMPTS requests a chunk at most.
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
        if (attempt === MAX_BATCH_GET_ATTEMPTS) throw new RateLimitError('rate_limited', 'The store is busy and left part of a read unprocessed; retry later.');
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, BATCH_GET_BACKOFF_MS * 2 ** Math.min(attempt, BATCH_GET_BACKOFF_DOUBLINGS)));
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
