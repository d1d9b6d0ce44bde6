import { amountDueOf, netPremiumOf, statementStatus, type StatementTotals } from './ledger.js';

/**
 * Collections: what a merchant owes and has paid, month by month, per currency. A month's
 * `amount_due` is its net premium less the merchant's commission; `remitted` what finance recorded
 * it paying in the month; the balance runs on from month to month:
 *
 *   opening_balance(M) = closing_balance(M − 1)
 *   closing_balance(M) = opening_balance(M) + amount_due(M) − remitted(M)
 *
 * A statement is `open` until 00:00 UTC on the 5th of the next month, then its month's close writes
 * it down (its closing record: balances exact, as strings of minor units) and it is `closed`, due on
 * the 15th. Payments settle the oldest balance first: a closed statement is `paid` once what was
 * remitted after it covers its closing balance in every currency (for good: a payment reversed
 * later owes its amount again in the month of the reversal, not in the month it paid),
 * and `overdue` after its due date while any currency is still owed.
 */
export type StatementStanding = 'open' | 'closed' | 'paid' | 'overdue';

/** A currency's balance as a month's close wrote it down (minor units). */
export interface ClosingRow {
  currency: string;
  opening_balance: bigint;
  closing_balance: bigint;
}

/** A month's close: its balances, its due date and where it stands (the schedule moves it on). */
export interface StatementClosing {
  client_id: string;
  period: string;
  due_date: string;
  status: Exclude<StatementStanding, 'open'>;
  closed_at: string;
  rows: ClosingRow[];
}

/** A month's figures per currency, as the statement records sum them. */
export type MonthFigures = ReadonlyMap<string, StatementTotals>;

/** Months a close or a balance walks at most: ten years of a client's months. */
export const MAX_MONTHS_WALKED = 120;
/** Months one run of the close writes for a client at most; a longer backlog is caught up over the next runs. */
export const MAX_CLOSES_PER_RUN = 24;
/** Closed statements a client may owe at once that the schedule follows (the oldest first). */
export const MAX_UNSETTLED_FOLLOWED = 24;
/** The day of the next month a statement is due on. */
export const DUE_DAY = 15;
/** The day of the next month a statement closes on (statementStatus in ledger.ts). */
export const CLOSE_DAY = 5;
// A statement closes before it falls due.
if (!(CLOSE_DAY < DUE_DAY) || !(MAX_CLOSES_PER_RUN <= MAX_MONTHS_WALKED) || !(MAX_UNSETTLED_FOLLOWED <= MAX_MONTHS_WALKED))
  throw new Error('collections: the limits are out of order');

const monthIndex = (period: string): number => {
  const [year, month] = period.split('-').map(Number) as [number, number];
  return year * 12 + (month - 1);
};
const periodAt = (index: number): string => `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;

/** The month after (or `n` months after) `period`. */
export const nextPeriod = (period: string, n = 1): string => periodAt(monthIndex(period) + n);
/** Months from `from` to `to` (0 when the same). */
export const monthsBetween = (from: string, to: string): number => monthIndex(to) - monthIndex(from);

/** The 15th of the month after `period`, YYYY-MM-DD. */
export const dueDateOf = (period: string): string => `${nextPeriod(period)}-${String(DUE_DAY).padStart(2, '0')}`;

/** The last month closed by `now` (a month closes at 00:00 UTC on the 5th of the next). */
export function lastClosedPeriod(now: Date): string {
  const current = now.toISOString().slice(0, 7);
  const previous = nextPeriod(current, -1);
  return statementStatus(previous, now) === 'closed' ? previous : nextPeriod(current, -2);
}

/** What a month moves a balance by: amount_due − remitted. */
export const movementOf = (figures: StatementTotals): bigint => amountDueOf(figures) - figures.remitted;

/**
 * Balances carried through months: from `opening` (a currency's balance before the first), adding
 * each month's movement in order. Answers the balance after the last, per currency.
 */
export function carry(opening: ReadonlyMap<string, bigint>, months: readonly MonthFigures[]): Map<string, bigint> {
  const balances = new Map(opening);
  for (const month of months) for (const [currency, figures] of month) balances.set(currency, (balances.get(currency) ?? 0n) + movementOf(figures));
  return balances;
}

/** A month's currency rows: its figures beside its opening and closing balances; every currency with either. */
export function statementRows(opening: ReadonlyMap<string, bigint>, figures: MonthFigures) {
  const currencies = [...new Set([...opening.keys(), ...figures.keys()])].sort();
  return currencies.map((currency) => {
    const totals = figures.get(currency) ?? zeroTotals();
    const opening_balance = opening.get(currency) ?? 0n;
    return {
      currency,
      figures: totals,
      net_premium: netPremiumOf(totals),
      amount_due: amountDueOf(totals),
      opening_balance,
      closing_balance: opening_balance + movementOf(totals),
    };
  });
}

/** Figures of a month with nothing in them. */
export const zeroTotals = (): StatementTotals => ({
  premiums_written: 0n,
  premium_adjustments: 0n,
  premiums_refunded: 0n,
  claims_approved: 0n,
  claims_paid: 0n,
  policies_issued: 0n,
  policies_voided: 0n,
  commission: 0n,
  remitted: 0n,
});

/**
 * Where a closed statement stands at `now`, given what was remitted after its month (per
 * currency): `paid` when that covers its closing balance in every currency (a balance at or below
 * zero is paid at its close), else `overdue` after its due date, else `closed`.
 */
export function standingOf(
  closing: Pick<StatementClosing, 'rows' | 'due_date' | 'status'>,
  remittedAfter: ReadonlyMap<string, bigint>,
  now: Date,
): Exclude<StatementStanding, 'open'> {
  if (closing.status === 'paid') return 'paid'; // for good
  const owed = closing.rows.some((row) => row.closing_balance - (remittedAfter.get(row.currency) ?? 0n) > 0n);
  if (!owed) return 'paid';
  return now.toISOString().slice(0, 10) > closing.due_date ? 'overdue' : 'closed';
}

/** What was remitted in these months, per currency. */
export function remittedIn(months: readonly MonthFigures[]): Map<string, bigint> {
  const sums = new Map<string, bigint>();
  for (const month of months)
    for (const [currency, figures] of month) if (figures.remitted !== 0n) sums.set(currency, (sums.get(currency) ?? 0n) + figures.remitted);
  return sums;
}
