import { actorLabel, auditRecordOf, newAuditId, type StaffIdentity } from '../identity/index.js';
import { NotFoundError, ValidationError } from '../platform/errors.js';
import type { Clock } from '../platform/clock.js';
import { FIRST_PERIOD, periodOf, statementStatus } from '../ledger/index.js';
import {
  AMOUNT_COLUMNS,
  claimRow,
  csvLine,
  factsOfEntry,
  fileNameOf,
  headerOf,
  isLiveClient,
  objectKeyOf,
  premiumRow,
  type BordereauExport,
  type BordereauKind,
} from './bordereau.js';
import type { BordereauSources, ExportStore, ObjectLinks, ObjectStore } from './ports.js';

/** A bordereau's link is valid this long (the contract's 15 minutes); each read of a done export signs a new one. */
export const URL_VALID_SECONDS = 15 * 60;
/** Text gathered before it is handed to the upload: a few hundred rows a chunk, not one write per row. */
const CHUNK_BYTES = 64 * 1024;
/** Claims read at once (one BatchGetItem). */
const CLAIMS_AT_ONCE = 100;

/** POST /admin/bordereaux: a month that has begun and a kind; the export runs apart (its record's stream) and is read by id. */
export async function startExport(
  deps: { exports: Pick<ExportStore, 'create'>; clock: Clock; newId: () => string },
  request: { period: string; kind: BordereauKind },
  actor: StaffIdentity,
): Promise<BordereauExport> {
  const now = deps.clock.now();
  if (request.period < FIRST_PERIOD)
    throw new ValidationError(`period: ${request.period} is before any record of the service; months from ${FIRST_PERIOD} on may be exported.`, 'period');
  if (statementStatus(request.period, now) === 'future')
    throw new ValidationError(`period: ${request.period} has not begun; the current month is ${periodOf(now.toISOString())}.`, 'period');
  const exported: BordereauExport = {
    export_id: deps.newId(),
    period: request.period,
    kind: request.kind,
    status: 'running',
    created: now.toISOString(),
    requested_by: actorLabel(actor),
  };
  const audit = auditRecordOf(
    actor,
    'bordereau.exported',
    { type: 'bordereau', id: exported.export_id, detail: `${request.kind} ${request.period}` },
    now,
    newAuditId,
  );
  await deps.exports.create(exported, audit);
  return exported;
}

/** GET /admin/bordereaux/{id}: the export as it stands, with a fresh link once done. */
export async function readExport(
  deps: { exports: Pick<ExportStore, 'get'>; links: ObjectLinks; clock: Clock },
  exportId: string,
): Promise<{ exported: BordereauExport; url?: string; expires_at?: string }> {
  const exported = await deps.exports.get(exportId);
  if (!exported) throw new NotFoundError('export_not_found', 'No bordereau export with this id.', 'export_id');
  if (exported.status !== 'done' || !exported.object_key) return { exported };
  // Signed at this instant, so the expiry said is the link's own (its X-Amz-Date + 15 minutes).
  const signedAt = new Date(Math.floor(deps.clock.now().getTime() / 1000) * 1000);
  const url = await deps.links.presign(exported.object_key, URL_VALID_SECONDS, fileNameOf(exported), signedAt);
  return { exported, url, expires_at: new Date(signedAt.getTime() + URL_VALID_SECONDS * 1000).toISOString() };
}

/**
 * GET /admin/bordereaux: the past exports, newest first, a page at a time; the cursor is sealed
 * (it names a position in the list and nothing else can be made of it).
 */
export async function listExports(
  deps: {
    exports: Pick<ExportStore, 'list'>;
    cursors: {
      seal(filters: Record<string, string>, position: string): Promise<string>;
      open(filters: Record<string, string>, cursor: string): Promise<string>;
    };
  },
  query: { cursor?: string; limit: number },
): Promise<{ exports: BordereauExport[]; nextCursor?: string }> {
  const after = query.cursor === undefined ? undefined : await deps.cursors.open({}, query.cursor);
  const page = await deps.exports.list({ ...(after === undefined ? {} : { after }), limit: query.limit });
  return { exports: page.exports, ...(page.next === undefined ? {} : { nextCursor: await deps.cursors.seal({}, page.next) }) };
}

export interface RunExportDeps {
  exports: Pick<ExportStore, 'get' | 'finish'>;
  objects: Pick<ObjectStore, 'put'>;
  sources: BordereauSources;
  clock: Clock;
}

/**
 * Runs a started export: the month's rows, client by client, streamed into one object, then the
 * export is done with its row count and the month's state then, or failed with the reason (the
 * operator starts another). An export found finished already (a stream batch given again) is left
 * alone; one found running is run again from the start into the same object key (an earlier run cut
 * short — a crash, the timeout — left no object, only parts S3's lifecycle rule removes).
 */
export async function runExport(deps: RunExportDeps, exportId: string): Promise<BordereauExport | undefined> {
  const exported = await deps.exports.get(exportId);
  if (!exported || exported.status !== 'running') return exported;
  const counted = { rows: 0 };
  const objectKey = objectKeyOf(exported);
  // The month's state as the rows are read: a file of an open month may miss moves still to come.
  const periodStatus: 'open' | 'closed' = statementStatus(exported.period, deps.clock.now()) === 'closed' ? 'closed' : 'open';
  try {
    await deps.objects.put(objectKey, chunks(rowsOf(deps.sources, exported, counted), headerOf(exported.kind)));
  } catch (err) {
    // Recorded, not thrown: the operator starts another export (a stream retry would find it failed and do nothing).
    const failed = { status: 'failed' as const, finished: deps.clock.now().toISOString(), failure: failureOf(err) };
    await deps.exports.finish(exportId, failed);
    return { ...exported, ...failed };
  }
  const outcome = { status: 'done' as const, finished: deps.clock.now().toISOString(), rows: counted.rows, object_key: objectKey, period_status: periodStatus };
  await deps.exports.finish(exportId, outcome);
  return { ...exported, ...outcome };
}

/** Why an export failed, for the operator: the error's kind, never its message (it might quote a record). */
const failureOf = (err: unknown): string => `The export stopped (${err instanceof Error ? err.name : 'unknown error'}); start it again.`;

/** Every row of the month, live clients only, one CSV line each. */
async function* rowsOf(sources: BordereauSources, exported: BordereauExport, counted: { rows: number }): AsyncGenerator<string> {
  const amounts = AMOUNT_COLUMNS[exported.kind];
  for await (const clientId of sources.ledger.clientsOf(exported.period)) {
    const client = await sources.clients.get(clientId);
    if (!client || !isLiveClient(client)) continue;
    if (exported.kind === 'premium') {
      for await (const entry of sources.ledger.entriesOf(clientId, exported.period, 'premium_')) {
        counted.rows++;
        yield csvLine(premiumRow(entry, factsOfEntry(entry) ?? (await sources.policyFacts(clientId, entry))), amounts);
      }
      continue;
    }
    let ids: string[] = [];
    const claimRows = async function* () {
      for (const claim of await sources.claims.getMany(ids)) {
        counted.rows++;
        yield csvLine(claimRow(claim, exported.period), amounts);
      }
      ids = [];
    };
    for await (const claimId of sources.ledger.claimsActiveIn(clientId, exported.period)) {
      ids.push(claimId);
      if (ids.length === CLAIMS_AT_ONCE) yield* claimRows();
    }
    yield* claimRows();
  }
}

/** Lines gathered into chunks of about CHUNK_BYTES, the header first. */
async function* chunks(lines: AsyncIterable<string>, header: string): AsyncGenerator<Buffer> {
  let text = header;
  for await (const line of lines) {
    text += line;
    if (text.length >= CHUNK_BYTES) {
      yield Buffer.from(text);
      text = '';
    }
  }
  yield Buffer.from(text);
}
