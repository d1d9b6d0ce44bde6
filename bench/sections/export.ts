import { auditRecordOf, newAuditId } from '#shared/identity/index.js';
import { BatchWriteCommand, GetCommand, type BatchWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { createClient } from '#shared/clients/manage-clients.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { DynamoExportStore } from '#shared/bordereaux/dynamo-export-store.js';
import { ENTRY_TYPES, type LedgerEntry } from '#shared/ledger/index.js';
import { DynamoLedgerStore } from '#shared/ledger/dynamo-ledger-store.js';
import { createDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { bordereauKey, ledgerKey, storedRecord } from '#shared/platform/dynamo/keys.js';
import { prefixedId } from '#shared/platform/ids.js';
import { stringify } from 'csv-stringify/sync';
import { AMOUNT_COLUMNS, csvLine, premiumRow } from '#shared/bordereaux/bordereau.js';
import { startLocalS3 } from '../../scripts/local/local-s3.js';
import type { Recorder } from '../report.js';

/** A large month (the contract's figure); `BENCH_EXPORT_ENTRIES` makes it smaller for a quick look. */
const ENTRIES = Number(process.env.BENCH_EXPORT_ENTRIES ?? 1_000_000);
const PERIOD = '2026-10';
/** A small month each probe runs first, so that the code is loaded before memory is measured. */
const WARM_UP_PERIOD = '2026-09';
const WARM_UP_ENTRIES = 2_000;
const GOAL_RATIO = 0.5;
/**
 * V8's old space of each probe, MB: bounded as a function's memory bounds it, so that the figure is
 * what the run needs, not how far V8 lets garbage pile up when nothing limits it (unbounded, the
 * raw loop alone grows its RSS with the month: 62 MB at 200,000 entries). A run that held the month
 * would not fit: its CSV alone is about 150 MB.
 */
const HEAP_MB = 64;
/** BatchWriteItems in flight while the month is written. */
const WRITERS = Number(process.env.BENCH_EXPORT_WRITERS ?? 32);
const GOAL_GROWTH_MB = 64;
const PREMIUM_TYPES = ENTRY_TYPES.filter((type) => type.startsWith('premium_'));

/**
 * Runs bench/export-probe.ts in a fresh process: its figures, and its memory alone. Asynchronously:
 * the local S3 it writes to answers from this process's event loop.
 */
async function probe(args: string[], env: Record<string, string>): Promise<{ rows: number; seconds: number; peakGrowthMb: number }> {
  const { stdout } = await promisify(execFile)(process.execPath, [`--max-old-space-size=${HEAP_MB}`, '--import', 'tsx', 'bench/export-probe.ts', ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as { rows: number; seconds: number; peakGrowthMb: number };
}

/**
 * A month of ENTRIES premium entries of one live client, written straight into the ledger's keys
 * (64 shards, as the stream consumer writes them), then, each in a process of its own: the raw
 * loop (every shard Queried page after page, discarded) and the premium bordereau's export into
 * the local S3 (s3rver). Goals: the export's rows/s ≥ 0.5× the raw loop's, its peak memory
 * growth ≤ 64 MB (it never holds the month).
 */
export async function measureExport(record: Recorder, dynamoEndpoint: string): Promise<void> {
  const s3 = await startLocalS3({ buckets: ['bench-bordereaux'] });
  const doc = createDocumentClient(dynamoEndpoint);
  try {
    const tableName = process.env.TABLE_NAME!;
    const client = await createClient(new DynamoClientStore(doc, tableName), { name: 'Bench Live Venue', mode: 'live' });
    await new DynamoLedgerStore(doc, tableName).notePeriods([
      { client_id: client.client_id, period: PERIOD },
      { client_id: client.client_id, period: WARM_UP_PERIOD },
    ]);
    await writeEntries(doc, tableName, client.client_id, WARM_UP_PERIOD, WARM_UP_ENTRIES);
    const loadStarted = performance.now();
    await writeEntries(doc, tableName, client.client_id, PERIOD, ENTRIES);
    const loadSeconds = (performance.now() - loadStarted) / 1000;

    const env = { DYNAMODB_ENDPOINT: dynamoEndpoint, ...s3.env, BORDEREAUX_BUCKET: 'bench-bordereaux' };
    const raw = await probe(['raw', client.client_id, PERIOD, WARM_UP_PERIOD], env);
    const exports = new DynamoExportStore(doc, tableName);
    const started = (period: string) => ({
      export_id: prefixedId('bx'),
      period,
      kind: 'premium' as const,
      status: 'running' as const,
      created: new Date().toISOString(),
      requested_by: 'bench',
    });
    const [measured, warmUp] = [started(PERIOD), started(WARM_UP_PERIOD)];
    const bench = { sub: 'bench', roles: ['finance' as const], kind: 'script' as const };
    await exports.create(measured, auditRecordOf(bench, 'bordereau.exported', { type: 'bordereau', id: measured.export_id }, new Date(), newAuditId));
    await exports.create(warmUp, auditRecordOf(bench, 'bordereau.exported', { type: 'bordereau', id: warmUp.export_id }, new Date(), newAuditId));
    const exportId = measured.export_id;
    const exported = await probe(['export', exportId, warmUp.export_id], env);
    const { Item } = await doc.send(new GetCommand({ TableName: tableName, Key: bordereauKey(exportId) }));
    if (Item?.status !== 'done' || exported.rows !== ENTRIES || raw.rows !== ENTRIES)
      throw new Error(`export: expected ${ENTRIES} rows done, got raw ${raw.rows}, export ${exported.rows} (${String(Item?.status)})`);

    const rawRate = raw.rows / raw.seconds;
    const rate = exported.rows / exported.seconds;
    record({
      subject: `premium bordereau of ${ENTRIES.toLocaleString('en')} entries → S3 (rows/s)`,
      figure: `${Math.round(rate).toLocaleString('en')} rows/s (${exported.seconds.toFixed(1)} s)`,
      baseline: `raw Query loop ${Math.round(rawRate).toLocaleString('en')} rows/s (${raw.seconds.toFixed(1)} s)`,
      ratio: rate / rawRate,
      goal: `≥ ${GOAL_RATIO}× the raw loop`,
      ok: rate / rawRate >= GOAL_RATIO,
    });
    record({
      subject: 'the export’s peak memory growth (RSS high-water mark over the start)',
      figure: `${exported.peakGrowthMb.toFixed(1)} MB`,
      baseline: `raw loop ${raw.peakGrowthMb.toFixed(1)} MB`,
      goal: `≤ ${GOAL_GROWTH_MB} MB`,
      ok: exported.peakGrowthMb <= GOAL_GROWTH_MB,
    });
    measureCsv(record);
    record({
      subject: 'writing the month into DynamoDB Local (setup, not a goal)',
      figure: `${Math.round(ENTRIES / loadSeconds).toLocaleString('en')} entries/s (${loadSeconds.toFixed(0)} s)`,
      goal: '–',
      ok: true,
    });
  } finally {
    doc.destroy();
    await s3.stop();
  }
}

/** A month's entries, 25 a BatchWriteItem, 32 batches at once, unprocessed items sent again. */
async function writeEntries(doc: ReturnType<typeof createDocumentClient>, tableName: string, clientId: string, period: string, count: number): Promise<void> {
  const [year, month] = period.split('-').map(Number) as [number, number];
  const monthStart = Date.UTC(year, month - 1, 1);
  const monthMs = Date.UTC(year, month, 1) - monthStart;
  const entryAt = (index: number): LedgerEntry => {
    const type = PREMIUM_TYPES[index % PREMIUM_TYPES.length]!;
    const created = new Date(monthStart + Math.floor((index / count) * monthMs)).toISOString();
    return {
      id: `le_${randomBytes(18).toString('base64url')}`,
      type,
      client_id: clientId,
      created,
      period,
      currency: index % 7 === 0 ? 'JPY' : 'USD',
      amount: type === 'premium_refunded' ? -(1000 + (index % 5000)) : 1000 + (index % 5000),
      service_order_id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
      policy_number: `OP-${String(index)
        .padStart(12, '0')
        .replace(/(.{4})(?=.)/g, '$1-')}`,
      order_number: `ORD-${index}`,
      coverage_amount: 12_000 + (index % 50_000),
      risk_start: created,
    };
  };
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const first = next;
      next = Math.min(count, next + 25);
      let requests: NonNullable<BatchWriteCommandInput['RequestItems']>[string] | undefined = [];
      for (let index = first; index < next; index++) {
        const entry = entryAt(index);
        requests.push({
          PutRequest: { Item: storedRecord(ledgerKey(clientId, period, entry.id, entry.created), 'ledger_entry', { ...entry, minor_units: true }) },
        });
      }
      while (requests?.length) {
        const answer: { UnprocessedItems?: BatchWriteCommandInput['RequestItems'] } = await doc.send(
          new BatchWriteCommand({ RequestItems: { [tableName]: requests } }),
        );
        requests = answer.UnprocessedItems?.[tableName];
      }
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, worker));
}

/**
 * The CSV writer is our own (shared/bordereaux/bordereau.ts, a few lines) beside csv-stringify, the
 * well-kept library: the library's formula escaping applies to every field, so it would turn a
 * refund's "-0.850" into "'-0.850" (the export needs it on text columns only), and it is slower.
 * Both format the same 200,000 premium rows, in memory; the library 100 rows a call.
 */
function measureCsv(record: Recorder): void {
  const ROWS = 200_000;
  const rows = Array.from({ length: ROWS }, (_, index) =>
    premiumRow(
      {
        id: 'le_x',
        type: PREMIUM_TYPES[index % 3]!,
        client_id: 'cli_bench',
        created: '2026-10-15T12:00:00.000Z',
        period: PERIOD,
        currency: 'USD',
        amount: index % 3 === 2 ? -1234 : 1234,
        service_order_id: '00000000-0000-4000-8000-000000000000',
        policy_number: `OP-${String(index).padStart(12, '0')}`,
      },
      { order_number: index % 50 === 0 ? `=ORD,"${index}"` : `ORD-${index}`, coverage_amount: 45_000, risk_start: '2026-10-01T00:00:00.000Z' },
    ),
  );
  const timed = (format: () => number) => {
    const started = performance.now();
    const bytes = format();
    return { rate: ROWS / ((performance.now() - started) / 1000), bytes };
  };
  const own = timed(() => rows.reduce((bytes, row) => bytes + csvLine(row, AMOUNT_COLUMNS.premium).length, 0));
  const library = timed(() => {
    let bytes = 0;
    for (let start = 0; start < ROWS; start += 100)
      bytes += stringify(rows.slice(start, start + 100), { escape_formulas: true, record_delimiter: 'windows' }).length;
    return bytes;
  });
  record({
    subject: 'CSV formatting of 200,000 premium rows (our csvLine)',
    figure: `${Math.round(own.rate).toLocaleString('en')} rows/s`,
    baseline: `csv-stringify ${Math.round(library.rate).toLocaleString('en')} rows/s`,
    ratio: own.rate / library.rate,
    goal: 'why we keep our own (not a goal)',
    ok: true,
  });
}
