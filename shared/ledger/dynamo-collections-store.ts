import { GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { auditPut, type AuditRecord } from '../identity/index.js';
import {
  clientKey,
  clientMonthsPartition,
  CLIENTS_PARTITION,
  closingKey,
  closingsPartition,
  remittanceKey,
  remittanceReferenceKey,
  remittancesPartition,
  storedRecord,
} from '../platform/dynamo/keys.js';
import { transactUnlessRefused, unlessConditionFails } from '../platform/dynamo/transactions.js';
import { MINOR_UNITS_MARK } from '../platform/money/index.js';
import type { MonthFigures, StatementClosing, StatementStanding } from './collections.js';
import type { Remittance } from './ledger.js';
import type { CollectionsStore, RecordedRemittance } from './ports.js';
import type { DynamoLedgerStore } from './dynamo-ledger-store.js';

type Row = { currency: string; opening_balance: string; closing_balance: string };

const closingOf = (item: Record<string, unknown>): StatementClosing => ({
  client_id: String(item.client_id),
  period: String(item.period),
  due_date: String(item.due_date),
  status: item.status as StatementClosing['status'],
  closed_at: String(item.closed_at),
  // Balances are kept as strings of minor units: exact past 2^53.
  rows: ((item.rows as Row[] | undefined) ?? []).map((row) => ({
    currency: row.currency,
    opening_balance: BigInt(row.opening_balance),
    closing_balance: BigInt(row.closing_balance),
  })),
});

const remittanceOf = (item: Record<string, unknown>): Remittance => ({
  client_id: String(item.client_id),
  reference: String(item.reference),
  currency: String(item.currency),
  amount: Number(item.amount),
  received_on: String(item.received_on),
  recorded_at: String(item.recorded_at),
  ...(item.reversal ? { reversal: item.reversal as NonNullable<Remittance['reversal']> } : {}),
});

/**
 * Collections on the main table: the client's months with moves (written by the ledger consumer,
 * see DynamoLedgerStore.notePeriods), its months' closes, its remittances. A remittance is written
 * with its reference's claim (`attribute_not_exists`) and its audit record in one transaction; the
 * stream turns it into its ledger entry.
 */
export class DynamoCollectionsStore implements CollectionsStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly ledger: Pick<DynamoLedgerStore, 'statement'>,
  ) {}

  async monthsWithMoves(clientId: string, after: string | undefined, through: string, limit: number): Promise<string[]> {
    if (after !== undefined && after >= through) return [];
    const { Items = [] } = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: after === undefined ? 'PK = :pk AND SK <= :through' : 'PK = :pk AND SK BETWEEN :after AND :through',
        ExpressionAttributeValues: { ':pk': clientMonthsPartition(clientId), ':through': through, ...(after === undefined ? {} : { ':after': `${after}~` }) },
        ProjectionExpression: 'SK',
        Limit: limit,
      }),
    );
    return Items.map((item) => String(item.SK));
  }

  async figures(clientId: string, period: string): Promise<MonthFigures> {
    return new Map((await this.ledger.statement(clientId, period)).map(({ currency, figures }) => [currency, figures]));
  }

  async closing(clientId: string, period: string): Promise<StatementClosing | undefined> {
    const { Item } = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: closingKey(clientId, period), ConsistentRead: true }));
    return Item ? closingOf(Item) : undefined;
  }

  async latestClosing(clientId: string, before: string): Promise<StatementClosing | undefined> {
    const { Items = [] } = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'PK = :pk AND SK < :before',
        ExpressionAttributeValues: { ':pk': closingsPartition(clientId), ':before': before },
        ScanIndexForward: false,
        Limit: 1,
        ConsistentRead: true,
      }),
    );
    return Items[0] ? closingOf(Items[0]) : undefined;
  }

  async recentClosings(clientId: string, limit: number): Promise<StatementClosing[]> {
    const { Items = [] } = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': closingsPartition(clientId) },
        ScanIndexForward: false,
        Limit: limit,
        ConsistentRead: true,
      }),
    );
    return Items.map(closingOf);
  }

  async writeClosing(closing: StatementClosing): Promise<boolean> {
    const written = await unlessConditionFails(
      this.doc.send(
        new PutCommand({
          TableName: this.tableName,
          Item: storedRecord(closingKey(closing.client_id, closing.period), 'statement_closing', {
            ...closing,
            rows: closing.rows.map((row) => ({
              currency: row.currency,
              opening_balance: String(row.opening_balance),
              closing_balance: String(row.closing_balance),
            })),
          }),
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      ),
    );
    return written !== undefined;
  }

  async moveClosing(clientId: string, period: string, from: StatementStanding, to: StatementStanding, at: string): Promise<boolean> {
    const moved = await unlessConditionFails(
      this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: closingKey(clientId, period),
          UpdateExpression: 'SET #status = :to, status_at = :at',
          ConditionExpression: '#status = :from',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':from': from, ':to': to, ':at': at },
        }),
      ),
    );
    return moved !== undefined;
  }

  async *clientIds(): AsyncIterable<string> {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'PK = :pk',
          ExpressionAttributeValues: { ':pk': CLIENTS_PARTITION },
          ProjectionExpression: 'SK',
          ExclusiveStartKey: start,
        }),
      );
      for (const item of page.Items ?? []) yield String(item.SK).slice('CLIENT#'.length);
      start = page.LastEvaluatedKey;
    } while (start);
  }

  async clientExists(clientId: string): Promise<boolean> {
    const { Item } = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: clientKey(clientId), ProjectionExpression: 'PK' }));
    return Item !== undefined;
  }

  async recordRemittance(remittance: Remittance, referenceHash: string, fingerprint: string, audit: AuditRecord): Promise<RecordedRemittance> {
    const key = remittanceKey(remittance.client_id, remittance.recorded_at, referenceHash);
    const written = await transactUnlessRefused(this.doc, [
      {
        Put: {
          TableName: this.tableName,
          Item: storedRecord(remittanceReferenceKey(remittance.client_id, referenceHash), 'remittance_reference', {
            fingerprint,
            remittance_pk: key.PK,
            remittance_sk: key.SK,
          }),
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      {
        Put: {
          TableName: this.tableName,
          Item: storedRecord(key, 'remittance', { ...remittance, ...MINOR_UNITS_MARK }),
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      auditPut(this.tableName, audit),
    ]);
    if (written) return { remittance, fingerprint, replayed: false };
    // The reference is taken: read which payment holds it (a replay, or another body).
    const { Item: claim } = await this.doc.send(
      new GetCommand({ TableName: this.tableName, Key: remittanceReferenceKey(remittance.client_id, referenceHash), ConsistentRead: true }),
    );
    if (!claim) throw new Error('remittance: the reference refused the write but is not there');
    const { Item } = await this.doc.send(
      new GetCommand({ TableName: this.tableName, Key: { PK: String(claim.remittance_pk), SK: String(claim.remittance_sk) }, ConsistentRead: true }),
    );
    if (!Item) throw new Error('remittance: the reference names a payment that is not there');
    return { remittance: remittanceOf(Item), fingerprint: String(claim.fingerprint), replayed: true };
  }

  async reverseRemittance(
    clientId: string,
    referenceHash: string,
    reversal: NonNullable<Remittance['reversal']>,
    audit: (remittance: Remittance) => AuditRecord,
  ): Promise<{ remittance: Remittance; reversedNow: boolean } | undefined> {
    const { Item: claim } = await this.doc.send(
      new GetCommand({ TableName: this.tableName, Key: remittanceReferenceKey(clientId, referenceHash), ConsistentRead: true }),
    );
    if (!claim) return undefined;
    const key = { PK: String(claim.remittance_pk), SK: String(claim.remittance_sk) };
    const { Item: payment } = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }));
    if (!payment) throw new Error('remittance: the reference names a payment that is not there');
    const read = remittanceOf(payment);
    if (read.reversal) return { remittance: read, reversedNow: false }; // reversed before: as it was, nothing written
    // The condition still decides between two reversals at once: the loser reads the winner's.
    const reversedNow = await transactUnlessRefused(this.doc, [
      {
        Update: {
          TableName: this.tableName,
          Key: key,
          UpdateExpression: 'SET reversal = :reversal',
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(reversal)',
          ExpressionAttributeValues: { ':reversal': reversal },
        },
      },
      auditPut(this.tableName, audit(read)),
    ]);
    // Written now: the payment as read with the reversal set. Refused: another reversal won; read it.
    if (reversedNow) return { remittance: remittanceOf({ ...payment, reversal }), reversedNow };
    const { Item } = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }));
    if (!Item) throw new Error('remittance: the reference names a payment that is not there');
    return { remittance: remittanceOf(Item), reversedNow };
  }

  async remittances(clientId: string, limit: number, before?: string): Promise<{ remittances: Remittance[]; next?: string }> {
    const { Items = [], LastEvaluatedKey } = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: before === undefined ? 'PK = :pk' : 'PK = :pk AND SK < :before',
        ExpressionAttributeValues: { ':pk': remittancesPartition(clientId), ...(before === undefined ? {} : { ':before': before }) },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    const last = Items.at(-1);
    return { remittances: Items.map(remittanceOf), ...(LastEvaluatedKey && last ? { next: String(last.SK) } : {}) };
  }
}
