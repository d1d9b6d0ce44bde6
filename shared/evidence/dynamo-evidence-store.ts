import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  claimFileKey,
  claimFilesCountKey,
  claimFilesPartition,
  evidenceEraseKey,
  evidenceErasePartition,
  recordFields,
  storedRecord,
} from '../platform/dynamo/keys.js';
import { transactUnlessRefused, unlessConditionFails } from '../platform/dynamo/transactions.js';
import { MAX_FILE_RECORDS, MAX_FILES_PER_CLAIM, type EvidenceFile } from './evidence.js';
import type { EvidenceStore } from './ports.js';

const fileOf = (item: Record<string, unknown>): EvidenceFile => recordFields<EvidenceFile>(item);

/**
 * The files' records on the main table: `CLAIM#<claim_id>#FILES` holds one record per file and the
 * claim's COUNT (`counted`: files holding a place; `records`: all ever added). Adding a file and
 * moving one that takes or gives back a place are one transaction with the count, so concurrent
 * uploads never hold more than MAX_FILES_PER_CLAIM places.
 */
export class DynamoEvidenceStore implements EvidenceStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async add(file: EvidenceFile): Promise<'added' | 'places_full' | 'records_full'> {
    const added = await transactUnlessRefused(
      this.doc,
      [
        {
          Update: {
            TableName: this.tableName,
            Key: claimFilesCountKey(file.claim_id),
            UpdateExpression: 'SET entity = :entity ADD counted :one, records :one',
            ConditionExpression: '(attribute_not_exists(counted) OR counted < :places) AND (attribute_not_exists(records) OR records < :records)',
            ExpressionAttributeValues: { ':entity': 'evidence_count', ':one': 1, ':places': MAX_FILES_PER_CLAIM, ':records': MAX_FILE_RECORDS },
          },
        },
        {
          Put: {
            TableName: this.tableName,
            Item: storedRecord(claimFileKey(file.claim_id, file.file_id), 'evidence_file', file),
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
      ],
      (codes) => codes[0] === 'ConditionalCheckFailed',
    );
    if (added) return 'added';
    // Refused: which limit (a read on this path only). The count never goes down, so a full record count stays full.
    const { Item } = await this.doc.send(
      new GetCommand({ TableName: this.tableName, Key: claimFilesCountKey(file.claim_id), ProjectionExpression: 'records', ConsistentRead: true }),
    );
    return Number(Item?.records ?? 0) >= MAX_FILE_RECORDS ? 'records_full' : 'places_full';
  }

  async get(claimId: string, fileId: string): Promise<EvidenceFile | undefined> {
    const { Item } = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: claimFileKey(claimId, fileId), ConsistentRead: true }));
    return Item && fileOf(Item);
  }

  async list(claimId: string): Promise<EvidenceFile[]> {
    const { Items = [] } = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :file)',
        ExpressionAttributeValues: { ':pk': claimFilesPartition(claimId), ':file': 'FILE#' },
        ConsistentRead: true,
        Limit: MAX_FILE_RECORDS,
      }),
    );
    return Items.map(fileOf).sort((a, b) => a.created.localeCompare(b.created) || a.file_id.localeCompare(b.file_id));
  }

  async move(before: EvidenceFile, after: EvidenceFile): Promise<'moved' | 'stale' | 'full'> {
    const places = Number(after.counted) - Number(before.counted);
    const count =
      places === 0
        ? []
        : [
            {
              Update: {
                TableName: this.tableName,
                Key: claimFilesCountKey(before.claim_id),
                UpdateExpression: 'ADD counted :change',
                ...(places > 0 ? { ConditionExpression: 'counted < :places' } : {}),
                ExpressionAttributeValues: { ':change': places, ...(places > 0 ? { ':places': MAX_FILES_PER_CLAIM } : {}) },
              },
            },
          ];
    let refusedBy: 'file' | 'count' | undefined;
    const moved = await transactUnlessRefused(
      this.doc,
      [
        {
          Put: {
            TableName: this.tableName,
            Item: storedRecord(claimFileKey(after.claim_id, after.file_id), 'evidence_file', after),
            ConditionExpression: '#updated = :updated AND landings = :landings AND #status = :status',
            ExpressionAttributeNames: { '#updated': 'updated', '#status': 'status' },
            ExpressionAttributeValues: { ':updated': before.updated, ':landings': before.landings, ':status': before.status },
          },
        },
        ...count,
      ],
      (codes) => {
        refusedBy = codes[0] === 'ConditionalCheckFailed' ? 'file' : codes[1] === 'ConditionalCheckFailed' ? 'count' : undefined;
        return refusedBy !== undefined;
      },
    );
    return moved ? 'moved' : refusedBy === 'count' ? 'full' : 'stale';
  }

  async hasFiles(claimId: string): Promise<boolean> {
    const { Item } = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: claimFilesCountKey(claimId), ProjectionExpression: 'PK' }));
    return Item !== undefined;
  }

  async markForErasure(claimId: string, eraseAt: string): Promise<void> {
    await unlessConditionFails(
      this.doc.send(
        new PutCommand({
          TableName: this.tableName,
          Item: storedRecord(evidenceEraseKey(eraseAt.slice(0, 10), claimId), 'evidence_erasure', { claim_id: claimId, erase_at: eraseAt }),
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      ),
    );
  }

  async dueForErasure(day: string, limit: number): Promise<{ claimId: string; eraseAt: string }[]> {
    const { Items = [] } = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': evidenceErasePartition(day) },
        Limit: limit,
      }),
    );
    return Items.map((item) => ({ claimId: String(item.claim_id), eraseAt: String(item.erase_at) }));
  }

  async eraseRecords(claimId: string, fileIds: readonly string[], day: string): Promise<void> {
    // At most MAX_FILE_RECORDS + 2 deletes: one transaction (the limit is 100 actions).
    await this.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          ...fileIds.map((fileId) => ({ Delete: { TableName: this.tableName, Key: claimFileKey(claimId, fileId) } })),
          { Delete: { TableName: this.tableName, Key: claimFilesCountKey(claimId) } },
          { Delete: { TableName: this.tableName, Key: evidenceEraseKey(day, claimId) } },
        ],
      }),
    );
  }
}
