import { ValidationError } from '../platform/errors.js';
import type { Clock } from '../platform/clock.js';
import { periodOf, statementStatus } from './ledger.js';
import {
  carry,
  dueDateOf,
  lastClosedPeriod,
  MAX_CLOSES_PER_RUN,
  MAX_MONTHS_WALKED,
  MAX_UNSETTLED_FOLLOWED,
  nextPeriod,
  remittedIn,
  standingOf,
  statementRows,
  type MonthFigures,
  type StatementClosing,
  type StatementStanding,
} from './collections.js';
import type { CollectionsStore } from './ports.js';

export interface StatementsDeps {
  collections: CollectionsStore;
  clock: Clock;
}

/** A statement as read: its month, standing, due date and currency rows (figures and balances). */
export interface StatementRead {
  period: string;
  status: StatementStanding;
  due_date: string;
  currencies: ReturnType<typeof statementRows>;
}

/** The figures of these months, a few at a time (a walk is at most MAX_MONTHS_WALKED months). */
async function figuresOf(collections: Pick<CollectionsStore, 'figures'>, clientId: string, months: readonly string[]): Promise<MonthFigures[]> {
  const figures: MonthFigures[] = [];
  for (let start = 0; start < months.length; start += 8)
    figures.push(...(await Promise.all(months.slice(start, start + 8).map((m) => collections.figures(clientId, m)))));
  return figures;
}

/** The client's months with moves after `after` through `through`; a walk longer than MAX_MONTHS_WALKED is a fault (the close has not run for years). */
async function walk(collections: Pick<CollectionsStore, 'monthsWithMoves'>, clientId: string, after: string | undefined, through: string): Promise<string[]> {
  const months = await collections.monthsWithMoves(clientId, after, through, MAX_MONTHS_WALKED + 1);
  if (months.length > MAX_MONTHS_WALKED)
    throw new Error(`collections: ${clientId}'s balance would walk more than ${MAX_MONTHS_WALKED} months; let the close catch up`);
  return months;
}

const balancesOf = (closing: StatementClosing | undefined): Map<string, bigint> =>
  new Map((closing?.rows ?? []).map((row) => [row.currency, row.closing_balance]));

/** The balances a month opens with: the latest close before it, carried through the months with moves since. */
export async function openingBalances(collections: CollectionsStore, clientId: string, period: string): Promise<Map<string, bigint>> {
  const base = await collections.latestClosing(clientId, period);
  const months = await walk(collections, clientId, base?.period, nextPeriod(period, -1));
  return carry(balancesOf(base), await figuresOf(collections, clientId, months));
}

/** What was remitted after `period`, through the current month, per currency. */
async function remittedAfter(collections: CollectionsStore, clientId: string, period: string, now: Date): Promise<Map<string, bigint>> {
  const months = await walk(collections, clientId, period, periodOf(now.toISOString()));
  return remittedIn(await figuresOf(collections, clientId, months));
}

/**
 * GET /statements/{period}: the month's figures per currency with its balances, due date and
 * standing. An open month's closing balance is what it comes to so far; a closed month's balances
 * are its close's (or, before the schedule has written it, what it will write); its standing is
 * read live (a remittance recorded a minute ago has paid it), the schedule only moves the kept one.
 */
export async function readStatement(deps: StatementsDeps, clientId: string, period: string): Promise<StatementRead> {
  const now = deps.clock.now();
  const state = statementStatus(period, now);
  if (state === 'future') throw new ValidationError(`period: ${period} has not begun; the current month is ${periodOf(now.toISOString())}.`, 'period');
  const [figures, closing] = await Promise.all([
    deps.collections.figures(clientId, period),
    state === 'closed' ? deps.collections.closing(clientId, period) : undefined,
  ]);
  const opening = closing ? new Map(closing.rows.map((row) => [row.currency, row.opening_balance])) : await openingBalances(deps.collections, clientId, period);
  const currencies = statementRows(opening, figures);
  const due_date = dueDateOf(period);
  if (state === 'open') return { period, status: 'open', due_date, currencies };
  const kept = closing ?? { rows: currencies, due_date, status: 'closed' as const };
  const status = kept.status === 'paid' ? 'paid' : standingOf(kept, await remittedAfter(deps.collections, clientId, period, now), now);
  return { period, status, due_date, currencies };
}

/** What one run of the close did: months closed, standings moved. */
export interface CloseReport {
  clients: number;
  closed: number;
  overdue: number;
  paid: number;
}

/**
 * The schedule (EventBridge hourly deployed, npm start's schedule runner locally): for every
 * client, writes the close of each month that has closed since its last (oldest first, at most
 * MAX_CLOSES_PER_RUN a run), then moves each unsettled close to `paid` or `overdue` as it now
 * stands. Every write is conditional: a run beside another, or run again, writes nothing twice,
 * so `statement.closed` and `statement.overdue` (the stream's events of these writes) go out once.
 */
export async function closeStatements(deps: StatementsDeps): Promise<CloseReport> {
  const now = deps.clock.now();
  const report: CloseReport = { clients: 0, closed: 0, overdue: 0, paid: 0 };
  for await (const clientId of deps.collections.clientIds()) {
    report.clients++;
    await closeClient(deps.collections, clientId, now, report);
  }
  return report;
}

async function closeClient(collections: CollectionsStore, clientId: string, now: Date, report: CloseReport): Promise<void> {
  const last = lastClosedPeriod(now);
  const recent = await collections.recentClosings(clientId, MAX_UNSETTLED_FOLLOWED);
  const written: StatementClosing[] = [];
  const base = recent[0];
  if (!base || base.period < last) {
    const moved = await walk(collections, clientId, base?.period, last);
    const hasMoves = new Set(moved);
    let balances = balancesOf(base);
    let month: string | undefined = base ? nextPeriod(base.period) : moved[0];
    for (let closes = 0; month !== undefined && month <= last && closes < MAX_CLOSES_PER_RUN; closes++) {
      const owesOrOwed = [...balances.values()].some((balance) => balance !== 0n);
      if (!hasMoves.has(month) && !owesOrOwed) {
        // Nothing moved and nothing carried: no statement; on to the next month with moves.
        const from: string = month;
        month = moved.find((m) => m > from);
        continue;
      }
      const rows = statementRows(balances, hasMoves.has(month) ? await collections.figures(clientId, month) : new Map());
      const closing: StatementClosing = {
        client_id: clientId,
        period: month,
        due_date: dueDateOf(month),
        status: rows.some((row) => row.closing_balance > 0n) ? 'closed' : 'paid',
        closed_at: now.toISOString(),
        rows: rows.map(({ currency, opening_balance, closing_balance }) => ({ currency, opening_balance, closing_balance })),
      };
      if (await collections.writeClosing(closing)) report.closed++;
      written.push(closing);
      balances = balancesOf(closing);
      month = nextPeriod(month);
    }
  }
  // The unsettled closes, oldest first: each moves to paid or overdue as it now stands.
  const unsettled = [...new Map([...recent, ...written].map((closing) => [closing.period, closing])).values()]
    .filter((closing) => closing.status !== 'paid')
    .sort((a, b) => (a.period < b.period ? -1 : 1))
    .slice(0, MAX_UNSETTLED_FOLLOWED);
  if (unsettled.length === 0) return;
  const oldest = unsettled[0]!.period;
  const months = await walk(collections, clientId, oldest, periodOf(now.toISOString()));
  const figures = await figuresOf(collections, clientId, months);
  for (const closing of unsettled) {
    const after = remittedIn(figures.filter((_, index) => months[index]! > closing.period));
    const standing = standingOf(closing, after, now);
    if (standing === closing.status) continue;
    if (await collections.moveClosing(clientId, closing.period, closing.status, standing, now.toISOString()))
      report[standing === 'paid' ? 'paid' : 'overdue']++;
  }
}

/** Where a merchant's account stands now: its balance per currency and the months it is overdue on. */
export interface AccountStanding {
  balances: { currency: string; balance: bigint }[];
  overdue: string[];
}

/**
 * The console's merchants list: each client's balance now (its latest close carried through the
 * months with moves since, the current one included) and its overdue months, read live like a
 * statement's standing (a payment recorded a minute ago counts).
 */
export async function accountOf(collections: CollectionsStore, clientId: string, now: Date): Promise<AccountStanding> {
  const current = periodOf(now.toISOString());
  const recent = await collections.recentClosings(clientId, MAX_UNSETTLED_FOLLOWED);
  const base = recent[0];
  const unsettled = recent.filter((closing) => closing.status !== 'paid').reverse();
  const from = unsettled[0]?.period ?? base?.period;
  const months = await walk(collections, clientId, from, current);
  const figures = await figuresOf(collections, clientId, months);
  const balances = carry(
    balancesOf(base),
    figures.filter((_, index) => base === undefined || months[index]! > base.period),
  );
  const overdue = unsettled
    .filter((closing) => standingOf(closing, remittedIn(figures.filter((_, index) => months[index]! > closing.period)), now) === 'overdue')
    .map((closing) => closing.period);
  return { balances: [...balances.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([currency, balance]) => ({ currency, balance })), overdue };
}
