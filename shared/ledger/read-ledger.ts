import { ValidationError } from '../platform/errors.js';
import type { Clock } from '../platform/clock.js';
import type { ListCursors } from '../platform/list-cursors.js';
import { periodOf, statementStatus, type EntryType, type LedgerEntry } from './ledger.js';
import type { LedgerStore } from './ports.js';

export interface ReadLedgerDeps {
  ledger: Pick<LedgerStore, 'list'>;
  cursors: ListCursors;
  clock: Clock;
}

const refuseFuture = (period: string, now: Date, param: string) => {
  if (statementStatus(period, now) === 'future')
    throw new ValidationError(`${param}: ${period} has not begun; the current month is ${periodOf(now.toISOString())}.`, param);
};

/** GET /ledger: a client's entries of one month (the current one by default), newest first, a page at a time, optionally of one type. */
export async function listLedger(
  deps: ReadLedgerDeps,
  clientId: string,
  query: { period?: string; type?: EntryType; limit: number; cursor?: string },
): Promise<{ period: string; entries: LedgerEntry[]; nextCursor?: string }> {
  const now = deps.clock.now();
  const period = query.period ?? periodOf(now.toISOString());
  refuseFuture(period, now, 'period');
  const filters = { list: 'ledger', period, type: query.type };
  const after = query.cursor === undefined ? undefined : await deps.cursors.open(clientId, filters, query.cursor);
  const page = await deps.ledger.list(clientId, { period, ...(query.type ? { type: query.type } : {}), ...(after ? { after } : {}), limit: query.limit });
  return { period, entries: page.entries, ...(page.next === undefined ? {} : { nextCursor: await deps.cursors.seal(clientId, filters, page.next) }) };
}
