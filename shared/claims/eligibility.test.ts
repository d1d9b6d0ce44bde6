import { describe, expect, it } from 'vitest';
import type { Order, OrderItem } from '../orders/index.js';
import { claimableItems, eligibilityOf, filingDeadline, signalsOf } from './claim.js';

const item = (number: string, event: Partial<NonNullable<OrderItem['event']>> | null, extra: Partial<OrderItem> = {}): OrderItem =>
  ({
    reference_number: number,
    name: 'Seat',
    cost: 10_000,
    event: event && { id: 'e', name: 'Gala', start_date: '2027-04-10', start_time: '19:30:00', end_date: null, end_time: null, location: null, ...event },
    policy: { policy_number: number, premium: 500, coverage_amount: 10_000, status: 'Issued', created: '2027-01-01T10:00:00.000Z', history: [] },
    position: 0,
    created: '2027-01-01T10:00:00.000Z',
    ...extra,
  }) as unknown as OrderItem;
const order = (...items: OrderItem[]): Order =>
  ({
    service_order_id: 'o',
    client_id: 'cl_a',
    order_number: 'n',
    currency: 'USD',
    created: '2027-01-01T10:00:00.000Z',
    items,
    claim_ids: [],
  }) as unknown as Order;

describe('eligibility', () => {
  it('a policy is claimable until 90 days after its event’s last day ends (UTC); without an event, always', () => {
    expect(filingDeadline(item('a', { end_date: '2027-04-12' }))!.toISOString()).toBe('2027-07-11T23:59:59.999Z');
    expect(filingDeadline(item('a', {}))!.toISOString()).toBe('2027-07-09T23:59:59.999Z');
    expect(filingDeadline(item('a', null))).toBeUndefined();
    const o = order(item('a', {}), item('b', null));
    expect(eligibilityOf(o, ['a', 'b'], new Date('2027-07-10T00:00:00Z'))).toMatchObject({
      eligible: false,
      failed_checks: ['filed_too_late'],
      claimable_amount: 10_000,
    });
  });

  it('after an exchange to another date, the claim window follows the event the new policy covers', () => {
    const replaced = item('old', {}, { replaced_by: 'new', policy: { ...item('old', {}).policy, status: 'Exchanged' } });
    const postponed = item('new', { start_date: '2027-06-20' });
    const o = order(replaced, postponed);
    const afterOldWindow = new Date('2027-07-10T00:00:00Z'); // past 90 days after 2027-04-10, within 90 days after 2027-06-20
    expect(eligibilityOf(o, ['new'], afterOldWindow)).toMatchObject({ eligible: true, failed_checks: [] });
    expect(eligibilityOf(o, ['old'], afterOldWindow).failed_checks).toEqual(['policy_not_issued', 'filed_too_late']);
  });

  it('names each failed check once, in a fixed order, with each policy’s own', () => {
    const o = order(item('a', {}, { open_claim: 'clm_x' }), item('b', {}, { policy: { ...item('b', {}).policy, status: 'Void' } }));
    const answer = eligibilityOf(o, ['b', 'a', 'zz'], new Date('2027-02-01T00:00:00Z'));
    expect(answer.failed_checks).toEqual(['policy_not_found', 'policy_not_issued', 'claim_open']);
    expect(answer.policies).toEqual([
      { policy_number: 'b', failed_checks: ['policy_not_issued'] },
      { policy_number: 'a', failed_checks: ['claim_open'] },
      { policy_number: 'zz', failed_checks: ['policy_not_found'] },
    ]);
  });

  it('a policy covering 0 fails nothing_covered, and is not offered among the claimable', () => {
    const free = item('f', {}, { cost: 0, policy: { ...item('f', {}).policy, premium: 0, coverage_amount: 0 } });
    const o = order(item('a', {}), free);
    expect(eligibilityOf(o, ['a', 'f'], new Date('2027-02-01T00:00:00Z'))).toMatchObject({
      eligible: false,
      failed_checks: ['nothing_covered'],
      claimable_amount: 10_000,
      policies: [
        { policy_number: 'a', failed_checks: [] },
        { policy_number: 'f', failed_checks: ['nothing_covered'] },
      ],
    });
    expect(claimableItems(o).map((claimable) => claimable.policy.policy_number)).toEqual(['a']);
  });

  it('refuses a list that names a policy twice, as filing does: 422 duplicate_policy on the second', () => {
    const o = order(item('a', {}), item('b', {}));
    expect(() => eligibilityOf(o, ['a', 'b', 'a'], new Date('2027-02-01T00:00:00Z'))).toThrow(
      expect.objectContaining({
        status: 422,
        code: 'duplicate_policy',
        param: 'policy_numbers[2]',
        message: 'policy_numbers[2]: names a a second time; name each policy once.',
      }),
    );
  });
});

describe('signals', () => {
  const later = new Date('2027-01-05T10:00:00Z');
  it('none for a claim days after buying a ticket to a later event, by a customer with no claim elsewhere', () => {
    const o = order(item('a', {}));
    expect(signalsOf(o, o.items, later, [{ client_id: 'cl_a', created: '2026-12-01T00:00:00Z' }])).toEqual([]);
  });

  it('another merchant’s claim within 365 days; a claim within 24 hours of buying; an event begun at purchase', () => {
    const o = order(item('a', { start_date: '2026-12-31', start_time: '09:00:00' }));
    const soon = new Date('2027-01-01T21:00:00Z');
    const signals = signalsOf(o, o.items, soon, [
      { client_id: 'cl_b', created: '2026-06-01T00:00:00Z' },
      { client_id: 'cl_c', created: '2025-12-31T00:00:00Z' }, // more than 365 days before: not counted
    ]);
    expect(signals).toEqual([
      { code: 'claimed_elsewhere', reason: 'The same customer (by e-mail) filed a claim at another merchant in the last 365 days, the latest on 2026-06-01.' },
      { code: 'filed_soon_after_purchase', reason: 'Filed 11 hours after the protection was bought (within 24 hours).' },
      { code: 'event_begun_at_purchase', reason: 'The event had already begun when the protection was bought (Gala).' },
    ]);
  });
});
