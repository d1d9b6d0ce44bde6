/**
 * A k-way merge of write-sharded index partitions, newest first: the list indexes spread one
 * client's records over LIST_SHARDS keys (see keys.ts), each sorted on its own, and a page of the
 * client's list must read as if they were one. No DynamoDB here: a shard is read through a
 * function (in the store, one Query page with `ScanIndexForward: false`), so the merge is tested
 * with shards in memory.
 *
 * The rule that makes it exact: a shard that still has pages has not shown anything below the
 * position it reached (its LastEvaluatedKey's sort key), so no record below that position may be
 * emitted until that shard has been read further. Shards that block the next record are read
 * together, in parallel; shards that do not are not read again.
 */

/** One page of a shard: its records in descending sort order, and where it goes on from (absent when it has no more). */
export interface ShardPage<T> {
  items: readonly T[];
  lastKey?: Record<string, unknown>;
}

/**
 * Reads one page of `shard` after `start` (undefined: from its top); `reads` is how many pages of
 * this shard were read before, so that the reader may ask for more each time.
 */
export type ReadShard<T> = (shard: number, start: Record<string, unknown> | undefined, reads: number) => Promise<ShardPage<T>>;

export interface ShardMergeOptions<T> {
  shards: number;
  read: ReadShard<T>;
  /** A record's sort key: each shard returns its records in descending order of it. */
  position: (item: T) => string;
  /** The sort key in a page's `lastKey`: every record the shard has not returned yet sorts below it. */
  keyPosition: (lastKey: Record<string, unknown>) => string;
  /**
   * Ask for a shard's next page as soon as one arrives, so that reading overlaps the caller's work
   * (an export reads every page anyway; a list page, which stops early, does not want it).
   */
  prefetch?: boolean;
}

/**
 * Orders strings as DynamoDB orders string keys: by UTF-8 bytes, that is by code point. JavaScript's
 * `<` compares UTF-16 code units, which disagrees for characters above U+FFFF (surrogates,
 * 0xD800-0xDFFF) against those in U+E000-U+FFFF; shifting both ranges mends it without allocating.
 */
export function compareKeys(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800) x += x < 0xe000 ? 0x2000 : -0x800;
    if (y >= 0xd800) y += y < 0xe000 ? 0x2000 : -0x800;
    return x - y;
  }
  return a.length - b.length;
}

interface Shard<T> {
  index: number;
  buffer: readonly T[];
  /** The next unread record of `buffer`. */
  next: number;
  reads: number;
  lastKey?: Record<string, unknown>;
  /** The lowest position read, while the shard has more: every unread record sorts below it. */
  reached?: string;
  /** Its next page, already asked for (`prefetch`). */
  coming?: Promise<ShardPage<T>>;
}

/** The records of all shards, one at a time, in descending order of position (the shards read lazily). */
export class ShardMerge<T> {
  private readonly shards: Shard<T>[];
  /** Shard pages read so far (each one Query in the store). */
  queries = 0;

  constructor(private readonly options: ShardMergeOptions<T>) {
    this.shards = Array.from({ length: options.shards }, (_, index) => ({ index, buffer: [], next: 0, reads: 0 }));
  }

  /** The next record without taking it; undefined when every shard is exhausted. */
  async peek(): Promise<T | undefined> {
    const shard = await this.headShard();
    return shard?.buffer[shard.next];
  }

  /** The next record, taken; undefined when every shard is exhausted. */
  async next(): Promise<T | undefined> {
    const shard = await this.headShard();
    return shard?.buffer[shard.next++];
  }

  /** The shard whose next record is the next of all, reading the shards that block it first. */
  private async headShard(): Promise<Shard<T> | undefined> {
    const { position } = this.options;
    for (;;) {
      let best: Shard<T> | undefined;
      let bestPosition = '';
      for (const shard of this.shards) {
        if (shard.next >= shard.buffer.length) continue;
        const head = position(shard.buffer[shard.next]!);
        if (!best || compareKeys(head, bestPosition) > 0) {
          best = shard;
          bestPosition = head;
        }
      }
      // A shard with no record in hand but more to read blocks the candidate if it may hold a record above it.
      // (A loop, not a filter: this runs once per record taken, and an export takes millions.)
      let blocking: Shard<T>[] | undefined;
      for (const shard of this.shards) {
        if (
          shard.next >= shard.buffer.length &&
          (shard.reads === 0 || shard.lastKey !== undefined) &&
          (!best || shard.reached === undefined || compareKeys(shard.reached, bestPosition) > 0)
        )
          (blocking ??= []).push(shard);
      }
      if (blocking === undefined) return best;
      await Promise.all(blocking.map((shard) => this.readOn(shard)));
    }
  }

  private async readOn(shard: Shard<T>): Promise<void> {
    const page = await (shard.coming ?? this.options.read(shard.index, shard.lastKey, shard.reads));
    shard.coming = undefined;
    this.queries += 1;
    shard.reads += 1;
    shard.buffer = page.items;
    shard.next = 0;
    shard.lastKey = page.lastKey;
    shard.reached = page.lastKey === undefined ? undefined : this.options.keyPosition(page.lastKey);
    if (this.options.prefetch && page.lastKey !== undefined) {
      shard.coming = this.options.read(shard.index, page.lastKey, shard.reads);
      shard.coming.catch(() => undefined); // a failure surfaces when the page is taken
    }
  }
}
