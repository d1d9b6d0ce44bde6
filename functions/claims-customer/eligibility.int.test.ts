import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimEligibility } from '#shared/claims/claims.js';
import { DynamoOrderStore } from '#shared/orders/dynamo-order-store.js';
import { startService, uniqueOrderNumber, type Service } from '../../test/support/service.js';
import { asOperator, claimShop, fileClaim, openSession, protectedOrder, sessionToken, type ClaimShop } from '../../test/support/claims.js';

/**
 * Issue 39, eligibility and signals: the checks before filing (GET /api/v2/claims/eligibility),
 * filing refused more than 90 days after the event's end (a moved clock), and the signals staff see:
 * the same customer at another merchant, a claim soon after the purchase, an event begun at purchase.
 */
let service: Service;
let shop: ClaimShop;
beforeAll(async () => {
  service = await startService();
  shop = await claimShop(service, 'Eligibility Arena');
});
afterAll(() => service.stop());

const eligibility = (token: string, policyNumbers: string) =>
  service.call('claims-customer', {
    method: 'GET',
    path: '/api/v2/claims/eligibility',
    headers: { authorization: `Bearer ${token}` },
    query: { policy_numbers: policyNumbers },
  });

describe('eligibility before filing', () => {
  it('answers the checks filing runs, and what the claimable policies cover; nothing is written', async () => {
    const order = await protectedOrder(service, shop, ['80.00', '40.00']);
    const token = await sessionToken(service, shop, order);
    const [first, second] = order.policies.map((policy) => policy.policy_number) as [string, string];
    const both = await eligibility(token, `${first},${second}`);
    expect(both.status, both.body).toBe(200);
    expect(both.json).toEqual({
      eligible: true,
      failed_checks: [],
      claimable_amount: '120.00',
      currency: 'USD',
      policies: [
        { policy_number: first, failed_checks: [] },
        { policy_number: second, failed_checks: [] },
      ],
    });
    const rows = await service.rowCount();
    expect((await eligibility(token, first)).status).toBe(200);
    expect(await service.rowCount()).toBe(rows);

    expect((await fileClaim(service, token, { policy_numbers: [first] })).status).toBe(201);
    const after = await eligibility(token, `${first},${second},OP-0000-0000-0000`);
    expect(after.json).toMatchObject({ eligible: false, failed_checks: ['policy_not_found', 'claim_open'], claimable_amount: '40.00' });
    for (const bad of ['', 'op-1', `${first},nope`, Array.from({ length: 97 }, () => first).join(',')]) {
      const res = await eligibility(token, bad);
      expect([res.status, res.json.error.param], bad).toEqual([422, expect.stringMatching(/^policy_numbers/)]); // the entry, when one is wrong
    }
    // A list filing refuses (one policy twice) is refused alike, not answered eligible.
    const twice = await eligibility(token, `${second},${second}`);
    expect([twice.status, twice.json.error.code, twice.json.error.param]).toEqual([422, 'duplicate_policy', 'policy_numbers[1]']);
    const filedTwice = await fileClaim(service, token, { policy_numbers: [second, second] });
    expect([filedTwice.status, filedTwice.json.error.code, filedTwice.json.error.message]).toEqual([
      422,
      'duplicate_policy',
      `policy_numbers[1]: names ${second} a second time; name each policy once.`,
    ]);
    expect((await service.call('claims-customer', { method: 'GET', path: '/api/v2/claims/eligibility', query: { policy_numbers: first } })).status).toBe(401);
  });

  it('a policy covering 0 (its item cost nothing) is not offered, not eligible (nothing_covered) and not filed; the order stays free to cancel', async () => {
    const order = await protectedOrder(service, shop, ['30.00', '0.00']);
    const [paid, free] = order.policies.map((policy) => policy.policy_number) as [string, string];
    expect(order.policies[1]!.coverage_amount).toBe('0.00');
    const session = await openSession(service, { order_number: order.order_number, email: order.email, public_key: shop.publicKey });
    expect(session.json.policies.map((policy: { policy_number: string }) => policy.policy_number)).toEqual([paid]);
    const token = await sessionToken(service, shop, order);
    const checked = await eligibility(token, `${paid},${free}`);
    expect(checked.json).toMatchObject({
      eligible: false,
      failed_checks: ['nothing_covered'],
      claimable_amount: '30.00',
      policies: [
        { policy_number: paid, failed_checks: [] },
        { policy_number: free, failed_checks: ['nothing_covered'] },
      ],
    });
    const filed = await fileClaim(service, token, { policy_numbers: [paid, free] });
    expect([filed.status, filed.json.error.code, filed.json.error.param, filed.json.error.failed_checks]).toEqual([
      422,
      'claim_not_eligible',
      'policy_numbers[1]',
      ['nothing_covered'],
    ]);
    expect(filed.json.error.message).toBe('The policy covers 0.00 USD (its item cost nothing), so there is nothing to claim.');
    // Nothing was filed, so nothing holds the order: the merchant voids it.
    const voided = await service.call('orders-cancel', {
      method: 'POST',
      path: `/api/v2/orders/${order.service_order_id}/cancel`,
      pathParameters: { id: order.service_order_id },
      clientId: shop.clientId,
      body: { mode: 'void' },
    });
    expect(voided.status, voided.body).toBe(200);
  });

  it('more than 90 days after the event ends: filed_too_late, and filing is 422 claim_not_eligible', async () => {
    const order = await protectedOrder(service, shop, ['25.00']);
    const token = await sessionToken(service, shop, order);
    const number = order.policies[0]!.policy_number;
    const session = { clientId: shop.clientId, orderId: order.service_order_id };
    const orders = new DynamoOrderStore(service.tables.doc, service.tables.main, service.tables.metrics);
    // The test cart's event is on 2027-04-10: claimable through 2027-07-09.
    const at = (iso: string) => ({ orders, clock: { now: () => new Date(iso) } });
    expect(await claimEligibility(at('2027-07-09T23:59:59.000Z'), session, [number])).toMatchObject({ eligible: true });
    expect(await claimEligibility(at('2027-07-10T00:00:00.000Z'), session, [number])).toMatchObject({
      eligible: false,
      failed_checks: ['filed_too_late'],
      claimable_amount: 0,
    });
    const { fileClaimOnOrder } = await import('#shared/claims/claims.js');
    const { DynamoClaimStore } = await import('#shared/claims/dynamo-claim-store.js');
    const late = fileClaimOnOrder(
      {
        orders,
        claims: new DynamoClaimStore(service.tables.doc, service.tables.main),
        claimId: () => 'clm_late',
        clock: at('2027-07-10T00:00:00.000Z').clock,
        customerKey: async () => 'k',
      },
      session,
      { policy_numbers: [number], reason: 'illness', description: 'Too late.' },
    );
    await expect(late).rejects.toMatchObject({ status: 422, code: 'claim_not_eligible', failedChecks: ['filed_too_late'], param: 'policy_numbers[0]' });
    expect((await eligibility(token, number)).json.eligible).toBe(true); // today, well before
  });
});

describe('signals for staff', () => {
  it('the same customer at another merchant, a claim within 24 hours of buying, an event begun at purchase: with reasons, never refusals', async () => {
    const elsewhere = await claimShop(service, 'Another Merchant');
    const there = await protectedOrder(service, elsewhere, ['30.00'], 'Sam.Ple@Example.org');
    expect((await fileClaim(service, await sessionToken(service, elsewhere, there), { policy_numbers: [there.policies[0]!.policy_number] })).status).toBe(201);

    // Here the same customer (another case of the same address) bought a ticket for an event already under way.
    const res = await service.call('orders-create', {
      method: 'POST',
      path: '/api/v2/orders',
      clientId: shop.clientId,
      body: {
        order_number: uniqueOrderNumber('sig'),
        currency: 'USD',
        items: [
          {
            name: 'Festival pass',
            reference_number: 'p1',
            cost: '60.00',
            event: { name: 'Summer Festival', start_date: '2026-01-02', start_time: '10:00', end_date: '2027-12-31', location: 'Park' },
          },
        ],
        customer: { email: 'sam.ple@example.org' },
      },
    });
    expect(res.status, res.body).toBe(201);
    const order = { order_number: res.json.order_number as string, email: 'sam.ple@example.org' };
    const filed = await fileClaim(service, await sessionToken(service, shop, order), { policy_numbers: [res.json.policies[0].policy_number] });
    expect(filed.status, filed.body).toBe(201);
    expect(filed.json).not.toHaveProperty('signals'); // the customer never sees them

    const seen = await asOperator(service, 'GET', `/api/v2/admin/claims/${filed.json.claim_id}`);
    expect(seen.json.signals.map((signal: { code: string }) => signal.code)).toEqual([
      'claimed_elsewhere',
      'filed_soon_after_purchase',
      'event_begun_at_purchase',
    ]);
    for (const signal of seen.json.signals) expect(signal.reason).toMatch(/\w+/);
    expect(JSON.stringify(seen.json.signals)).not.toMatch(/sam\.ple|example\.org/i);
    const queue = await asOperator(service, 'GET', '/api/v2/admin/claims', undefined, { limit: '100' });
    expect(queue.json.data.find((claim: { claim_id: string }) => claim.claim_id === filed.json.claim_id).signals).toHaveLength(3);
    // The merchant's claim elsewhere carries no signal of this later one, and its own first claim none of another merchant.
    const firstId = String((await service.scanBoth()).find((r) => r.entity === 'claim' && r.client_id === elsewhere.clientId)!.claim_id);
    const first = await asOperator(service, 'GET', `/api/v2/admin/claims/${firstId}`);
    expect(first.json.signals.map((signal: { code: string }) => signal.code)).toEqual(['filed_soon_after_purchase']);
  });
});
