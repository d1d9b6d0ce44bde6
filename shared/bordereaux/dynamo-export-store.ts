import { auditPut, type AuditRecord } from '../identity/index.js';
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { BORDEREAU_LIST_KEY, bordereauKey, bordereauListSort, recordFields, storedRecord } from '../platform/dynamo/keys.js';
import { BORDEREAU_LIST_INDEX } from '../platform/dynamo/table-definitions.js';
import { unlessConditionFails } from '../platform/dynamo/transactions.js';
import type { BordereauExport } from './bordereau.js';
import type { ExportStore } from './ports.js';

/** The attributes that place an export in the bordereaux' index (the past exports, newest first). */
const LIST_FIELDS = ['blist_key', 'blist_sort'];
const exportOf = (record: Record<string, unknown>) => recordFields<BordereauExport>(record, LIST_FIELDS);
/** An export's index key (the migration gives exports written before the index theirs: scripts/migrations.ts). */
export const exportListFields = (exported: Pick<BordereauExport, 'created' | 'export_id'>) => ({
  blist_key: BORDEREAU_LIST_KEY,
  blist_sort: bordereauListSort(exported.created, exported.export_id),
});

/**
 * Exports on the main table, one record each, carrying their place in the bordereaux' index. Its
 * INSERT on the table's stream is what runs the export (functions/bordereaux-export); its end is
 * written once, only while it is still running.
 */
export class DynamoExportStore implements ExportStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async create(exported: BordereauExport, audit: AuditRecord): Promise<void> {
    await this.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: this.tableName,
              Item: { ...storedRecord(bordereauKey(exported.export_id), 'bordereau', exported), ...exportListFields(exported) },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          auditPut(this.tableName, audit),
        ],
      }),
    );
  }

  async get(exportId: string): Promise<BordereauExport | undefined> {
    const { Item } = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: bordereauKey(exportId), ConsistentRead: true }));
    return Item ? exportOf(Item) : undefined;
  }

  async list(query: { after?: string; limit: number }): Promise<{ exports: BordereauExport[]; next?: string }> {
    const { Items = [] } = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: BORDEREAU_LIST_INDEX,
        KeyConditionExpression: query.after === undefined ? 'blist_key = :key' : 'blist_key = :key AND blist_sort < :after',
        ExpressionAttributeValues: { ':key': BORDEREAU_LIST_KEY, ...(query.after === undefined ? {} : { ':after': query.after }) },
        ScanIndexForward: false,
        Limit: query.limit + 1,
      }),
    );
    const exports = Items.slice(0, query.limit).map(exportOf);
    const last = exports[exports.length - 1];
    return { exports, ...(Items.length > query.limit && last ? { next: bordereauListSort(last.created, last.export_id) } : {}) };
  }

  async finish(
    exportId: string,
    outcome: Pick<BordereauExport, 'status' | 'finished' | 'rows' | 'object_key' | 'failure' | 'period_status'>,
  ): Promise<boolean> {
    const fields = Object.entries(outcome).filter(([, value]) => value !== undefined);
    const written = await unlessConditionFails(
      this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: bordereauKey(exportId),
          UpdateExpression: `SET ${fields.map((_, index) => `#f${index} = :f${index}`).join(', ')}`,
          ConditionExpression: '#status = :running',
          ExpressionAttributeNames: { ...Object.fromEntries(fields.map(([name], index) => [`#f${index}`, name])), '#status': 'status' },
          ExpressionAttributeValues: { ...Object.fromEntries(fields.map(([, value], index) => [`:f${index}`, value])), ':running': 'running' },
        }),
      ),
    );
    return written !== undefined;
  }
}
