import { describe, expect, it } from 'vitest';
import type { RecordChange } from '../platform/record-change.js';
import { bookedIn, claimActivityOf, entriesOf, figuresAfter, groupByStatement, netPremiumOf, openingEntriesOf, statementStatus } from './ledger.js';

/** Which changes write which entries, and when a statement closes: the rules, without a table. */
const order = { client_id: 'cl_1', order_id: 'o-1' };
const item = (policy: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  entity: 'item',
  currency: 'JPY',
  minor_units: true,
  reference_number: 'a',
  cost: 1234,
  policy: { policy_number: 'OP-1', premium: 105, coverage_amount: 1234, status: 'Issued', created: '2026-11-30T23:59:59.999Z', history: [], ...policy },
  ...extra,
});
const change = (kind: RecordChange['kind'], after?: Record<string, unknown>, before?: Record<string, unknown>): RecordChange => ({
  changeId: 'c1',
  kind,
  at: '2026-12-01T00:00:01.000Z',
  order,
  ...(after ? { after } : {}),
  ...(before ? { before } : {}),
});

describe('ledger entries', () => {
  it('a policy Issued at checkout: premium_written of its premium, in the month it was created (not the month it is read)', () => {
    const [entry, ...none] = entriesOf(change('INSERT', item({})));
    expect(none).toEqual([]);
    expect(entry).toMatchObject({
      type: 'premium_written',
      amount: 105,
      currency: 'JPY',
      period: '2026-11',
      created: '2026-11-30T23:59:59.999Z',
      policy_number: 'OP-1',
      service_order_id: 'o-1',
    });
    expect(entry!.id).toMatch(/^le_[\w-]{24}$/);
    expect(entriesOf(change('INSERT', item({})))[0]!.id).toBe(entry!.id); // the same change again: the same entry
  });

  it('a policy a PATCH issued: premium_adjusted of its signed delta; a void: premium_refunded of − refund_due; a cancel: nothing', () => {
    expect(entriesOf(change('INSERT', item({ change_type: 'downgrade', premium: 85, premium_delta: -20 })))[0]).toMatchObject({
      type: 'premium_adjusted',
      amount: -20,
    });
    const voided = item({ status: 'Void', refund_due: 105, history: [{ status: 'Void', at: '2026-12-02T10:00:00.000Z', reason: 'other' }] });
    expect(entriesOf(change('MODIFY', voided, item({})))[0]).toMatchObject({ type: 'premium_refunded', amount: -105, period: '2026-12' });
    expect(entriesOf(change('MODIFY', item({ status: 'Canceled', refund_due: 0 }), item({})))).toEqual([]);
    expect(entriesOf(change('MODIFY', voided, voided))).toEqual([]); // not a move
    expect(entriesOf(change('MODIFY', item({ status: 'Upgraded' }), item({})))).toEqual([]);
    expect(entriesOf(change('REMOVE', undefined, item({})))).toEqual([]);
  });

  it('reads an item stored before amounts counted minor units in minor units; one without a currency predates the ledger', () => {
    const legacy = item({ premium: 10_489 }, { minor_units: undefined });
    expect(entriesOf(change('INSERT', legacy))[0]).toMatchObject({ amount: 105 });
    expect(entriesOf(change('INSERT', item({}, { currency: undefined })))).toEqual([]);
  });

  it('a claim approved or paid: its approved amount, once per move', () => {
    const claim = (status: string) => ({
      entity: 'claim',
      minor_units: true,
      claim_id: 'clm_1',
      client_id: 'cl_1',
      service_order_id: 'o-1',
      currency: 'KWD',
      status,
      amount_claimed: 12_345,
      amount_approved: 10_000,
      policies: [{ policy_number: 'OP-1', reference_number: 'a', coverage_amount: 12_345 }],
      updated: '2026-11-15T12:00:00.000Z',
    });
    const approved = entriesOf({ changeId: 'x', kind: 'MODIFY', at: '', after: claim('Approved'), before: claim('Submitted') });
    expect(approved).toMatchObject([{ type: 'claim_approved', amount: 10_000, currency: 'KWD', claim_id: 'clm_1' }]);
    expect(entriesOf({ changeId: 'y', kind: 'MODIFY', at: '', after: claim('Paid'), before: claim('Approved') })).toMatchObject([
      { type: 'claim_paid', amount: 10_000 },
    ]);
    expect(entriesOf({ changeId: 'z', kind: 'MODIFY', at: '', after: claim('Approved'), before: claim('Approved') })).toEqual([]);
    expect(entriesOf({ changeId: 'w', kind: 'INSERT', at: '', after: claim('Submitted') })).toEqual([]);
  });

  it('a remittance: + its amount when recorded, − its amount once when reversed, in the reversal’s month, under another id', () => {
    const paid = {
      entity: 'remittance',
      client_id: 'cl_1',
      reference: 'SEPA/77',
      currency: 'EUR',
      amount: 12_000,
      received_on: '2026-11-27',
      recorded_at: '2026-11-28T10:00:00.000Z',
    };
    const reversed = { ...paid, reversal: { at: '2026-12-02T08:00:00.000Z', reason: 'returned' } };
    const [received] = entriesOf({ changeId: 'r1', kind: 'INSERT', at: '', after: paid });
    expect(received).toMatchObject({ type: 'remittance_received', amount: 12_000, period: '2026-11', reference: 'SEPA/77' });
    const [back] = entriesOf({ changeId: 'r2', kind: 'MODIFY', at: '', after: reversed, before: paid });
    expect(back).toMatchObject({ type: 'remittance_reversed', amount: -12_000, period: '2026-12', created: '2026-12-02T08:00:00.000Z' });
    expect(back!.id).not.toBe(received!.id);
    expect(entriesOf({ changeId: 'r3', kind: 'MODIFY', at: '', after: reversed, before: reversed })).toEqual([]);
  });
});

describe('statements', () => {
  it('add a batch per (client, month, currency), only what lies after the watermark', () => {
    const written = entriesOf(change('INSERT', item({})))[0]!;
    const refunded = { ...written, id: 'le_2', type: 'premium_refunded' as const, amount: -105 };
    const groups = groupByStatement([
      { position: '01', entry: written },
      { position: '02', entry: refunded },
      { position: '03', entry: { ...written, id: 'le_3', currency: 'USD' } },
    ]);
    expect(groups.map((g) => [g.currency, g.day, g.entries.length])).toEqual([
      ['JPY', '2026-11-30', 2],
      ['USD', '2026-11-30', 1],
    ]);
    const all = figuresAfter(groups[0]!, undefined);
    expect(all).toMatchObject({ last: '02', figures: { premiums_written: 105n, premiums_refunded: 105n, policies_issued: 1n, policies_voided: 1n } });
    expect(netPremiumOf(all.figures)).toBe(0n);
    expect(figuresAfter(groups[0]!, '01')).toMatchObject({ last: '02', figures: { premiums_written: 0n, premiums_refunded: 105n } });
    expect(figuresAfter(groups[0]!, '02')).toEqual({ figures: expect.any(Object) }); // nothing left: no `last`
  });

  it('are open until 00:00 UTC on the 5th of the next month, then closed; a month not begun is not a statement', () => {
    expect(statementStatus('2026-11', new Date('2026-11-25T00:00:00Z'))).toBe('open');
    expect(statementStatus('2026-11', new Date('2026-12-04T23:59:59.999Z'))).toBe('open');
    expect(statementStatus('2026-11', new Date('2026-12-05T00:00:00Z'))).toBe('closed');
    expect(statementStatus('2026-12', new Date('2027-01-05T00:00:00Z'))).toBe('closed'); // December → 5 January
    expect(statementStatus('2026-12', new Date('2026-11-30T23:59:59Z'))).toBe('future');
  });
});

describe('an entry derived after the fact (the opening balance)', () => {
  it('keeps its move’s time while that month is open; once it has closed, is booked at the moment it is written, in the open month, with the same id', () => {
    const [written] = openingEntriesOf(item({ created: '2026-11-20T10:00:00.000Z' }), order);
    expect(bookedIn(written!, new Date('2026-12-04T23:59:59.999Z'))).toEqual(written);
    const late = bookedIn(written!, new Date('2026-12-05T00:00:00.000Z'));
    expect(late).toEqual({ ...written, created: '2026-12-05T00:00:00.000Z', period: '2026-12' });
    expect(late).toMatchObject({ id: written!.id, risk_start: '2026-11-20T10:00:00.000Z' });
  });
});

describe('the bordereaux marks', () => {
  it('an entry keeps its order number, cover and risk start for the premium bordereau (when the item carries its order number)', () => {
    const [entry] = entriesOf(change('INSERT', item({}, { order_number: 'A-77' })));
    expect(entry).toMatchObject({ order_number: 'A-77', coverage_amount: 1234, risk_start: '2026-11-30T23:59:59.999Z' });
    expect(entriesOf(change('INSERT', item({})))[0]!.order_number).toBeUndefined();
  });

  it('a claim is active in the month of each new status, not of a change that keeps it', () => {
    const claim = (status: string, updated: string) => ({ entity: 'claim', claim_id: 'clm_1', client_id: 'cl_1', status, updated });
    expect(claimActivityOf(change('INSERT', claim('Submitted', '2026-11-30T23:59:59.999Z')))).toEqual({
      client_id: 'cl_1',
      period: '2026-11',
      claim_id: 'clm_1',
    });
    expect(claimActivityOf(change('MODIFY', claim('Approved', '2026-12-01T00:00:00.000Z'), claim('Submitted', '2026-11-30T23:59:59.999Z')))).toEqual({
      client_id: 'cl_1',
      period: '2026-12',
      claim_id: 'clm_1',
    });
    expect(claimActivityOf(change('MODIFY', claim('Submitted', '2026-12-02T00:00:00.000Z'), claim('Submitted', '2026-11-30T00:00:00.000Z')))).toBeUndefined();
    expect(claimActivityOf(change('INSERT', item({})))).toBeUndefined();
  });
});
