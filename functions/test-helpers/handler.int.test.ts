import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asCustomer, fileClaim, sessionToken, type ClaimShop } from '../../test/support/claims.js';
import { cartItems, startService, uniqueOrderNumber, type Service } from '../../test/support/service.js';

/**
 * The test helpers through their handler: an order made older so that a void is past its look
 * period, a claim decided as the operator would, and what they refuse (a live client, another
 * client's order or claim, days outside 1–400).
 */
let service: Service;
let shop: ClaimShop;
let live: ClaimShop;
let other: ClaimShop;
beforeAll(async () => {
  service = await startService();
  const keys = async (name: string, mode?: 'live') => {
    const client = await service.newClient(name, undefined, mode);
    return { clientId: client.client_id, publicKey: client.public_key };
  };
  shop = await keys('Test Shop');
  live = await keys('Live Shop', 'live');
  other = await keys('Other Test Shop');
});
afterAll(() => service.stop());

const email = 'tess.helper@example.org';
async function order(owner: ClaimShop, costs = ['80.00', '45.00']) {
  const order_number = uniqueOrderNumber('th');
  const res = await service.call('orders-create', {
    method: 'POST',
    path: '/api/v2/orders',
    clientId: owner.clientId,
    body: { order_number, currency: 'USD', items: cartItems(...costs), customer: { email } },
  });
  expect(res.status, res.body).toBe(201);
  return { ...res.json, order_number, email } as {
    service_order_id: string;
    order_number: string;
    email: string;
    created: string;
    policies: { policy_number: string; void_until: string; history: { at: string }[] }[];
  };
}
const advance = (owner: ClaimShop, id: string, body: unknown, headers: Record<string, string> = {}) =>
  service.call('test-helpers', {
    method: 'POST',
    path: `/api/v2/test_helpers/orders/${id}/advance`,
    pathParameters: { id },
    clientId: owner.clientId,
    body,
    headers,
  });
const readOrder = (owner: ClaimShop, id: string) =>
  service.call('orders-read', { method: 'GET', path: `/api/v2/orders/${id}`, pathParameters: { id }, clientId: owner.clientId });
const decide = (owner: ClaimShop, id: string, body: unknown) =>
  service.call('test-helpers', { method: 'POST', path: `/api/v2/test_helpers/claims/${id}/decision`, pathParameters: { id }, clientId: owner.clientId, body });
const voidPolicy = (owner: ClaimShop, policy: string) =>
  service.call('policies-settle', {
    method: 'POST',
    path: `/api/v2/policies/${policy}/void`,
    pathParameters: { policy_number: policy, action: 'void' },
    clientId: owner.clientId,
  });

describe('test helpers', () => {
  it('advance: the order is `days` older, so a void after it is past the look period (409 look_period_over)', async () => {
    const placed = await order(shop);
    const res = await advance(shop, placed.service_order_id, { days: 30 });
    expect(res.status, res.body).toBe(200);
    const days = (a: string, b: string) => (Date.parse(a) - Date.parse(b)) / 86_400_000;
    expect(days(placed.created, res.json.created)).toBe(30);
    expect(days(placed.policies[0]!.void_until, res.json.policies[0].void_until)).toBe(30);
    expect(days(placed.policies[0]!.history[0]!.at, res.json.policies[0].history[0].at)).toBe(30);
    const read = await service.call('orders-read', {
      method: 'GET',
      path: `/api/v2/orders/${placed.service_order_id}`,
      pathParameters: { id: placed.service_order_id },
      clientId: shop.clientId,
    });
    expect(read.json).toEqual(res.json);
    const refused = await voidPolicy(shop, placed.policies[0]!.policy_number);
    expect(refused.status).toBe(409);
    expect(refused.json.error.code).toBe('look_period_over');
    // A cancel still works (it refunds nothing), and the list finds the order at its new time.
    const listed = await service.call('orders-list', {
      method: 'GET',
      path: '/api/v2/orders',
      clientId: shop.clientId,
      query: { created_lt: placed.created, limit: '10' },
    });
    expect(listed.json.data.map((o: { service_order_id: string }) => o.service_order_id)).toContain(placed.service_order_id);
  });

  it('refuses a live client (403 test_mode_only), another client’s order or claim (404), and days outside 1–400 (422)', async () => {
    const liveOrder = await order(live);
    for (const res of [
      await advance(live, liveOrder.service_order_id, { days: 1 }),
      await decide(live, 'clm_000000000000000000000000', { decision: 'deny' }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.json.error).toMatchObject({ type: 'invalid_request_error', code: 'test_mode_only' });
    }
    const mine = await order(shop);
    expect((await advance(other, mine.service_order_id, { days: 1 })).json.error.code).toBe('order_not_found');
    for (const days of [0, 401, 1.5, '3', -1, null]) {
      const res = await advance(shop, mine.service_order_id, { days });
      expect(res.status, JSON.stringify(days)).toBe(422);
      expect(res.json.error.param).toBe('days');
    }
    expect((await advance(shop, mine.service_order_id, { days: 1, extra: true })).status).toBe(422);
    const token = await sessionToken(service, shop, mine);
    const claim = await fileClaim(service, token, { policy_numbers: [mine.policies[0]!.policy_number] });
    expect((await decide(other, claim.json.claim_id, { decision: 'approve' })).json.error.code).toBe('claim_not_found');
  });

  it('reads the body before the client’s mode (docs/api.md): a live client’s malformed request gets the body’s 422, a well-formed one 403', async () => {
    const liveOrder = await order(live);
    const malformed = [
      await advance(live, liveOrder.service_order_id, { days: 0 }),
      await advance(live, liveOrder.service_order_id, { days: 1, extra: true }),
      await decide(live, 'clm_000000000000000000000000', { decision: 'maybe' }),
    ];
    expect(malformed.map((res) => [res.status, res.json.error.code])).toEqual([
      [422, 'validation_failed'],
      [422, 'validation_failed'],
      [422, 'validation_failed'],
    ]);
    expect((await advance(live, liveOrder.service_order_id, { days: 1 })).json.error.code).toBe('test_mode_only');
    expect((await decide(live, 'clm_000000000000000000000000', { decision: 'deny' })).json.error.code).toBe('test_mode_only');
  });

  it('advance with an Idempotency-Key: a retry replays the first answer and ages the order once; the same key with other days is 422', async () => {
    const placed = await order(shop);
    const key = { 'idempotency-key': `advance-${placed.service_order_id}` };
    const first = await advance(shop, placed.service_order_id, { days: 5 }, key);
    const again = await advance(shop, placed.service_order_id, { days: 5 }, key);
    expect(first.status, first.body).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json).toEqual(first.json);
    expect((await readOrder(shop, placed.service_order_id)).json.created).toBe(first.json.created);
    expect((Date.parse(placed.created) - Date.parse(first.json.created)) / 86_400_000).toBe(5);
    const reused = await advance(shop, placed.service_order_id, { days: 6 }, key);
    expect(reused.status).toBe(422);
    expect(reused.json.error.code).toBe('idempotency_key_reused');
  });

  it('advance stays within 400 days in all, and an order of 100 item records is refused whole (order_too_large_to_advance)', async () => {
    const placed = await order(shop);
    expect((await advance(shop, placed.service_order_id, { days: 399 })).status).toBe(200);
    const past = await advance(shop, placed.service_order_id, { days: 2 });
    expect(past.status).toBe(422);
    expect(past.json.error).toMatchObject({ code: 'validation_failed', param: 'days' });
    expect(past.json.error.message).toContain('at most 1 more');
    expect((await advance(shop, placed.service_order_id, { days: 1 })).status).toBe(200);
    expect((Date.parse(placed.created) - Date.parse((await readOrder(shop, placed.service_order_id)).json.created)) / 86_400_000).toBe(400);

    // The most an order holds over its life: 96 at checkout, then 4 exchanged (the replaced items stay as records).
    const largest = await order(
      shop,
      Array.from({ length: 96 }, () => '10.00'),
    );
    const exchanged = await service.call('orders-change', {
      method: 'PATCH',
      path: `/api/v2/orders/${largest.service_order_id}/`,
      pathParameters: { id: largest.service_order_id },
      clientId: shop.clientId,
      body: { items: [1, 2, 3, 4].map((n) => ({ name: `Seat ${n}`, old_reference_number: `seat-${n}`, reference_number: `seat-${n}b`, cost: '12.00' })) },
    });
    expect(exchanged.status, exchanged.body).toBe(200);
    const before = (await readOrder(shop, largest.service_order_id)).json;
    const refused = await advance(shop, largest.service_order_id, { days: 1 });
    expect(refused.status).toBe(422);
    expect(refused.json.error.code).toBe('order_too_large_to_advance');
    expect((await readOrder(shop, largest.service_order_id)).json).toEqual(before); // nothing moved
  });

  it('decision: a test claim decided by the helper shows Approved to the customer', async () => {
    const placed = await order(shop);
    const token = await sessionToken(service, shop, placed);
    const claim = await fileClaim(service, token, { policy_numbers: [placed.policies[1]!.policy_number] });
    expect(claim.status, claim.body).toBe(201);
    const decided = await decide(shop, claim.json.claim_id, { decision: 'approve', amount: '40.00', note: 'Approved by the test helper.' });
    expect(decided.status, decided.body).toBe(200);
    expect(decided.json).toMatchObject({ claim_id: claim.json.claim_id, status: 'Approved', amount_approved: '40.00' });
    expect(decided.json.description).toBeUndefined(); // facts only: the customer's text is not the merchant's
    const seen = await asCustomer(service, token, 'GET', `/api/v2/claims/${claim.json.claim_id}`);
    expect(seen.json).toMatchObject({ status: 'Approved', amount_approved: '40.00' });
    expect((await decide(shop, claim.json.claim_id, { decision: 'deny' })).json.error.code).toBe('claim_not_submitted');
  });
});
