import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_BATCH_GET_ATTEMPTS, MAX_BATCH_KEYS, batchGet } from './batch-get.js';
import { RateLimitError } from '../errors.js';

/** Issue 36.4: asking again for what DynamoDB leaves unprocessed is bounded; a store that never processes them is a 429, not a loop. */
interface Request {
  RequestItems: Record<string, { Keys: { PK: string; SK: string }[] }>;
}

/** A store that processes `processed` keys of each request (all when undefined) and leaves the rest unprocessed. */
function storeDoc(processed?: number) {
  const requests: Request['RequestItems'][string]['Keys'][] = [];
  const doc = {
    send: async (command: { input: Request }) => {
      const keys = command.input.RequestItems.t!.Keys;
      requests.push(keys);
      const done = keys.slice(0, processed ?? keys.length);
      const left = keys.slice(done.length);
      return { Responses: { t: done.map((key) => ({ ...key, found: true })) }, ...(left.length ? { UnprocessedKeys: { t: { Keys: left } } } : {}) };
    },
  } as unknown as DynamoDBDocumentClient;
  return { doc, requests };
}

const keys = (n: number) => Array.from({ length: n }, (_, i) => ({ PK: `P${i}`, SK: 'S' }));

afterEach(() => {
  vi.useRealTimers();
});

describe('batchGet', () => {
  it('asks again for what was left unprocessed until every key is read', async () => {
    vi.useFakeTimers();
    const { doc, requests } = storeDoc(1);
    const read = batchGet(doc, 't', keys(3));
    await vi.runAllTimersAsync();
    expect(await read).toHaveLength(3);
    expect(requests.map((request) => request.length)).toEqual([3, 2, 1]);
  });

  it('sends one request per MAX_BATCH_KEYS keys, repeats left out', async () => {
    const { doc, requests } = storeDoc();
    expect(await batchGet(doc, 't', [...keys(MAX_BATCH_KEYS + 1), ...keys(1)])).toHaveLength(MAX_BATCH_KEYS + 1);
    expect(requests.map((request) => request.length)).toEqual([MAX_BATCH_KEYS, 1]);
  });

  it('gives up after MAX_BATCH_GET_ATTEMPTS requests when the store processes nothing: 429, retry later', async () => {
    vi.useFakeTimers();
    const { doc, requests } = storeDoc(0);
    const read = batchGet(doc, 't', keys(2));
    const outcome = read.then(
      () => undefined,
      (err: unknown) => err,
    );
    await vi.runAllTimersAsync();
    const err = await outcome;
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(requests).toHaveLength(MAX_BATCH_GET_ATTEMPTS);
  });
});
