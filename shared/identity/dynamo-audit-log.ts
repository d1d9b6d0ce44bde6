import { createHash } from 'node:crypto';
import { PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { auditKey, AUDIT_PARTITION, reservationKey, recordFields, storedRecord } from '../platform/dynamo/keys.js';
import { transactUnlessRefused } from '../platform/dynamo/transactions.js';
import type { AuditRecord } from './audit.js';
import type { AuditLog } from './ports.js';

/**
 * The audit log on the main table: one partition, sorted by time. Staff actions come a few a
 * minute, far under a partition's 1,000 writes a second, so one partition keeps "newest first" a
 * single Query. Records are never changed or deleted by the service.
 */
export const auditPut = (tableName: string, record: AuditRecord) => ({
  Put: {
    TableName: tableName,
    Item: storedRecord(auditKey(record.at, record.audit_id), 'audit', record),
    ConditionExpression: 'attribute_not_exists(PK)',
  },
});

export class DynamoAuditLog implements AuditLog {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** One record alone: for a change made outside DynamoDB (a person added to the staff directory), which no transaction can share. */
  async write(record: AuditRecord): Promise<void> {
    await this.doc.send(new PutCommand(auditPut(this.tableName, record).Put));
  }

  /**
   * The record, with a reservation of `reservation.name` until `reservation.until` in the same
   * transaction, only if no other request has it reserved now: false (nothing written) when one
   * does. For a change outside DynamoDB that two requests must not both record (two adds of one
   * e-mail at once). The reservation is keyed by the name's hash and expires (TTL), so a failed
   * change does not block the next try.
   */
  async writeReserving(record: AuditRecord, reservation: { name: string; until: Date }): Promise<boolean> {
    const seconds = (at: Date) => Math.floor(at.getTime() / 1000);
    return transactUnlessRefused(this.doc, [
      {
        Put: {
          TableName: this.tableName,
          Item: storedRecord(reservationKey(createHash('sha256').update(reservation.name).digest('base64url')), 'reservation', {
            expires_at: seconds(reservation.until),
          }),
          ConditionExpression: 'attribute_not_exists(PK) OR expires_at < :now',
          ExpressionAttributeValues: { ':now': seconds(new Date(record.at)) },
        },
      },
      auditPut(this.tableName, record),
    ]);
  }

  async page(limit: number, after?: string): Promise<{ records: AuditRecord[]; next?: string }> {
    const { Items = [], LastEvaluatedKey } = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': AUDIT_PARTITION },
        ScanIndexForward: false,
        Limit: limit,
        ...(after ? { ExclusiveStartKey: { PK: AUDIT_PARTITION, SK: after } } : {}),
      }),
    );
    const records = Items.map((item) => recordFields<AuditRecord>(item));
    return { records, ...(LastEvaluatedKey ? { next: String(LastEvaluatedKey.SK) } : {}) };
  }
}
