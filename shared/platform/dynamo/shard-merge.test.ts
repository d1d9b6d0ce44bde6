import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LIST_SHARDS, listShard, orderListKey, policyListKey } from './keys.js';
import { compareKeys, ShardMerge, type ShardPage } from './shard-merge.js';

/**
 * The merge against shards in memory that page like a DynamoDB Query (descending, `Limit` records
 * evaluated, a filter applied after the Limit, LastEvaluatedKey = the last record evaluated, also
 * on a page that happens to end the shard), over random data, shard counts and page sizes.
 */

/** A small seeded generator (mulberry32), so a failing case can be replayed from its seed. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)) };
}

interface Row {
  sort: string;
  status: 'Issued' | 'Canceled';
}

/** Shards in memory; `read` pages each like a Query with ScanIndexForward false, below `before` (exclusive) if given. */
function memoryShards(
  rows: readonly (Row & { shard: number })[],
  shards: number,
  pageSize: (reads: number) => number,
  query: { before?: string; status?: string } = {},
) {
  const byShard = Array.from({ length: shards }, (_, shard) =>
    rows
      .filter((row) => row.shard === shard && (query.before === undefined || compareKeys(row.sort, query.before) < 0))
      .sort((a, b) => compareKeys(b.sort, a.sort)),
  );
  const reads: number[] = Array.from({ length: shards }, () => 0);
  const read = async (shard: number, start: Record<string, unknown> | undefined, readsBefore: number): Promise<ShardPage<Row>> => {
    reads[shard]! += 1;
    const rowsOfShard = byShard[shard]!;
    const from = start === undefined ? 0 : rowsOfShard.findIndex((row) => compareKeys(row.sort, String(start.sort)) < 0);
    const size = pageSize(readsBefore);
    const evaluated = from < 0 ? [] : rowsOfShard.slice(from, from + size);
    const items = evaluated.filter((row) => query.status === undefined || row.status === query.status);
    const last = evaluated[evaluated.length - 1];
    // DynamoDB answers a LastEvaluatedKey whenever the page stopped at its Limit, even if nothing follows.
    return { items, ...(last && evaluated.length === size ? { lastKey: { sort: last.sort } } : {}) };
  };
  return { read, reads };
}

const merge = (read: (shard: number, start: Record<string, unknown> | undefined, reads: number) => Promise<ShardPage<Row>>, shards: number) =>
  new ShardMerge<Row>({ shards, read, position: (row) => row.sort, keyPosition: (key) => String(key.sort) });

/** Every page of `limit` rows (a page after the first starts below the last row listed, as a cursor does), concatenated. */
async function pageThrough(rows: readonly (Row & { shard: number })[], shards: number, limit: number, pageSize: (reads: number) => number, status?: string) {
  const listed: string[] = [];
  let before: string | undefined;
  for (let pages = 0; pages < 10_000; pages++) {
    const merged = merge(memoryShards(rows, shards, pageSize, { before, status }).read, shards);
    const page: Row[] = [];
    for (let row = await merged.next(); row !== undefined; row = page.length > limit ? undefined : await merged.next()) page.push(row);
    listed.push(...page.slice(0, limit).map((row) => row.sort));
    if (page.length <= limit) return listed;
    before = page[limit - 1]!.sort;
  }
  throw new Error('no last page');
}

const stamp = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 7).toISOString();

describe('ShardMerge', () => {
  it('pages of random rows over random shards with random page sizes, concatenated, are the whole list sorted: nothing repeated, nothing lost', async () => {
    for (let seed = 1; seed <= 150; seed++) {
      const rnd = random(seed);
      const shards = rnd.int(1, 70);
      const count = rnd.int(0, 300);
      const rows = Array.from({ length: count }, (_, i) => ({
        // Equal timestamps on purpose: rows of one instant are told apart by their id, as in the index.
        sort: `${stamp(rnd.int(0, count))}#id-${i}#`,
        status: rnd.next() < 0.2 ? ('Canceled' as const) : ('Issued' as const),
        shard: rnd.int(0, shards - 1),
      }));
      const limit = rnd.int(1, 12);
      const first = rnd.int(1, 6);
      const pageSize = (reads: number) => first * 2 ** Math.min(reads, 4);
      const expected = rows.map((row) => row.sort).sort((a, b) => compareKeys(b, a));

      const listed = await pageThrough(rows, shards, limit, pageSize);

      expect(listed, `seed ${seed}`).toEqual(expected);
      expect(new Set(listed).size, `seed ${seed}`).toBe(count);
    }
  });

  it('a status filter applied after the Limit (pages that may hold none) loses no row and repeats none', async () => {
    for (let seed = 1; seed <= 100; seed++) {
      const rnd = random(1000 + seed);
      const shards = rnd.int(1, 64);
      const rows = Array.from({ length: rnd.int(0, 250) }, (_, i) => ({
        sort: `${stamp(i)}#p-${i}#`,
        status: rnd.next() < 0.05 ? ('Canceled' as const) : ('Issued' as const),
        shard: rnd.int(0, shards - 1),
      }));
      const size = rnd.int(1, 4);
      const expected = rows
        .filter((row) => row.status === 'Canceled')
        .map((row) => row.sort)
        .sort((a, b) => compareKeys(b, a));

      const listed = await pageThrough(rows, shards, rnd.int(1, 5), () => size, 'Canceled');

      expect(listed, `seed ${seed}`).toEqual(expected);
    }
  });

  it("keeps an order's records together when one shard holds an order that spans several Query pages", async () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rnd = random(5000 + seed);
      const shards = rnd.int(2, 64);
      const rows: (Row & { shard: number })[] = [];
      for (let order = 0; order < rnd.int(5, 40); order++) {
        const shard = rnd.int(0, shards - 1);
        const records = order % 7 === 3 ? rnd.int(20, 60) : rnd.int(1, 4); // some very large orders
        const created = stamp(rnd.int(0, 30));
        rows.push({ sort: `${created}#o-${order}#ORDER`, status: 'Issued', shard });
        for (let item = 1; item < records; item++) rows.push({ sort: `${created}#o-${order}#ITEM#${String(item).padStart(3, '0')}`, status: 'Issued', shard });
      }
      const merged = merge(memoryShards(rows, shards, () => rnd.int(1, 3)).read, shards);
      const order = (sort: string) => sort.slice(0, sort.indexOf('#', sort.indexOf('#') + 1));

      const listed: string[] = [];
      for (let row = await merged.next(); row !== undefined; row = await merged.next()) listed.push(row.sort);

      expect(listed).toEqual(rows.map((row) => row.sort).sort((a, b) => compareKeys(b, a)));
      const runs = listed.filter((sort, i) => i === 0 || order(sort) !== order(listed[i - 1]!)).map(order);
      expect(new Set(runs).size, 'each order in one run').toBe(runs.length);
    }
  });

  it('reads every shard once when each first page reaches below the page, and never reads an exhausted shard again', async () => {
    const rows = Array.from({ length: 640 }, (_, i) => ({ sort: `${stamp(i)}#n-${i}#`, status: 'Issued' as const, shard: i % 64 }));
    const { read, reads } = memoryShards(rows, 64, () => 4);
    const merged = merge(read, 64);

    const page: Row[] = [];
    for (let i = 0; i < 101; i++) page.push((await merged.next())!);
    const wholeShards = memoryShards(rows.slice(0, 3), 64, () => 4);
    const small = merge(wholeShards.read, 64);
    while ((await small.next()) !== undefined);

    expect(merged.queries).toBe(64);
    expect(reads.every((count) => count === 1)).toBe(true);
    expect([small.queries, wholeShards.reads.every((count) => count === 1)]).toEqual([64, true]);
  });

  it('asks a shard for more on each read of it (reads counts them), from where it stopped', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ sort: `${stamp(i)}#n-${i}#`, status: 'Issued' as const, shard: 0 }));
    const sizes: number[] = [];
    const { read } = memoryShards(rows, 1, (reads) => 2 ** reads);
    const merged = merge(async (shard, start, reads) => {
      sizes.push(2 ** reads);
      return read(shard, start, reads);
    }, 1);

    const listed: string[] = [];
    for (let row = await merged.next(); row !== undefined; row = await merged.next()) listed.push(row.sort);

    expect(listed).toHaveLength(30);
    expect(sizes).toEqual([1, 2, 4, 8, 16]);
  });
});

describe('compareKeys', () => {
  it('orders strings as DynamoDB does (UTF-8 bytes), also past U+FFFF', () => {
    const rnd = random(7);
    const alphabet = ['a', 'Z', '#', '0', 'é', '\u{e000}', '\u{ffee}', '😀', '\u{10000}', '中'];
    const text = () => Array.from({ length: rnd.int(0, 5) }, () => alphabet[rnd.int(0, alphabet.length - 1)]).join('');
    for (let i = 0; i < 2000; i++) {
      const [a, b] = [text(), text()];
      expect(Math.sign(compareKeys(a, b)), `${a} ${b}`).toBe(Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
    }
  });
});

describe('list shards', () => {
  it('spread order ids and policy numbers evenly over the 64 shards, named with two digits', () => {
    const counts = (ids: string[]) => {
      const perShard = Array.from({ length: LIST_SHARDS }, () => 0);
      for (const id of ids) perShard[listShard(id)]! += 1;
      return perShard;
    };
    const uuids = counts(Array.from({ length: 64_000 }, () => randomUUID()));
    const sequential = counts(Array.from({ length: 64_000 }, (_, i) => `OP-0000-${String(i).padStart(5, '0')}`));

    // 1,000 expected per shard; a uniform spread stays within ±15% (about 5 standard deviations).
    for (const perShard of [uuids, sequential]) expect([Math.min(...perShard) > 850, Math.max(...perShard) < 1150]).toEqual([true, true]);
    expect([orderListKey('c1', 7), policyListKey('c1', 63), listShard('same'), listShard('same')]).toEqual([
      'CLIENT#c1#ORDERS#07',
      'CLIENT#c1#POLICIES#63',
      listShard('same'),
      listShard('same'),
    ]);
  });
});
