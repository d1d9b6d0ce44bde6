import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { LIST_SHARDS } from '#shared/platform/dynamo/keys.js';
import { countRoundTrips } from '../../bench/meters/round-trips.js';
import { cartItems, startService, uniqueOrderNumber, type Service } from '../../test/support/service.js';

/** GET /api/v2/policies over DynamoDB Local: newest first, one Query per page, cursors bound to client and filters. */
let service: Service;

beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.stop());

const list = (clientId: string, query: Record<string, string> = {}) =>
  service.call('policies-list', { method: 'GET', path: '/api/v2/policies', clientId, query });
const create = async (clientId: string, ...costs: string[]) => {
  const res = await service.call('orders-create', {
    method: 'POST',
    path: '/api/v2/orders',
    clientId,
    body: { order_number: uniqueOrderNumber('pl'), currency: 'USD', items: cartItems(...costs) },
  });
  if (res.status !== 201) throw new Error(res.body);
  return res.json as { service_order_id: string; policies: { policy_number: string }[] };
};

describe('GET /policies', () => {
  it('pages every policy exactly once, newest first, one Query per list shard per page, with its order and item', async () => {
    const { client_id } = await service.newClient('Policy Shop');
    for (let i = 0; i < 7; i++) await create(client_id, '10.00', '20.00', '30.00');
    const counter = countRoundTrips(sharedDocumentClient());

    const seen: { policy_number: string; created: string; service_order_id: string; reference_number: string }[] = [];
    let cursor: string | undefined;
    const queries: number[] = [];
    do {
      counter.reset();
      const page = await list(client_id, { limit: '8', ...(cursor ? { cursor } : {}) });
      queries.push(counter.count);
      seen.push(...page.json.data);
      cursor = page.json.has_more ? page.json.next_cursor : undefined;
    } while (cursor);
    counter.detach();

    expect(seen).toHaveLength(21);
    expect(new Set(seen.map((p) => p.policy_number)).size).toBe(21);
    expect(seen.map((p) => p.created)).toEqual([...seen.map((p) => p.created)].sort().reverse());
    expect(seen.every((p) => p.service_order_id && p.reference_number.startsWith('seat-'))).toBe(true);
    expect(queries.every((count) => count === LIST_SHARDS)).toBe(true);
  });

  it('keeps one status when asked, and refuses another client’s cursor with 400 invalid_cursor', async () => {
    const a = await service.newClient('Status Shop');
    const b = await service.newClient('Other Shop');
    const order = await create(a.client_id, '10.00', '20.00');
    await create(b.client_id, '10.00', '20.00');
    await service.call('policies-settle', { method: 'POST', path: `/api/v2/policies/${order.policies[1]!.policy_number}/void`, clientId: a.client_id });
    const bCursor = (await list(b.client_id, { limit: '1' })).json.next_cursor as string;

    const voided = await list(a.client_id, { status: 'Void' });
    const crossed = await list(a.client_id, { limit: '1', cursor: bCursor });

    expect(voided.json.data.map((p: { policy_number: string; refund_due: string }) => [p.policy_number, p.refund_due])).toEqual([
      [order.policies[1]!.policy_number, '1.70'],
    ]);
    expect([crossed.status, crossed.json.error.code]).toEqual([400, 'invalid_cursor']);
  });

  it('a policy that takes the filtered status between pages, below the cursor, is on a later page (a status filter skips no shard)', async () => {
    const { client_id } = await service.newClient('Changing Shop');
    const older = await create(client_id, '10.00', '20.00', '30.00');
    const newer = [await create(client_id, '10.00'), await create(client_id, '10.00')];
    const voidPolicy = (number: string) => service.call('policies-settle', { method: 'POST', path: `/api/v2/policies/${number}/void`, clientId: client_id });
    for (const order of newer) await voidPolicy(order.policies[0]!.policy_number);

    const first = await list(client_id, { status: 'Void', limit: '1' });
    expect(first.json.data.map((p: { policy_number: string }) => p.policy_number)).toEqual([newer[1]!.policies[0]!.policy_number]);
    // Voided now, older than the cursor, in shards the first page found holding nothing void.
    for (const policy of older.policies) await voidPolicy(policy.policy_number);
    const rest: string[] = [];
    let cursor = first.json.next_cursor as string | null;
    for (let page = 0; cursor && page < 10; page++) {
      const next = await list(client_id, { status: 'Void', limit: '1', cursor });
      rest.push(...next.json.data.map((p: { policy_number: string }) => p.policy_number));
      cursor = next.json.next_cursor;
    }

    expect(rest.sort()).toEqual([newer[0]!.policies[0]!.policy_number, ...older.policies.map((p) => p.policy_number)].sort());
  });

  it('finds every policy of a status however far back it is, and never repeats one at a page edge (also with created_gte)', async () => {
    const { client_id } = await service.newClient('Deep Shop');
    const voided = await create(client_id, '10.00');
    await service.call('policies-settle', { method: 'POST', path: `/api/v2/policies/${voided.policies[0]!.policy_number}/void`, clientId: client_id });
    for (let i = 0; i < 4; i++) await create(client_id, '10.00', '20.00');
    const pageAll = async (query: Record<string, string>) => {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await list(client_id, { ...query, ...(cursor ? { cursor } : {}) });
        seen.push(...page.json.data.map((p: { policy_number: string }) => p.policy_number));
        cursor = page.json.has_more ? page.json.next_cursor : undefined;
      } while (cursor);
      return seen;
    };

    const firstVoidPage = await list(client_id, { status: 'Void', limit: '2' });
    const issued = await pageAll({ status: 'Issued', limit: '2' });
    const sinceLongAgo = await pageAll({ created_gte: '2000-01-01', limit: '2' });

    expect(firstVoidPage.json.data.map((p: { policy_number: string }) => p.policy_number)).toEqual([voided.policies[0]!.policy_number]);
    expect(firstVoidPage.json.has_more).toBe(false);
    expect([issued.length, new Set(issued).size]).toEqual([8, 8]);
    expect([sinceLongAgo.length, new Set(sinceLongAgo).size]).toEqual([9, 9]);
  });

  it('answers a reversed or impossible date range with 422, never a 500', async () => {
    const { client_id } = await service.newClient('Date Shop');
    const answers = await Promise.all([
      list(client_id, { created_gte: '2026-11-24', created_lt: '2026-11-23' }),
      list(client_id, { created_gte: '2026-02-30' }),
      list(client_id, { created_lt: '2026-11-23T24:00:00Z' }),
    ]);
    expect(answers.map((res) => [res.status, res.json.error.param])).toEqual([
      [422, 'created_lt'],
      [422, 'created_gte'],
      [422, 'created_lt'],
    ]);
  });
});
