import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type Service } from '../../test/support/service.js';
import { claimShop, decide, fileClaim, protectedOrder, sessionToken } from '../../test/support/claims.js';

/** Issue 37: the console's search of the claims by a merchant's order number (GET /api/v2/admin/claims?client_id&order_number). */
let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.stop());

const staff = (group: string) => ({ sub: `u-${group}`, token_use: 'access', 'cognito:groups': [group] });
const search = (query: Record<string, string>, group = 'claims') =>
  service.call('claims-admin', { method: 'GET', path: '/api/v2/admin/claims', staffClaims: staff(group), query });

describe('GET /api/v2/admin/claims?client_id&order_number', () => {
  it("answers every claim of that merchant's order, oldest first, whatever its status, in the queue's shape", async () => {
    const shop = await claimShop(service, 'Search Shop');
    const order = await protectedOrder(service, shop, ['40.00', '60.00']);
    const token = await sessionToken(service, shop, order);
    const first = (await fileClaim(service, token, { policy_numbers: [order.policies[0]!.policy_number] })).json.claim_id as string;
    const second = (await fileClaim(service, token, { policy_numbers: [order.policies[1]!.policy_number] })).json.claim_id as string;
    expect((await decide(service, first, { decision: 'deny', note: 'Not covered.' })).status).toBe(200);
    // Another order of the same shop, with a claim of its own: not found by the first order's number.
    const other = await protectedOrder(service, shop, ['10.00']);
    await fileClaim(service, await sessionToken(service, shop, other), { policy_numbers: [other.policies[0]!.policy_number] });

    const res = await search({ client_id: shop.clientId, order_number: order.order_number });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ has_more: false, next_cursor: null });
    expect(res.json.data.map((c: { claim_id: string; status: string }) => [c.claim_id, c.status])).toEqual([
      [first, 'Denied'],
      [second, 'Submitted'],
    ]);
    expect(res.json.data[0]).toMatchObject({ order_number: order.order_number, client_name: 'Search Shop', service_order_id: order.service_order_id });
    expect(JSON.stringify(res.json)).not.toContain(order.email);
  });

  it('finds nothing (200, an empty list) for an unknown order number, an order without claims, or another merchant', async () => {
    const shop = await claimShop(service, 'Quiet Shop');
    const elsewhere = await claimShop(service, 'Other Shop');
    const order = await protectedOrder(service, shop, ['25.00']);
    await fileClaim(service, await sessionToken(service, shop, order), { policy_numbers: [order.policies[0]!.policy_number] });
    const unclaimed = await protectedOrder(service, shop, ['25.00']);
    for (const query of [
      { client_id: shop.clientId, order_number: 'no-such-order' },
      { client_id: shop.clientId, order_number: unclaimed.order_number },
      { client_id: elsewhere.clientId, order_number: order.order_number },
      { client_id: 'cl_ZZZZZZZZZZZZZZZZZZZZZZZZ', order_number: order.order_number },
    ]) {
      const res = await search(query);
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ data: [], has_more: false, next_cursor: null });
    }
  });

  it('refuses half a search, or one with a status or a cursor, naming the parameter', async () => {
    for (const [query, param] of [
      [{ order_number: 'N-1' }, 'client_id'],
      [{ client_id: 'cl_AAAAAAAAAAAAAAAAAAAAAAAA' }, 'order_number'],
      [{ client_id: 'cl_AAAAAAAAAAAAAAAAAAAAAAAA', order_number: 'N-1', status: 'Approved' }, 'status'],
      [{ client_id: 'cl_AAAAAAAAAAAAAAAAAAAAAAAA', order_number: 'N-1', cursor: 'abc' }, 'cursor'],
      // Two merchants at once (a repeated client_id reaches the handler joined by a comma), or no client id at all.
      [{ client_id: 'cl_AAAAAAAAAAAAAAAAAAAAAAAA,cl_BBBBBBBBBBBBBBBBBBBBBBBB', order_number: 'N-1' }, 'client_id'],
      [{ client_id: 'Shop X', order_number: 'N-1' }, 'client_id'],
    ] as const) {
      const res = await search(query);
      expect(res.status).toBe(422);
      expect(res.json.error).toMatchObject({ code: 'validation_failed', param, type: 'invalid_request_error' });
    }
  });

  it('is for the claims role, like the queue', async () => {
    const query = { client_id: 'cl_AAAAAAAAAAAAAAAAAAAAAAAA', order_number: 'N-1' };
    expect((await search(query, 'claims')).status).toBe(200);
    for (const group of ['finance', 'admin']) {
      const refused = await search(query, group);
      expect(refused.status).toBe(403);
      expect(refused.json.error.code).toBe('forbidden_role');
    }
  });
});
