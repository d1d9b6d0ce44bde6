import { auditPut, type AuditRecord } from '../identity/index.js';
import { GetCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { bordereauKey, recordFields, storedRecord } from '../platform/dynamo/keys.js';
import { unlessConditionFails } from '../platform/dynamo/transactions.js';
import type { BordereauExport } from './bordereau.js';
import type { ExportStore } from './ports.js';

/**
 * Exports on the main table, one record each. Its INSERT on the table's stream is what runs the
 * export (functions/bordereaux-export); its end is written once, only while it is still running.
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
              Item: storedRecord(bordereauKey(exported.export_id), 'bordereau', exported),
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
    return Item ? recordFields<BordereauExport>(Item) : undefined;
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
