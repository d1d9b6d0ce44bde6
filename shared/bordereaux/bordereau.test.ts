import type { AuditRecord, StaffIdentity } from '../identity/index.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Claim } from '../claims/index.js';
import type { LedgerEntry } from '../ledger/index.js';
import { AMOUNT_COLUMNS, claimRow, csvLine, headerOf, isLiveClient, objectKeyOf, premiumRow, type BordereauExport } from './bordereau.js';
import { runExport, startExport } from './export-bordereau.js';

const entry = (over: Partial<LedgerEntry> = {}): LedgerEntry => ({
  id: 'le_1',
  type: 'premium_written',
  client_id: 'cli_1',
  created: '2026-11-30T23:59:59.999Z',
  period: '2026-11',
  currency: 'KWD',
  amount: 850,
  service_order_id: 'ord-1',
  policy_number: 'OP-AAAA-BBBB-CCCC',
  ...over,
});
const facts = { order_number: 'A-1', coverage_amount: 10_000, risk_start: '2026-11-02T10:00:00.000Z' };

describe('a premium row', () => {
  it('names the transaction, writes days and the amounts in the currency’s digits (a refund negative)', () => {
    expect(premiumRow(entry(), facts)).toEqual([
      'cli_1',
      'OP-AAAA-BBBB-CCCC',
      'ord-1',
      'A-1',
      'new',
      '2026-11-30',
      '2026-11-02',
      'KWD',
      '0.850',
      '10.000',
      '0.000',
      '1',
    ]);
    expect(premiumRow(entry({ commission: 128, terms_version: 3 }), facts).slice(-2)).toEqual(['0.128', '3']);
    expect(premiumRow(entry({ type: 'premium_refunded', amount: -850, commission: -128, terms_version: 3 }), facts).slice(-2)).toEqual(['-0.128', '3']);
    expect(premiumRow(entry({ type: 'premium_adjusted', amount: -199 }), facts)[4]).toBe('adjustment');
    const refund = premiumRow(entry({ type: 'premium_refunded', amount: -850, currency: 'JPY' }), facts);
    expect([refund[4], refund[8], refund[9]]).toEqual(['refund', '-850', '10000']);
  });

  it('is never made of a claim entry', () => {
    expect(() => premiumRow(entry({ type: 'claim_paid' }), facts)).toThrow(/not a premium/);
  });
});

describe('a claims row', () => {
  const claim = (status: Claim['status'], steps: Claim['status'][]): Claim => ({
    claim_id: 'clm_1',
    client_id: 'cli_1',
    service_order_id: 'ord-1',
    currency: 'USD',
    status,
    reason: 'illness',
    policies: [
      { policy_number: 'OP-1', reference_number: 's1', coverage_amount: 4000 },
      { policy_number: 'OP-2', reference_number: 's2', coverage_amount: 2500 },
    ],
    amount_claimed: 6500,
    amount_approved: 6000,
    history: steps.map((step, day) => ({ status: step, at: `2026-11-0${day + 1}T12:00:00.000Z`, by: 'operator' })),
    created: '2026-11-01T12:00:00.000Z',
    updated: '2026-11-03T12:00:00.000Z',
    version: steps.length,
  });

  it('shows the claim by its moves in the month: its status at the month’s end, what was approved and paid in it', () => {
    // Filed 1 November, approved 2 November, paid 3 December (`history` days: see claim()).
    const moved = claim('Paid', ['Submitted', 'Approved', 'Paid']);
    moved.history[2]!.at = '2026-12-03T12:00:00.000Z';
    expect(claimRow(moved, '2026-11')).toEqual(['clm_1', 'cli_1', 'OP-1 OP-2', 'Approved', 'illness', '2026-11-01', '65.00', '60.00', '', '', 'USD']);
    expect(claimRow(moved, '2026-12')).toEqual(['clm_1', 'cli_1', 'OP-1 OP-2', 'Paid', 'illness', '2026-11-01', '65.00', '', '60.00', '2026-12-03', 'USD']);
    // All in one month: approved and paid in it.
    expect(claimRow(claim('Paid', ['Submitted', 'Approved', 'Paid']), '2026-11').slice(3, 10)).toEqual([
      'Paid',
      'illness',
      '2026-11-01',
      '65.00',
      '60.00',
      '60.00',
      '2026-11-03',
    ]);
    expect(claimRow(claim('Denied', ['Submitted', 'Denied']), '2026-11').slice(3, 10)).toEqual(['Denied', 'illness', '2026-11-01', '65.00', '', '', '']);
  });
});

describe('CSV', () => {
  it('quotes commas, quotes and line breaks (RFC 4180) and ends each line with CRLF', () => {
    expect(csvLine(['a', 'b,c', 'say "hi"', 'two\nlines', 'cr\r'])).toBe('a,"b,c","say ""hi""","two\nlines","cr\r"\r\n');
    expect(headerOf('claims')).toBe(
      'claim_id,client_id,policy_numbers,status,reason,claim_date,amount_claimed,amount_approved,amount_paid,date_paid,currency\r\n',
    );
  });

  it('defuses text a spreadsheet would run as a formula, never an amount', () => {
    expect(csvLine(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', 'ok'])).toBe(`'=1+1,'+1,'-1,'@SUM(A1),"'\tx",ok\r\n`);
    const row = premiumRow(entry({ type: 'premium_refunded', amount: -850 }), { ...facts, order_number: '=cmd|"/c calc"!A1' });
    expect(csvLine(row, AMOUNT_COLUMNS.premium)).toBe(
      `cli_1,OP-AAAA-BBBB-CCCC,ord-1,"'=cmd|""/c calc""!A1",refund,2026-11-30,2026-11-02,KWD,-0.850,10.000,0.000,1\r\n`,
    );
  });
});

/** RFC 4180, as an insurer's import reads the file: one line's fields. */
function rfcFields(line: string): string[] {
  const fields: string[] = [];
  let at = 0;
  for (let n = 0; n <= line.length; n++) {
    if (line[at] === '"') {
      let end = at + 1;
      let text = '';
      for (; end < line.length; end++) {
        if (line[end] === '"' && line[end + 1] === '"') {
          text += '"';
          end++;
        } else if (line[end] === '"') break;
        else text += line[end];
      }
      fields.push(text);
      at = end + 1;
    } else {
      const comma = line.indexOf(',', at);
      fields.push(line.slice(at, comma === -1 ? line.length : comma));
      at = comma === -1 ? line.length : comma;
    }
    if (line[at] !== ',') return fields;
    at++;
  }
  return fields;
}

/** What a spreadsheet would run as a formula: a cell (quotes and blanks before it aside) opening with one of these. */
const FORMULA_LEAD = /^["\s]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20\uFE66\uFE62\uFE63\uFE6B]/u;
/** The cells a spreadsheet makes of a line when it splits on `separator` and ignores quotes, as a careless import does. */
const naiveCells = (line: string, separator: string) => line.replace(/\r\n$/, '').split(separator);
const SEPARATORS = [',', ';', '\t', '\r', '\n', '"'];
const risky = fc.string({
  unit: fc.oneof(
    fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', ',', ';', '"', "'", ' ', '\0', '＝', '＋', '－', '＠', '﹦'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  ),
  maxLength: 12,
});

describe('CSV injection (OWASP)', () => {
  it('neutralizes a formula after a separator and a full-width formula lead', () => {
    expect(csvLine(['x;=1+1'])).toBe(`"x;'=1+1"\r\n`);
    expect(csvLine(['＝1+1', '＠SUM(A1)', '－1', '＋1'])).toBe("'＝1+1,'＠SUM(A1),'－1,'＋1\r\n");
    expect(csvLine(['a,=HYPERLINK("http://x")', 'a\t+1', '\0=1'])).toBe(`"a,'=HYPERLINK(""http://x"")","a\t'+1",'\0=1\r\n`);
    expect(csvLine(['OP-AAAA-BBBB-CCCC', 'a@b.example', '2026-11-30'])).toBe('OP-AAAA-BBBB-CCCC,a@b.example,2026-11-30\r\n'); // nothing to defuse
  });

  it('leaves no cell a spreadsheet would run, whichever separator it splits on, and reads back whole under RFC 4180', () => {
    fc.assert(
      fc.property(fc.array(risky, { minLength: 1, maxLength: 4 }), (fields) => {
        const line = csvLine(fields);
        for (const separator of SEPARATORS)
          for (const cell of naiveCells(line, separator))
            expect(cell, `${JSON.stringify(line)} split on ${JSON.stringify(separator)}`).not.toMatch(FORMULA_LEAD);
        const read = rfcFields(line.replace(/\r\n$/, ''));
        expect(read).toHaveLength(fields.length);
        // Only apostrophes are added, each right before a formula lead.
        read.forEach((cell, i) => expect(cell.replaceAll("'", '')).toBe(fields[i]!.replaceAll("'", '')));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('exports', () => {
  const clock = { now: () => new Date('2026-11-25T12:00:00Z') };

  it('start only for a month that has begun, under a key of their own', async () => {
    const created: BordereauExport[] = [];
    const audits: AuditRecord[] = [];
    const deps = {
      exports: { create: async (e: BordereauExport, audit: AuditRecord) => void (created.push(e), audits.push(audit)) },
      clock,
      newId: () => 'bx_1',
    };
    const finance: StaffIdentity = { sub: 'u-1', email: 'fin@example.com', roles: ['finance'], kind: 'person' };
    const started = await startExport(deps, { period: '2026-11', kind: 'premium' }, finance);
    expect(started).toMatchObject({ export_id: 'bx_1', status: 'running', requested_by: 'fin@example.com', created: '2026-11-25T12:00:00.000Z' });
    // The staff action's audit record goes with the export's record, to be written in one transaction.
    expect(audits).toEqual([
      expect.objectContaining({
        actor: { sub: 'u-1', email: 'fin@example.com' },
        action: 'bordereau.exported',
        target: { type: 'bordereau', id: 'bx_1', detail: 'premium 2026-11' },
        at: '2026-11-25T12:00:00.000Z',
      }),
    ]);
    expect(objectKeyOf(started)).toBe('bordereaux/2026-11/premium-bx_1.csv');
    await expect(startExport(deps, { period: '2026-12', kind: 'premium' }, finance)).rejects.toMatchObject({ code: 'validation_failed', param: 'period' });
    expect(created).toHaveLength(1);
  });

  it('leave test-mode clients out, record the month’s state, and end failed, without the error’s words, when the upload fails', async () => {
    let state: BordereauExport = { export_id: 'bx_1', period: '2026-11', kind: 'premium', status: 'running', created: '', requested_by: 'ops' };
    const written: string[] = [];
    const sources = {
      ledger: {
        clientsOf: async function* () {
          yield* ['live', 'test'];
        },
        entriesOf: async function* (clientId: string) {
          yield entry({ client_id: clientId, ...facts });
        },
        claimsActiveIn: async function* () {},
      },
      clients: { get: async (id: string) => ({ public_key: id === 'live' ? 'pk_live_x' : 'pk_test_x' }) },
      claims: { getMany: async () => [] },
      policyFacts: () => Promise.reject(new Error('not needed')),
    };
    const exports = {
      get: async () => state,
      finish: async (_id: string, outcome: Partial<BordereauExport>) => {
        state = { ...state, ...outcome };
        return true;
      },
    };
    const put = async (_key: string, body: AsyncIterable<Buffer>) => {
      for await (const chunk of body) written.push(chunk.toString());
    };
    const done = await runExport({ exports, objects: { put }, sources, clock }, 'bx_1');
    expect(done).toMatchObject({ status: 'done', rows: 1, object_key: 'bordereaux/2026-11/premium-bx_1.csv' });
    expect(written.join('').split('\r\n')[1]).toMatch(/^live,/);
    expect(written.join('')).not.toContain('test,');
    expect(await runExport({ exports, objects: { put }, sources, clock }, 'bx_1')).toMatchObject({ status: 'done' }); // given again: left alone

    expect(state.period_status).toBe('open'); // November, read on 25 November

    state = { ...state, status: 'running' };
    const broken = async () => Promise.reject(Object.assign(new Error('Access denied to OP-SECRET'), { name: 'AccessDenied' }));
    expect(await runExport({ exports, objects: { put: broken }, sources, clock }, 'bx_1')).toMatchObject({ status: 'failed' });
    expect(state).toMatchObject({ status: 'failed', failure: 'The export stopped (AccessDenied); start it again.' });
  });

  it('take live keys only', () => {
    expect([isLiveClient({ public_key: 'pk_live_abc' }), isLiveClient({ public_key: 'pk_test_abc' })]).toEqual([true, false]);
  });
});
