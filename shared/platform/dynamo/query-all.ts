import { QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';

/**
 * The most Query pages (each at most 1 MB read) queryAll follows unless its caller names a tighter
 * bound from what the partition can hold: past it the read fails rather than run on.
 */
export const MAX_QUERY_PAGES = 1000;

/** Every record a Query matches, following pages (one round trip unless the result passes 1 MB), at most `maxPages` of them. */
export async function queryAll(
  doc: DynamoDBDocumentClient,
  input: Omit<QueryCommandInput, 'ExclusiveStartKey'>,
  maxPages = MAX_QUERY_PAGES,
): Promise<Record<string, unknown>[]> {
  const records: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  for (let pages = 0; pages === 0 || startKey; pages++) {
    if (pages === maxPages) throw new Error(`queryAll: the Query had more after ${maxPages} pages (${records.length} records), past its bound`);
    const page = await doc.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
    records.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  }
  return records;
}
