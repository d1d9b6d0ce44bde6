import { BatchWriteCommand, QueryCommand, type BatchWriteCommandInput, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_SHARDS, ledgerKey, listShard, storedRecord } from '../platform/dynamo/keys.js';
import { freshTables } from '../../test/support/dynamo.js';
import { DynamoLedgerStore, FILTERED_SHARD_READ } from './dynamo-ledger-store.js';
import type { EntryType, LedgerEntry } from './ledger.js';

/**
 * GET /ledger's `type` filter on a busy month: a page reads each of the month's shards once, a
 * bounded number of entries each, however rare the type, and answers a cursor where its reading
 * stopped; following the cursors gives exactly the month's entries of that type, newest first.
 * Reads are counted through the store's DynamoDB client (Queries and the entries they read).
 */
let tables: Awaited<ReturnType<typeof freshTables>>;
beforeAll(async () => {
  tables = await freshTables();
});
afterAll(() => tables.cleanup());

/** The store over a client that counts its Queries and the items they read (before the filter). */
function countingStore() {
  const reads = { queries: 0, items: 0 };
  const doc = tables.doc;
  const counting = {
    send: async (command: Parameters<DynamoDBDocumentClient['send']>[0]) => {
      const answer = (await doc.send(command as never)) as { ScannedCount?: number };
      if (command instanceof QueryCommand) {
        reads.queries += 1;
        reads.items += answer.ScannedCount ?? 0;
      }
      return answer;
    },
  } as unknown as DynamoDBDocumentClient;
  return { store: new DynamoLedgerStore(counting, tables.main), reads };
}

const CLIENT = 'cl_busy_month';
const PERIOD = '2026-10';
/**
 * The busy month sits in SHARDS_USED of the LIST_SHARDS shards (its entries' ids picked by their
 * shard), three FILTERED_SHARD_READs in each: every shard a page reads has more than one read's
 * worth, as every shard of a month of LIST_SHARDS × 3 × FILTERED_SHARD_READ entries would, at a
 * sixteenth of the writes.
 */
const SHARDS_USED = 4;
const ENTRIES = SHARDS_USED * 3 * FILTERED_SHARD_READ;
const IDS: string[] = [];
for (let n = 0; IDS.length < ENTRIES && n < ENTRIES * LIST_SHARDS * 4; n++) {
  const id = `le_busy${String(n).padStart(6, '0')}`;
  if (listShard(id) < SHARDS_USED) IDS.push(id);
}
/** Entry i, newest first as i grows older: every 13th a refund, the oldest one a claim's payout (the rare type). */
function entryAt(index: number): LedgerEntry {
  const created = new Date(Date.parse('2026-10-31T23:00:00.000Z') - index * 600_000).toISOString();
  const type: EntryType = index === ENTRIES - 1 ? 'claim_paid' : index % 13 === 5 ? 'premium_refunded' : 'premium_written';
  return {
    id: IDS[index]!,
    type,
    client_id: CLIENT,
    created,
    period: PERIOD,
    currency: 'USD',
    amount: type === 'premium_refunded' ? -850 : 850,
    service_order_id: `order-${index}`,
  };
}

async function writeMonth() {
  const entries = Array.from({ length: ENTRIES }, (_, index) => entryAt(index));
  for (let start = 0; start < entries.length; start += 25 * 8) {
    await Promise.all(
      Array.from({ length: 8 }, async (_, batch) => {
        let requests: NonNullable<BatchWriteCommandInput['RequestItems']>[string] | undefined = entries
          .slice(start + batch * 25, start + (batch + 1) * 25)
          .map((entry) => ({
            PutRequest: { Item: storedRecord(ledgerKey(CLIENT, PERIOD, entry.id, entry.created), 'ledger_entry', { ...entry, minor_units: true }) },
          }));
        while (requests?.length) {
          const answer: { UnprocessedItems?: BatchWriteCommandInput['RequestItems'] } = await tables.doc.send(
            new BatchWriteCommand({ RequestItems: { [tables.main]: requests } }),
          );
          requests = answer.UnprocessedItems?.[tables.main];
        }
      }),
    );
  }
  return entries;
}

describe('the ledger list filtered by type', () => {
  let month: LedgerEntry[];
  beforeAll(async () => {
    month = await writeMonth();
    expect(new Set(month.map((entry) => listShard(entry.id))).size).toBe(SHARDS_USED);
  }, 120_000);

  /** Every page of one type, each page's reads counted on its own. */
  async function walk(type: EntryType, limit: number) {
    const pages: { ids: string[]; queries: number; items: number }[] = [];
    let after: string | undefined;
    for (let page = 0; page < 50; page++) {
      const { store, reads } = countingStore();
      const answer = await store.list(CLIENT, { period: PERIOD, type, limit, ...(after ? { after } : {}) });
      expect(answer.entries.length).toBeLessThanOrEqual(limit);
      pages.push({ ids: answer.entries.map((entry) => entry.id), ...reads });
      after = answer.next;
      if (after === undefined) return pages;
    }
    throw new Error('the walk did not end in 50 pages');
  }

  it('a page of a rare type reads each shard once, at most FILTERED_SHARD_READ entries each, and answers a cursor to go on', async () => {
    const pages = await walk('claim_paid', 20);
    for (const page of pages) {
      expect(page.queries).toBeLessThanOrEqual(LIST_SHARDS);
      expect(page.items).toBeLessThanOrEqual(SHARDS_USED * FILTERED_SHARD_READ); // the month is in SHARDS_USED shards
    }
    expect(pages.flatMap((page) => page.ids)).toEqual([month.at(-1)!.id]);
    expect(pages[0]!.ids).toEqual([]); // the first page stopped well before the month's oldest entry
    // Each entry read about once over the walk (a shard that read past where the page stopped reads those again).
    expect(pages.reduce((sum, page) => sum + page.items, 0)).toBeLessThan(2 * ENTRIES);
  }, 120_000);

  it('the pages of a type are exactly the month’s entries of that type, newest first, each once', async () => {
    const refunds = month.filter((entry) => entry.type === 'premium_refunded').map((entry) => entry.id);
    expect((await walk('premium_refunded', 100)).flatMap((page) => page.ids)).toEqual(refunds);
    // A common type fills its page, and goes on where it ended.
    const { store } = countingStore();
    const written = month.filter((entry) => entry.type === 'premium_written').map((entry) => entry.id);
    const first = await store.list(CLIENT, { period: PERIOD, type: 'premium_written', limit: 100 });
    expect(first.entries.map((entry) => entry.id)).toEqual(written.slice(0, 100));
    const second = await store.list(CLIENT, { period: PERIOD, type: 'premium_written', limit: 100, after: first.next! });
    expect(second.entries.map((entry) => entry.id)).toEqual(written.slice(100, 200));
  }, 120_000);
});
