import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartItems, startService, uniqueOrderNumber, type Service } from '../support/service.js';

/** Adversarial: no order route serves or changes another client's order; it does not even exist for them. */
let service: Service;
let owner: string;
let intruder: string;
let orderId: string;

beforeAll(async () => {
  service = await startService();
  owner = (await service.newClient('Owner')).client_id;
  intruder = (await service.newClient('Intruder')).client_id;
  const created = await service.call('orders-create', {
    method: 'POST',
    path: '/api/v2/orders',
    clientId: owner,
    body: { order_number: uniqueOrderNumber('bola'), currency: 'USD', items: cartItems('30.00') },
  });
  orderId = created.json.service_order_id;
});
afterAll(() => service.stop());

describe("another client's order", () => {
  it('is 404 on GET, exactly like an unknown id', async () => {
    const theirs = await service.call('orders-read', { method: 'GET', path: `/api/v2/orders/${orderId}/`, clientId: intruder });
    const unknown = await service.call('orders-read', { method: 'GET', path: '/api/v2/orders/00000000-0000-4000-8000-000000000000/', clientId: intruder });

    expect(theirs.status).toBe(404);
    expect({ ...theirs.json.error, request_id: undefined }).toEqual({ ...unknown.json.error, request_id: undefined });
  });

  it('is 404 on PATCH and nothing changes', async () => {
    const before = await service.scanBoth();

    const res = await service.call('orders-change', {
      method: 'PATCH',
      path: `/api/v2/orders/${orderId}/`,
      clientId: intruder,
      body: { items: [{ name: 'Mine now', old_reference_number: 'seat-1', reference_number: 'stolen', cost: '1.00' }] },
    });

    expect(res.status).toBe(404);
    expect(await service.scanBoth()).toEqual(before);
    const owners = await service.call('orders-read', { method: 'GET', path: `/api/v2/orders/${orderId}`, clientId: owner });
    expect(owners.json.policies.map((p: { status: string }) => p.status)).toEqual(['Issued']);
  });

  it('cannot be reached with an idempotency key the owner used', async () => {
    const body = { items: [{ name: 'Up', old_reference_number: 'seat-1', reference_number: 'up-1', cost: '40.00' }] };
    const mine = await service.call('orders-change', {
      method: 'PATCH',
      path: `/api/v2/orders/${orderId}`,
      clientId: owner,
      body,
      headers: { 'idempotency-key': 'shared-key-1' },
    });

    const theirs = await service.call('orders-change', {
      method: 'PATCH',
      path: `/api/v2/orders/${orderId}`,
      clientId: intruder,
      body,
      headers: { 'idempotency-key': 'shared-key-1' },
    });

    expect(mine.status).toBe(200);
    expect(theirs.status).toBe(404);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
  });
});
