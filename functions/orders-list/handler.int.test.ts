import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { LIST_SHARDS } from '#shared/platform/dynamo/keys.js';
import { countRoundTrips } from '../../bench/meters/round-trips.js';
import { cartItems, quoteFor, startService, uniqueOrderNumber, type Service } from '../../test/support/service.js';

/** GET /api/v2/orders over DynamoDB Local: newest first, whole orders, cursors bound to client and filters. */
let service: Service;

beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.stop());

const list = (clientId: string, query: Record<string, string> = {}) => service.call('orders-list', { method: 'GET', path: '/api/v2/orders', clientId, query });
const create = async (clientId: string, orderNumber = uniqueOrderNumber('lst'), costs = ['10.00']) => {
  const res = await service.call('orders-create', {
    method: 'POST',
    path: '/api/v2/orders',
    clientId,
    body: { order_number: orderNumber, currency: 'USD', items: cartItems(...costs) },
  });
  if (res.status !== 201) throw new Error(res.body);
  return res.json as { service_order_id: string; created: string; policies: { policy_number: string }[] };
};

describe('paging', () => {
  it('returns 250 orders by pages of 100 each exactly once, newest first, one Query per list shard per page', async () => {
    const { client_id } = await service.newClient('Busy Shop');
    for (let batch = 0; batch < 10; batch++) await Promise.all(Array.from({ length: 25 }, () => create(client_id, undefined, ['10.00', '20.00'])));
    const counter = countRoundTrips(sharedDocumentClient());

    const seen: { id: string; created: string }[] = [];
    const queriesPerPage: number[] = [];
    let cursor: string | undefined;
    do {
      counter.reset();
      const page = await list(client_id, { limit: '100', ...(cursor ? { cursor } : {}) });
      queriesPerPage.push(counter.count);
      expect(page.status).toBe(200);
      seen.push(
        ...page.json.data.map((order: { service_order_id: string; created: string; items: unknown[] }) => {
          expect(order.items).toHaveLength(2); // whole orders
          return { id: order.service_order_id, created: order.created };
        }),
      );
      cursor = page.json.has_more ? page.json.next_cursor : undefined;
    } while (cursor);
    counter.detach();

    expect(seen).toHaveLength(250);
    expect(new Set(seen.map((order) => order.id)).size).toBe(250);
    expect(seen.map((order) => order.created)).toEqual([...seen.map((order) => order.created)].sort().reverse());
    // One Query per shard, and now and then one more where a shard's first read ended inside the page (random ids decide).
    expect(queriesPerPage.every((count) => count >= LIST_SHARDS && count <= LIST_SHARDS + 8)).toBe(true);
  }, 120_000); // 6 s alone; a full run on 2 cores shares them with a second npm start (the client's tests) and the browser

  it('lets the limit change between pages', async () => {
    const { client_id } = await service.newClient('Small Shop');
    for (let i = 0; i < 5; i++) await create(client_id);

    const first = await list(client_id, { limit: '2' });
    const rest = await list(client_id, { limit: '10', cursor: first.json.next_cursor });

    expect([first.json.data.length, first.json.has_more, rest.json.data.length, rest.json.has_more, rest.json.next_cursor]).toEqual([2, true, 3, false, null]);
  });
});

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

describe('cursors', () => {
  it("are refused with 400 invalid_cursor when another client's, tampered with, or used with other filters", async () => {
    const a = await service.newClient('Shop A');
    const b = await service.newClient('Shop B');
    for (let i = 0; i < 3; i++) await Promise.all([create(a.client_id), create(b.client_id)]);
    const bCursor = (await list(b.client_id, { limit: '1' })).json.next_cursor as string;
    const aCursor = (await list(a.client_id, { limit: '1' })).json.next_cursor as string;

    const answers = [
      await list(a.client_id, { limit: '1', cursor: bCursor }),
      await list(a.client_id, { limit: '1', cursor: `${aCursor.slice(0, -2)}xx` }),
      await list(a.client_id, { limit: '1', cursor: aCursor, status: 'Issued' }),
      await list(a.client_id, { limit: '1', cursor: 'not-a-cursor' }),
      // Spellings a lenient decoder would read as the same cursor: a twin last character, padding.
      await list(a.client_id, { limit: '1', cursor: aCursor.slice(0, -1) + B64[B64.indexOf(aCursor.at(-1)!) ^ 1]! }),
      await list(a.client_id, { limit: '1', cursor: `${aCursor}=` }),
    ];

    for (const res of answers) expect([res.status, res.json.error.code, res.json.error.param]).toEqual([400, 'invalid_cursor', 'cursor']);
  });
});

describe('filters', () => {
  it('order_number finds the one order with that merchant number, and nothing for an opt-out or an unknown number', async () => {
    const { client_id, public_key } = await service.newClient('Lookup Shop');
    await create(client_id);
    const wanted = await create(client_id, 'LOST-ID-42');
    const quote = await quoteFor(service, public_key, cartItems('10.00'));
    await service.call('orders-create', {
      method: 'POST',
      path: '/api/v2/orders',
      clientId: client_id,
      body: { token: quote.tokens.opt_out, order_number: 'OPTED-OUT', currency: 'USD', items: cartItems('10.00') },
    });

    const found = await list(client_id, { order_number: 'LOST-ID-42' });
    const optedOut = await list(client_id, { order_number: 'OPTED-OUT' });
    const unknown = await list(client_id, { order_number: 'NEVER' });

    expect(found.json.data.map((order: { service_order_id: string }) => order.service_order_id)).toEqual([wanted.service_order_id]);
    expect([optedOut.json.data, unknown.json.data, found.json.has_more]).toEqual([[], [], false]);
  });

  it('status keeps orders with a policy in that status; created_gte / created_lt bound the range', async () => {
    const { client_id } = await service.newClient('Filter Shop');
    const older = await create(client_id);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const canceled = await create(client_id);
    await service.call('policies-settle', { method: 'POST', path: `/api/v2/policies/${canceled.policies[0]!.policy_number}/cancel`, clientId: client_id });

    const byStatus = await list(client_id, { status: 'Canceled' });
    const before = await list(client_id, { created_lt: canceled.created });
    const from = await list(client_id, { created_gte: canceled.created });

    const ids = (res: { json: { data: { service_order_id: string }[] } }) => res.json.data.map((order) => order.service_order_id);
    expect(ids(byStatus)).toEqual([canceled.service_order_id]);
    expect(ids(before)).toEqual([older.service_order_id]);
    expect(ids(from)).toEqual([canceled.service_order_id]);
  });

  it('status reads on until the page has its orders: no empty page that says there is more', async () => {
    const { client_id } = await service.newClient('Sparse Shop');
    const old = await create(client_id);
    await service.call('policies-settle', { method: 'POST', path: `/api/v2/policies/${old.policies[0]!.policy_number}/void`, clientId: client_id });
    for (let i = 0; i < 12; i++) await create(client_id);

    const page = await list(client_id, { status: 'Void', limit: '1' });
    const none = await list(client_id, { status: 'Claimed', limit: '1' });

    expect([page.json.data.map((o: { service_order_id: string }) => o.service_order_id), page.json.has_more]).toEqual([[old.service_order_id], false]);
    expect([none.json.data, none.json.has_more]).toEqual([[], false]);
  });

  it('refuses a bad limit, date or status with 422 naming it', async () => {
    const { client_id } = await service.newClient('Strict Shop');
    const answers = await Promise.all([
      list(client_id, { limit: '0' }),
      list(client_id, { limit: '101' }),
      list(client_id, { created_gte: 'yesterday' }),
      list(client_id, { status: 'Lost' }),
      list(client_id, { sort: 'asc' }),
    ]);
    expect(answers.map((res) => [res.status, res.json.error.param])).toEqual([
      [422, 'limit'],
      [422, 'limit'],
      [422, 'created_gte'],
      [422, 'status'],
      [422, 'sort'],
    ]);
  });
});
