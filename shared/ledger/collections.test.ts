import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as v from 'valibot';
import { FIRST_PERIOD, Period } from './schemas.js';
import {
  carry,
  dueDateOf,
  lastClosedPeriod,
  monthsBetween,
  nextPeriod,
  remittedIn,
  standingOf,
  statementRows,
  zeroTotals,
  type MonthFigures,
} from './collections.js';
import { entriesOf, figuresOf } from './ledger.js';

/** Collections' rules without a table: months, due dates, balances carried, standings. */
const totals = (due: bigint, remitted: bigint, commission = 0n) => ({ ...zeroTotals(), premiums_written: due + commission, commission, remitted });
const month = (entries: Record<string, ReturnType<typeof totals>>): MonthFigures => new Map(Object.entries(entries));

describe('months', () => {
  it('the month after, across a year; the due date is the 15th of the next month', () => {
    expect(nextPeriod('2026-12')).toBe('2027-01');
    expect(nextPeriod('2027-01', -1)).toBe('2026-12');
    expect(dueDateOf('2026-12')).toBe('2027-01-15');
    expect(monthsBetween('2025-11', '2027-02')).toBe(15);
  });

  it('a month named in a request is YYYY-MM from FIRST_PERIOD on, for the ledger, statements and bordereaux alike', () => {
    for (const period of [FIRST_PERIOD, '2026-11', '2099-12']) expect(v.safeParse(Period, period).success, period).toBe(true);
    for (const period of ['1999-12', '0000-01', '2026-13', '2026-1', ' 2026-11']) expect(v.safeParse(Period, period).success, period).toBe(false);
    expect(v.safeParse(Period, '1999-12').issues?.[0]?.message).toBe('must be 2000-01 or later: the service holds no earlier month');
  });

  it('the last month closed: the previous from 00:00 UTC on the 5th, the one before until then', () => {
    expect(lastClosedPeriod(new Date('2027-01-04T23:59:59.999Z'))).toBe('2026-11');
    expect(lastClosedPeriod(new Date('2027-01-05T00:00:00.000Z'))).toBe('2026-12');
    expect(lastClosedPeriod(new Date('2027-03-31T12:00:00.000Z'))).toBe('2027-02');
  });
});

describe('balances', () => {
  it('closing = opening + amount_due − remitted, and the next month opens with it, in every currency apart', () => {
    const months = fc.array(
      fc.dictionary(fc.constantFrom('USD', 'JPY', 'KWD'), fc.tuple(fc.bigInt(-(10n ** 15n), 10n ** 15n), fc.bigInt(0n, 10n ** 15n), fc.bigInt(0n, 10n ** 12n))),
      {
        maxLength: 12,
      },
    );
    fc.assert(
      fc.property(months, (raw) => {
        const figures = raw.map((entry) =>
          month(Object.fromEntries(Object.entries(entry).map(([c, [due, paid, commission]]) => [c, totals(due, paid, commission)]))),
        );
        let opening = new Map<string, bigint>();
        for (const one of figures) {
          const rows = statementRows(opening, one);
          for (const row of rows) {
            expect(row.amount_due).toBe(row.net_premium - row.figures.commission);
            expect(row.closing_balance).toBe(row.opening_balance + row.amount_due - row.figures.remitted);
          }
          const carried = carry(opening, [one]);
          expect(new Map(rows.map((row) => [row.currency, row.closing_balance]))).toEqual(carried);
          opening = carried;
        }
        expect(carry(new Map(), figures)).toEqual(opening); // carried month by month, or all at once: the same
      }),
    );
  });
});

describe('standing of a closed statement', () => {
  const closing = (balances: Record<string, bigint>, status: 'closed' | 'overdue' | 'paid' = 'closed') => ({
    due_date: '2026-12-15',
    status,
    rows: Object.entries(balances).map(([currency, closing_balance]) => ({ currency, opening_balance: 0n, closing_balance })),
  });
  const on = (day: string) => new Date(`${day}T12:00:00.000Z`);

  it('paid when nothing is owed at its close; closed until its due date; overdue the day after with a balance', () => {
    expect(standingOf(closing({ USD: 0n, JPY: -5n }), new Map(), on('2026-12-20'))).toBe('paid');
    expect(standingOf(closing({ USD: 390n }), new Map(), on('2026-12-15'))).toBe('closed');
    expect(standingOf(closing({ USD: 390n }), new Map(), on('2026-12-16'))).toBe('overdue');
  });

  it('paid once what was remitted after it covers every currency; a currency short keeps it owed', () => {
    expect(standingOf(closing({ USD: 390n, JPY: 100n }, 'overdue'), new Map([['USD', 390n]]), on('2026-12-20'))).toBe('overdue');
    expect(
      standingOf(
        closing({ USD: 390n, JPY: 100n }, 'overdue'),
        new Map([
          ['USD', 390n],
          ['JPY', 100n],
        ]),
        on('2026-12-20'),
      ),
    ).toBe('paid');
    expect(standingOf(closing({ USD: 390n }, 'paid'), new Map(), on('2026-12-20'))).toBe('paid'); // for good
  });

  it('counts only what was remitted, per currency', () => {
    expect(remittedIn([month({ USD: totals(500n, 20n) }), month({ USD: totals(0n, 5n), JPY: totals(7n, 0n) })])).toEqual(new Map([['USD', 25n]]));
  });
});

describe('a remittance in the ledger', () => {
  const record = {
    entity: 'remittance',
    client_id: 'cl_1',
    reference: 'BANK 1',
    currency: 'KWD',
    amount: 12_345,
    received_on: '2026-12-01',
    recorded_at: '2026-12-02T10:00:00.000Z',
  };
  const change = (kind: 'INSERT' | 'MODIFY' | 'REMOVE') => ({
    changeId: 'c1',
    kind,
    at: '2026-12-02T10:00:01.000Z',
    ...(kind === 'REMOVE' ? { before: record } : { after: record }),
  });

  it('is one remittance_received entry of its amount, in the month it was recorded, by its reference alone', () => {
    const [entry, ...none] = entriesOf(change('INSERT'));
    expect(none).toEqual([]);
    expect(entry).toMatchObject({
      type: 'remittance_received',
      amount: 12_345,
      currency: 'KWD',
      period: '2026-12',
      reference: 'BANK 1',
      received_on: '2026-12-01',
    });
    expect(figuresOf(entry!)).toMatchObject({ remitted: 12_345, premiums_written: 0, commission: 0 });
    expect(entriesOf(change('MODIFY'))).toEqual([]);
    expect(entriesOf(change('REMOVE'))).toEqual([]);
  });

  it('a premium entry carries its commission into the statement: written, adjusted, and returned on a void', () => {
    for (const [type, amount, commission] of [
      ['premium_written', 1000, 150],
      ['premium_adjusted', -200, -30],
      ['premium_refunded', -1000, -150],
    ] as const) {
      expect(figuresOf({ type, amount, commission } as never).commission).toBe(commission);
    }
  });
});
