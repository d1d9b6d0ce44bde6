import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDocumentClient } from '../../shared/infra/dynamo-client.js';
import { countRoundTrips } from '../../shared/infra/round-trips.js';
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
  it('pages every policy exactly once, newest first, one Query per page, with its order and item', async () => {
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
    expect(queries.every((count) => count === 1)).toBe(true);
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
});
