import { DeleteCommand, PutCommand, ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TableNames } from './table-admin.js';
import { unlessConditionFails } from './transactions.js';
import { checkoutKey, orderListKey, orderListShard, policyListKey, policyListShard } from './keys.js';

/**
 * Issue 20 moved keys: the list indexes' partition keys gained a shard (`#<nn>`), and checkout
 * records moved from `CLIENT#<client>` / `ORDER#<hash>` to a partition each. A table written
 * before that needs this once, after the new code is deployed (and once more to catch what the
 * old code wrote meanwhile): every record keeps its data and gets its new key. Moved checkout
 * records keep no `counted_by`, so the day counts, which already counted them, do not count them
 * again. Idempotent: a second run finds nothing to do.
 */
export async function migrateToShardedKeys(doc: DynamoDBDocumentClient, tables: TableNames): Promise<{ listRecords: number; checkoutRecords: number }> {
  let listRecords = 0;
  let checkoutRecords = 0;
  for await (const record of scan(doc, tables.main, 'attribute_exists(list_key) OR attribute_exists(plist_key)')) {
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    const orderMatch = /^CLIENT#([^#]+)#ORDERS$/.exec(text(record.list_key));
    const policyMatch = /^CLIENT#([^#]+)#POLICIES$/.exec(text(record.plist_key));
    if (!orderMatch && !policyMatch) continue;
    const orderId = /#ORDER#([^#]+)$/.exec(String(record.PK))?.[1];
    const policyNumber = (record.policy as { policy_number?: string } | undefined)?.policy_number;
    const sets: string[] = [];
    const values: Record<string, string> = {};
    if (orderMatch && orderId) {
      sets.push('list_key = :list');
      values[':list'] = orderListKey(orderMatch[1]!, orderListShard(orderId));
    }
    if (policyMatch && policyNumber) {
      sets.push('plist_key = :plist');
      values[':plist'] = policyListKey(policyMatch[1]!, policyListShard(policyNumber));
    }
    if (sets.length === 0) continue;
    await doc.send(
      new UpdateCommand({
        TableName: tables.main,
        Key: { PK: record.PK, SK: record.SK },
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: values,
      }),
    );
    listRecords++;
  }
  for await (const record of scan(doc, tables.metrics, 'entity = :checkout AND begins_with(SK, :order)', { ':checkout': 'checkout', ':order': 'ORDER#' })) {
    const { PK: _pk, SK: _sk, ...fields } = record;
    const key = checkoutKey(String(record.client_id), String(record.order_hash));
    // Refused: moved by an earlier run that stopped before the delete.
    await unlessConditionFails(
      doc.send(new PutCommand({ TableName: tables.metrics, Item: { ...fields, ...key }, ConditionExpression: 'attribute_not_exists(PK)' })),
    );
    await doc.send(new DeleteCommand({ TableName: tables.metrics, Key: { PK: record.PK, SK: record.SK } }));
    checkoutRecords++;
  }
  return { listRecords, checkoutRecords };
}

async function* scan(
  doc: DynamoDBDocumentClient,
  tableName: string,
  filter: string,
  values?: Record<string, string>,
): AsyncGenerator<{ PK: string; SK: string } & Record<string, unknown>> {
  let start: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(
      new ScanCommand({ TableName: tableName, FilterExpression: filter, ExclusiveStartKey: start, ...(values ? { ExpressionAttributeValues: values } : {}) }),
    );
    yield* (page.Items ?? []) as ({ PK: string; SK: string } & Record<string, unknown>)[];
    start = page.LastEvaluatedKey;
  } while (start);
}
