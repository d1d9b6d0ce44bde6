import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { LIST_SHARDS } from './keys.js';
import { ShardMerge } from './shard-merge.js';

/** A record of a list index, as a Query returns it. */
export type ListRecord = Record<string, unknown>;

/**
 * The key condition on a list index's sort key for [createdGte, min(createdLt, after)), or
 * undefined for an empty range. A cursor position sorts just above the records of the last item
 * listed, and a time bound above none, so the upper bound is exclusive whichever it is.
 */
export function sortRange(attribute: string, query: { createdGte?: string; createdLt?: string; after?: string }) {
  const upper = [query.createdLt, query.after].filter((bound): bound is string => bound !== undefined).sort()[0];
  const lo = query.createdGte;
  if (lo !== undefined && upper !== undefined && lo >= upper) return undefined;
  if (lo !== undefined && upper !== undefined) return { condition: ` AND ${attribute} BETWEEN :lo AND :hi`, values: { ':lo': lo, ':hi': upper } };
  if (lo !== undefined) return { condition: ` AND ${attribute} >= :lo`, values: { ':lo': lo } };
  if (upper !== undefined) return { condition: ` AND ${attribute} < :hi`, values: { ':hi': upper } };
  return { condition: '', values: {} };
}

/**
 * A shard's Query Limit: about three times the shard's share of the `need` records a page wants
 * from all shards together (at least `floor`, at most `need`), so that most shards are read once;
 * doubled each time the merge must read the shard on, up to `need` (what one unsharded Query asked for).
 */
export function shardLimit(need: number, floor: number, reads: number): number {
  const first = Math.min(need, Math.max(floor, Math.ceil((need * 3) / LIST_SHARDS)));
  return Math.min(first * 2 ** reads, need);
}

/** The next `count` records of a merged list (fewer at its end): a page and one more, to tell whether more follow. */
export async function takeRecords(records: ShardMerge<ListRecord>, count: number): Promise<ListRecord[]> {
  const taken: ListRecord[] = [];
  while (taken.length < count) {
    const record = await records.next();
    if (record === undefined) break;
    taken.push(record);
  }
  return taken;
}

/**
 * Every shard of a list index as one stream, newest first: per shard, a Query page of the same
 * key condition on the sort key (and the same filter, if any), read lazily by the merge.
 */
export function shardedList(
  doc: DynamoDBDocumentClient,
  list: {
    tableName: string;
    /** The index the list lives in; none when the list is the table's own keys (the ledger). */
    indexName?: string;
    keyAttribute: string;
    sortAttribute: string;
    key: (shard: number) => string;
    range: NonNullable<ReturnType<typeof sortRange>>;
    filter?: { expression: string; names: Record<string, string>; values: Record<string, unknown> };
    limit: (reads: number) => number;
    /** Read each shard's next page ahead (an export, which reads them all). */
    prefetch?: boolean;
  },
): ShardMerge<ListRecord> {
  const { filter, sortAttribute } = list;
  return new ShardMerge<ListRecord>({
    shards: LIST_SHARDS,
    read: async (shard, start, reads) => {
      const answer = await doc.send(
        new QueryCommand({
          TableName: list.tableName,
          ...(list.indexName ? { IndexName: list.indexName } : {}),
          KeyConditionExpression: `${list.keyAttribute} = :key${list.range.condition}`,
          ...(filter ? { FilterExpression: filter.expression } : {}),
          ...(filter && Object.keys(filter.names).length ? { ExpressionAttributeNames: filter.names } : {}),
          ExpressionAttributeValues: { ':key': list.key(shard), ...list.range.values, ...filter?.values },
          ScanIndexForward: false,
          Limit: list.limit(reads),
          ExclusiveStartKey: start,
        }),
      );
      return { items: answer.Items ?? [], lastKey: answer.LastEvaluatedKey };
    },
    position: (record) => String(record[sortAttribute]),
    keyPosition: (lastKey) => String(lastKey[sortAttribute]),
    ...(list.prefetch ? { prefetch: true } : {}),
  });
}
