import { GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { FIGURES, figuresAfter, figuresOf, type ClaimActivity, type LedgerEntry, type StatementBatch, type StatementTotals } from './ledger.js';
import type { LedgerExportSource, LedgerPage, LedgerStore } from './ports.js';
import {
  claimActivityKey,
  clientMonthKey,
  claimActivityPartition,
  LIST_SHARDS,
  ledgerEntryIdKey,
  ledgerKey,
  ledgerPartition,
  periodClientKey,
  periodClientsPartition,
  recordFields,
  statementKey,
  statementPartition,
  storedRecord,
  type Key,
} from '../platform/dynamo/keys.js';
import { transactUnlessRefused, unlessConditionFails } from '../platform/dynamo/transactions.js';
import { shardedList, shardLimit, sortRange, takeRecords } from '../platform/dynamo/sharded-list.js';
import { compareKeys } from '../platform/dynamo/shard-merge.js';
import { MINOR_UNITS_MARK } from '../platform/money/index.js';

/** Entries written at once; each is two conditional Puts of its own (a BatchWriteItem cannot refuse an existing item). */
const WRITE_CONCURRENCY = 16;
/**
 * Entries a page filtered by type reads from each shard, once: a page reads at most 64 × this many
 * (3,200), however rare the type, and answers a cursor where its reading stopped. A Query's answer
 * stays far below DynamoDB's 1 MB (an entry is well under 1 KB).
 */
export const FILTERED_SHARD_READ = 50;
/** Entries an export reads from a shard at a time: 64 pages of this many stay a few MB. */
const EXPORT_SHARD_PAGE = 100;

/** An entry's id record: its id is taken, by the entry at `key` (and by an opening balance, when `opening`). */
const idRecord = (entry: LedgerEntry, key: Key, opening: boolean) =>
  storedRecord(ledgerEntryIdKey(entry.client_id, entry.id), 'ledger_entry_id', { entry_pk: key.PK, entry_sk: key.SK, ...(opening ? { opening: true } : {}) });

/**
 * The ledger on the main table: an entry is a record of its client's month (sharded, newest first
 * in a shard), written after its id record (`attribute_not_exists`), so that its id alone decides
 * whether it exists, whatever month and time a writer derives for it, and a change given again
 * writes nothing; a statement is one record per (client, month, currency), kept from the entries
 * by the day counts' technique: per stream shard the position of the last change it counted
 * (`counted_<shard>`), and an update adds only changes after it, so a batch delivered again, whole
 * or in part, adds nothing.
 */
export class DynamoLedgerStore implements LedgerStore, LedgerExportSource {
  /** The (client, month) marks this container has written: each is written once per container, not per batch. */
  private readonly notedPeriods = new Set<string>();

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async notePeriods(moves: readonly { client_id: string; period: string }[]): Promise<void> {
    const fresh = [...new Set(moves.map((move) => `${move.period}|${move.client_id}`))].filter((mark) => !this.notedPeriods.has(mark));
    await Promise.all(
      fresh.map(async (mark) => {
        const [period, clientId] = mark.split('|') as [string, string];
        // The month among its clients (the bordereaux), and among the client's months (its balance walks them).
        await Promise.all([
          this.doc.send(
            new PutCommand({
              TableName: this.tableName,
              Item: storedRecord(periodClientKey(period, clientId), 'ledger_client', { client_id: clientId, period }),
            }),
          ),
          this.doc.send(new PutCommand({ TableName: this.tableName, Item: storedRecord(clientMonthKey(clientId, period), 'client_month', { period }) })),
        ]);
        this.notedPeriods.add(mark);
      }),
    );
  }

  async noteClaimActivity(activity: readonly ClaimActivity[]): Promise<void> {
    await Promise.all(
      activity.map((move) =>
        this.doc.send(
          new PutCommand({
            TableName: this.tableName,
            Item: storedRecord(claimActivityKey(move.client_id, move.period, move.claim_id), 'claim_activity', {
              claim_id: move.claim_id,
              period: move.period,
            }),
          }),
        ),
      ),
    );
  }

  async *clientsOf(period: string): AsyncIterable<string> {
    for await (const record of this.partition(periodClientsPartition(period), 'client_id')) yield String(record.client_id);
  }

  async *claimsActiveIn(clientId: string, period: string): AsyncIterable<string> {
    for await (const record of this.partition(claimActivityPartition(clientId, period), 'claim_id')) yield String(record.claim_id);
  }

  /**
   * The month's 64 shards merged newest first (as GET /ledger lists them), a few hundred entries a
   * shard at a time: memory holds at most a page per shard, whatever the month's size.
   */
  async *entriesOf(clientId: string, period: string, typePrefix: string): AsyncIterable<LedgerEntry> {
    const records = shardedList(this.doc, {
      tableName: this.tableName,
      keyAttribute: 'PK',
      sortAttribute: 'SK',
      key: (shard) => ledgerPartition(clientId, period, shard),
      range: { condition: '', values: {} },
      filter: { expression: 'begins_with(#type, :type)', names: { '#type': 'type' }, values: { ':type': typePrefix } },
      limit: () => EXPORT_SHARD_PAGE,
      prefetch: true,
    });
    for (let record = await records.next(); record !== undefined; record = await records.next()) {
      yield recordFields<LedgerEntry>(record, ['minor_units', 'opening']);
    }
  }

  /** Every record of one partition, a page at a time, only the attribute asked for. */
  private async *partition(partitionKey: string, attribute: string): AsyncIterable<Record<string, unknown>> {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'PK = :pk',
          ExpressionAttributeValues: { ':pk': partitionKey },
          ProjectionExpression: '#a',
          ExpressionAttributeNames: { '#a': attribute },
          ExclusiveStartKey: start,
        }),
      );
      yield* page.Items ?? [];
      start = page.LastEvaluatedKey;
    } while (start);
  }

  /**
   * Each entry once, by its id alone: first its id record (`attribute_not_exists`), then the entry
   * under its month's key. An id record already there is read: written by an opening balance (which
   * counted the entry in its statement then, whatever month and time it booked it at), or by this
   * consumer before (the stream gave the change again, or a write stopped between the two Puts: the
   * entry is written now, conditionally, at the key its id record names). An entry found already
   * written is read for the opening mark too (an opening balance written before the id records).
   */
  async record(entries: readonly LedgerEntry[]): Promise<Set<string>> {
    const opened = new Set<string>();
    for (let start = 0; start < entries.length; start += WRITE_CONCURRENCY) {
      await Promise.all(
        entries.slice(start, start + WRITE_CONCURRENCY).map(async (entry) => {
          const key = ledgerKey(entry.client_id, entry.period, entry.id, entry.created);
          const held = await this.takeId(entry, key, false);
          if (held) {
            if (held.opening === true) return void opened.add(entry.id);
            if (held.entry_pk !== key.PK || held.entry_sk !== key.SK) return; // written under another key: never twice
          }
          const written = await unlessConditionFails(
            this.doc.send(
              new PutCommand({
                TableName: this.tableName,
                Item: storedRecord(key, 'ledger_entry', { ...entry, ...MINOR_UNITS_MARK }),
                ConditionExpression: 'attribute_not_exists(PK)',
              }),
            ),
          );
          if (written) return;
          // There already: an opening balance from before the id records may have written it (rare: read which).
          const { Item } = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: key, ProjectionExpression: 'opening', ConsistentRead: true }));
          if (Item?.opening === true) opened.add(entry.id);
        }),
      );
    }
    return opened;
  }

  async open(entry: LedgerEntry): Promise<boolean> {
    const figures = figuresOf(entry);
    const key = ledgerKey(entry.client_id, entry.period, entry.id, entry.created);
    const values: Record<string, unknown> = { ':entity': 'statement', ':period': entry.period, ':currency': entry.currency, ':mark': true };
    FIGURES.forEach((name, index) => (values[`:f${index}`] = figures[name]));
    return transactUnlessRefused(
      this.doc,
      [
        {
          Put: {
            TableName: this.tableName,
            Item: idRecord(entry, key, true),
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        {
          Put: {
            TableName: this.tableName,
            Item: storedRecord(key, 'ledger_entry', { ...entry, opening: true, ...MINOR_UNITS_MARK }),
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        {
          Update: {
            TableName: this.tableName,
            Key: statementKey(entry.client_id, entry.period, entry.currency, entry.created.slice(0, 10)),
            UpdateExpression: `SET entity = :entity, #period = :period, #currency = :currency, minor_units = :mark ADD ${FIGURES.map((name, index) => `${name} :f${index}`).join(', ')}`,
            ExpressionAttributeNames: { '#period': 'period', '#currency': 'currency' },
            ExpressionAttributeValues: values,
          },
        },
      ],
      // The id is taken (the entry exists, under this key or another), or an entry from before the id records is there.
      (codes) => codes[0] === 'ConditionalCheckFailed' || codes[1] === 'ConditionalCheckFailed',
    );
  }

  /**
   * Gives an entry written before the id records its own (npm run migrate, before any opening
   * balance): 'written', 'had' (it has one), or 'duplicate' when its id already names another key
   * (an entry booked twice before; left for the operator to see, reconcile names it).
   */
  async adopt(entry: LedgerEntry & { opening?: boolean }): Promise<'written' | 'had' | 'duplicate'> {
    const key = ledgerKey(entry.client_id, entry.period, entry.id, entry.created);
    const held = await this.takeId(entry, key, entry.opening === true);
    if (!held) return 'written';
    return held.entry_pk === key.PK && held.entry_sk === key.SK ? 'had' : 'duplicate';
  }

  /** Takes an entry's id for the entry at `key` (its id record, written once): undefined when taken now, else the id record that holds it. */
  private async takeId(entry: LedgerEntry, key: Key, opening: boolean): Promise<Record<string, unknown> | undefined> {
    const taken = await unlessConditionFails(
      this.doc.send(new PutCommand({ TableName: this.tableName, Item: idRecord(entry, key, opening), ConditionExpression: 'attribute_not_exists(PK)' })),
    );
    if (taken) return undefined;
    const { Item } = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: ledgerEntryIdKey(entry.client_id, entry.id), ConsistentRead: true }));
    return Item ?? {};
  }

  async addToStatement(source: string, batch: StatementBatch): Promise<void> {
    const first = batch.entries[0]?.position;
    if (first === undefined) return;
    const key = statementKey(batch.client_id, batch.period, batch.currency, batch.day);
    const mark = `counted_${source}`;
    let counted: string | undefined; // unknown until read: assume nothing of this batch was counted
    for (let attempt = 0; attempt < 5; attempt++) {
      const { figures, last } = figuresAfter(batch, counted);
      if (last === undefined) return; // everything was already counted
      const values: Record<string, unknown> = { ':entity': 'statement', ':period': batch.period, ':currency': batch.currency, ':last': last, ':mark': true };
      FIGURES.forEach((name, index) => (values[`:f${index}`] = figures[name]));
      const added = await unlessConditionFails(
        this.doc.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: key,
            UpdateExpression: `SET entity = :entity, #period = :period, #currency = :currency, minor_units = :mark, #counted = :last ADD ${FIGURES.map((name, index) => `${name} :f${index}`).join(', ')}`,
            ConditionExpression: counted === undefined ? 'attribute_not_exists(#counted) OR #counted < :first' : '#counted = :counted',
            ExpressionAttributeNames: { '#counted': mark, '#period': 'period', '#currency': 'currency' },
            ExpressionAttributeValues: { ...values, ...(counted === undefined ? { ':first': first } : { ':counted': counted }) },
          }),
        ),
      );
      if (added) return;
      // Refused: part of this batch was counted before; read the watermark and add the rest.
      const { Item } = await this.doc.send(
        new GetCommand({
          TableName: this.tableName,
          Key: key,
          ConsistentRead: true,
          ProjectionExpression: '#counted',
          ExpressionAttributeNames: { '#counted': mark },
        }),
      );
      counted = typeof Item?.[mark] === 'string' ? Item[mark] : undefined;
      if (counted === undefined) throw new Error('statement: the watermark refused the update but is not there');
    }
    throw new Error('statement: the watermark kept moving under this batch (two consumers on one shard?)');
  }

  /**
   * One Query per shard of the month (64), merged newest first, like the order and policy lists.
   * Filtered by type, a page is bounded instead (filteredPage).
   */
  async list(clientId: string, query: { period: string; type?: string; after?: string; limit: number }): Promise<LedgerPage> {
    const range = sortRange('SK', { after: query.after });
    if (!range) return { entries: [] };
    if (query.type) return this.filteredPage(clientId, { ...query, type: query.type }, range);
    const records = shardedList(this.doc, {
      tableName: this.tableName,
      keyAttribute: 'PK',
      sortAttribute: 'SK',
      key: (shard) => ledgerPartition(clientId, query.period, shard),
      range,
      limit: (reads) => shardLimit(query.limit + 1, 4, reads),
    });
    const page = await takeRecords(records, query.limit + 1);
    const entries = page.slice(0, query.limit).map((record) => recordFields<LedgerEntry>(record, ['minor_units']));
    const last = page[query.limit - 1];
    return { entries, ...(page.length > query.limit && last ? { next: String(last.SK) } : {}) };
  }

  /**
   * A page of one type: each shard's Query reads at most FILTERED_SHARD_READ entries, once, however
   * rare the type (a merge that read on until the page was full would read the whole month to find
   * none). Where the page stops: the highest position a shard stopped at (its LastEvaluatedKey),
   * since every shard has read everything at or above it; the entries of the type at or above it
   * are the page (the first `limit` of them, when more), and `next` continues below where it
   * stopped. So a page may hold fewer entries than `limit`, even none, and still have a next.
   */
  private async filteredPage(
    clientId: string,
    query: { period: string; type: string; limit: number },
    range: NonNullable<ReturnType<typeof sortRange>>,
  ): Promise<LedgerPage> {
    const answers = await Promise.all(
      Array.from({ length: LIST_SHARDS }, (_, shard) =>
        this.doc.send(
          new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: `PK = :key${range.condition}`,
            FilterExpression: '#type = :type',
            ExpressionAttributeNames: { '#type': 'type' },
            ExpressionAttributeValues: { ':key': ledgerPartition(clientId, query.period, shard), ':type': query.type, ...range.values },
            ScanIndexForward: false,
            Limit: FILTERED_SHARD_READ,
          }),
        ),
      ),
    );
    let stopped: string | undefined;
    for (const { LastEvaluatedKey } of answers) {
      const at = LastEvaluatedKey === undefined ? undefined : String(LastEvaluatedKey.SK);
      if (at !== undefined && (stopped === undefined || compareKeys(at, stopped) > 0)) stopped = at;
    }
    const found = answers
      .flatMap((answer) => answer.Items ?? [])
      .filter((record) => stopped === undefined || compareKeys(String(record.SK), stopped) >= 0)
      .sort((a, b) => compareKeys(String(b.SK), String(a.SK)));
    const page = found.slice(0, query.limit);
    const entries = page.map((record) => recordFields<LedgerEntry>(record, ['minor_units']));
    const next = found.length > query.limit ? String(page.at(-1)!.SK) : stopped;
    return { entries, ...(next === undefined ? {} : { next }) };
  }

  async statement(clientId: string, period: string): Promise<{ currency: string; figures: StatementTotals }[]> {
    const { Items = [] } = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': statementPartition(clientId, period) },
        ConsistentRead: true,
      }),
    );
    // A record per currency and day (each day's sums are safe integers), summed per currency in BigInt: a month may pass 2^53.
    const totals = new Map<string, StatementTotals>();
    for (const item of Items) {
      const currency = String(item.currency);
      const sum = totals.get(currency) ?? (Object.fromEntries(FIGURES.map((name) => [name, 0n])) as unknown as StatementTotals);
      for (const name of FIGURES) sum[name] += BigInt((item[name] as number | undefined) ?? 0);
      totals.set(currency, sum);
    }
    return [...totals.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([currency, figures]) => ({ currency, figures }));
  }
}
