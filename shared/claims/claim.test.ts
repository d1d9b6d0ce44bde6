import { describe, expect, it } from 'vitest';
import { decide, DOCUMENTS_WAIT_MS, eraseAt, markPaid, respond, TEXT_KEPT_MS, visibleText, withdraw, type Claim } from './claim.js';
import { auditDetail } from './claims.js';

/** The claim rules, pure: which moves each state allows, repeats, the wait before an unanswered denial, erasure. */
const start = new Date('2026-11-01T10:00:00.000Z');
const claim: Claim = {
  claim_id: 'clm_AAAAAAAAAAAAAAAAAAAAAAAA',
  client_id: 'cl_1',
  service_order_id: '00000000-0000-4000-8000-000000000000',
  currency: 'USD',
  status: 'Submitted',
  reason: 'illness',
  policies: [{ policy_number: 'OP-0000-0000-0001', reference_number: 'a', coverage_amount: 8000 }],
  amount_claimed: 8000,
  history: [{ status: 'Submitted', at: start.toISOString(), by: 'customer' }],
  created: start.toISOString(),
  updated: start.toISOString(),
  version: 1,
};
const at = (ms: number) => new Date(start.getTime() + ms);
const moved = (transition: ReturnType<typeof decide>) => {
  if (transition.unchanged) throw new Error('expected a move');
  return transition;
};

describe('decisions', () => {
  it('are made on a Submitted claim only: after any decision every other decision is refused', () => {
    const decisions = [
      { decision: 'approve' as const },
      { decision: 'approve' as const, amount: '50.00' },
      { decision: 'deny' as const },
      { decision: 'request_documents' as const, note: 'receipt' },
    ];
    for (const first of decisions) {
      const after = moved(decide(claim, first, at(1000), 'op')).claim;
      for (const second of decisions) {
        const same = JSON.stringify(first) === JSON.stringify(second) && first.decision !== 'request_documents';
        if (same) expect(decide(after, second, at(2000), 'op')).toEqual({ unchanged: true, claim: after });
        else expect(() => decide(after, second, at(2000), 'op')).toThrow(/claim_not_submitted|Documents were requested|only when it is Submitted/);
      }
    }
  });

  it('answer a repeat (the same decision, amount and note) with the claim as it is; a new note is refused, never dropped', () => {
    const approved = moved(decide(claim, { decision: 'approve', note: 'on the letter' }, at(1), 'op')).claim;
    expect(decide(approved, { decision: 'approve', note: 'on the letter' }, at(2), 'op', 'on the letter')).toEqual({ unchanged: true, claim: approved });
    expect(decide(approved, { decision: 'approve' }, at(2), 'op', 'on the letter')).toEqual({ unchanged: true, claim: approved });
    expect(() => decide(approved, { decision: 'approve', note: 'another' }, at(2), 'op', 'on the letter')).toThrow(/only when it is Submitted/);
    const asked = moved(decide(claim, { decision: 'request_documents', note: 'letter' }, at(1), 'op')).claim;
    expect(decide(asked, { decision: 'request_documents', note: 'letter' }, at(2), 'op', 'letter')).toEqual({ unchanged: true, claim: asked });
    expect(() => decide(asked, { decision: 'request_documents', note: 'other' }, at(2), 'op', 'letter')).toThrow(/only when it is Submitted/);
    const withdrawn = moved(withdraw(claim, at(1))).claim;
    expect(() => decide(withdrawn, { decision: 'deny' }, at(2), 'op')).toThrow(/only when it is Submitted/); // the customer's move, not a decision to repeat
  });

  it('approve: the claimed coverage by default, at most it, more than 0; Claimed policies', () => {
    expect(moved(decide(claim, { decision: 'approve' }, at(1), 'op'))).toMatchObject({
      claim: { status: 'Approved', amount_approved: 8000 },
      policies: 'claim',
      closes: false,
    });
    expect(() => decide(claim, { decision: 'approve', amount: '80.01' }, at(1), 'op')).toThrow(/at most/);
    for (const over of ['80.01', '1000000000000', '99999999999999999999999999']) {
      expect(() => decide(claim, { decision: 'approve', amount: over }, at(1), 'op'), over).toThrow(
        expect.objectContaining({ code: 'amount_exceeds_coverage', message: "amount must be at most the claimed policies' coverage, 80.00 USD." }),
      );
    }
    expect(() => decide(claim, { decision: 'approve', amount: '1.005' }, at(1), 'op')).toThrow(
      expect.objectContaining({ code: 'validation_failed', param: 'amount' }),
    );
    const nothing = { ...claim, amount_claimed: 0, policies: claim.policies.map((policy) => ({ ...policy, coverage_amount: 0 })) };
    expect(() => decide(nothing, { decision: 'approve' }, at(1), 'op')).toThrow(
      'The claimed policies cover 0.00 USD, so there is nothing to approve (deny the claim to pay nothing).',
    );
    expect(() => decide(claim, { decision: 'approve', amount: '0' }, at(1), 'op')).toThrow(/more than 0/);
  });

  it('deny a claim awaiting documents only once DOCUMENTS_WAIT_MS passed unanswered', () => {
    const asked = moved(decide(claim, { decision: 'request_documents', note: 'letter' }, at(0), 'op')).claim;
    expect(() => decide(asked, { decision: 'deny' }, at(DOCUMENTS_WAIT_MS - 1), 'op')).toThrow(/can be denied without them once 14 days/);
    expect(moved(decide(asked, { decision: 'deny' }, at(DOCUMENTS_WAIT_MS), 'op'))).toMatchObject({
      claim: { status: 'Denied' },
      policies: 'release',
      closes: true,
    });
    expect(() => decide(asked, { decision: 'approve' }, at(DOCUMENTS_WAIT_MS), 'op')).toThrow(/only when it is Submitted/);
    // The customer's answer puts it back in the queue.
    expect(moved(respond(asked, 'here it is', at(5))).claim.status).toBe('Submitted');
  });
});

describe('the customer and the payout', () => {
  it('withdraws an open claim (a repeat answers it as it is), never a decided one', () => {
    const withdrawn = moved(withdraw(claim, at(1))).claim;
    expect(withdrawn).toMatchObject({ status: 'Withdrawn', closed_at: at(1).toISOString(), version: 2 });
    expect(withdraw(withdrawn, at(2))).toEqual({ unchanged: true, claim: withdrawn });
    const approved = moved(decide(claim, { decision: 'approve' }, at(1), 'op')).claim;
    expect(() => withdraw(approved, at(2))).toThrow(/claim_decided|only a claim not yet decided/);
  });

  it('pays an approved claim once; the same reference again answers it as it is', () => {
    const approved = moved(decide(claim, { decision: 'approve' }, at(1), 'op')).claim;
    const paid = moved(markPaid(approved, 'P-1', at(2), 'op')).claim;
    expect(paid).toMatchObject({ status: 'Paid', payout_reference: 'P-1', closed_at: at(2).toISOString() });
    expect(markPaid(paid, 'P-1', at(3), 'op')).toEqual({ unchanged: true, claim: paid });
    expect(() => markPaid(paid, 'P-2', at(3), 'op')).toThrow(/only an Approved claim/);
    expect(() => markPaid(claim, 'P-1', at(3), 'op')).toThrow(/only an Approved claim/);
  });
});

describe('erasure', () => {
  it('hides the text from its erase time on, 90 days after closing', () => {
    const closedAt = at(0).toISOString();
    const text = { description: 'x', messages: [], erase_at: eraseAt(closedAt) };
    expect(visibleText(text, at(TEXT_KEPT_MS - 1))).toBe(text);
    expect(visibleText(text, at(TEXT_KEPT_MS))).toBeUndefined();
    expect(visibleText({ description: 'open', messages: [] }, at(100 * TEXT_KEPT_MS))?.description).toBe('open');
  });
});

describe('the audit detail of a staff move', () => {
  it('names the status and the amount approved or paid in the claim currency’s digits, never the payout reference (free text)', () => {
    expect(auditDetail({ ...claim, status: 'Approved', amount_approved: 5000 })).toBe('Approved 50.00 USD');
    expect(auditDetail({ ...claim, currency: 'JPY', status: 'Approved', amount_approved: 5000 })).toBe('Approved 5000 JPY');
    expect(auditDetail({ ...claim, status: 'Paid', amount_approved: 8000, payout_reference: 'P-77 ann@example.org' })).toBe('Paid 80.00 USD');
    expect(auditDetail({ ...claim, status: 'Denied' })).toBe('Denied');
    expect(auditDetail({ ...claim, status: 'DocumentsRequested' })).toBe('DocumentsRequested');
  });
});
