import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { MAX_QUERY_PAGES, queryAll } from './query-all.js';

/** Issue 36.4: following a Query's pages is bounded; a partition that keeps answering "more" fails the read instead of looping on. */
function pagedDoc(pages: number) {
  let sent = 0;
  const doc = {
    send: async () => {
      sent += 1;
      return { Items: [{ n: sent }], ...(sent < pages ? { LastEvaluatedKey: { n: sent } } : {}) };
    },
  } as unknown as DynamoDBDocumentClient;
  return { doc, sent: () => sent };
}

describe('queryAll', () => {
  it('follows every page up to its bound', async () => {
    const { doc, sent } = pagedDoc(5);
    expect(await queryAll(doc, { TableName: 't' }, 5)).toHaveLength(5);
    expect(sent()).toBe(5);
  });

  it('fails past its bound, after sending exactly that many Queries', async () => {
    const { doc, sent } = pagedDoc(50);
    await expect(queryAll(doc, { TableName: 't' }, 3)).rejects.toThrow(/more after 3 pages/);
    expect(sent()).toBe(3);
  });

  it('has a default bound', async () => {
    const { doc, sent } = pagedDoc(MAX_QUERY_PAGES + 1);
    await expect(queryAll(doc, { TableName: 't' })).rejects.toThrow(`more after ${MAX_QUERY_PAGES} pages`);
    expect(sent()).toBe(MAX_QUERY_PAGES);
  });
});
