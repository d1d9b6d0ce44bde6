import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartItems, startService, uniqueOrderNumber, type Service } from '../support/service.js';

/** Adversarial: fields the service owns cannot be set by a caller; such bodies write nothing. */
let service: Service;
let clientId: string;
let orderId: string;

beforeAll(async () => {
  service = await startService();
  clientId = (await service.newClient('Mass Assign')).client_id;
  orderId = (
    await service.call('orders-create', {
      method: 'POST',
      path: '/api/v2/orders',
      clientId,
      body: { order_number: uniqueOrderNumber('ma'), currency: 'USD', items: cartItems('30.00') },
    })
  ).json.service_order_id;
});
afterAll(() => service.stop());

const base = () => ({ order_number: uniqueOrderNumber('ma'), currency: 'USD', items: cartItems('30.00') });
const createAttempts: [string, () => Record<string, unknown>, string][] = [
  ['status on the order', () => ({ ...base(), status: 'Issued' }), 'status'],
  ['client', () => ({ ...base(), client: 'cl_other' }), 'client'],
  ['service_order_id', () => ({ ...base(), service_order_id: '00000000-0000-4000-8000-000000000000' }), 'service_order_id'],
  ['premium on an item', () => ({ ...base(), items: [{ ...cartItems('30.00')[0], premium: '0.00' }] }), 'items[0].premium'],
  ['policy_number on an item', () => ({ ...base(), items: [{ ...cartItems('30.00')[0], policy_number: 'OP-MINE' }] }), 'items[0].policy_number'],
  ['status on an item', () => ({ ...base(), items: [{ ...cartItems('30.00')[0], status: 'Cancelled' }] }), 'items[0].status'],
  ['subtotal', () => ({ ...base(), subtotal: '0.00' }), 'subtotal'],
];

describe('POST /orders', () => {
  it.each(createAttempts)('refuses %s with 422 naming the field, writing nothing', async (_name, body, param) => {
    const rows = await service.rowCount();

    const res = await service.call('orders-create', { method: 'POST', path: '/api/v2/orders', clientId, body: body() });

    expect(res.status).toBe(422);
    expect(res.json.error).toMatchObject({ code: 'validation_failed', param });
    expect(await service.rowCount()).toBe(rows);
  });
});

describe('PATCH /orders/{id}/', () => {
  const change = { name: 'X', old_reference_number: 'seat-1', reference_number: 'x-1', cost: '31.00' };
  const attempts: [string, Record<string, unknown>, string][] = [
    ['status', { items: [{ ...change, status: 'Issued' }] }, 'items[0].status'],
    ['premium', { items: [{ ...change, premium: '0.00' }] }, 'items[0].premium'],
    ['change_type', { items: [{ ...change, change_type: 'downgrade' }] }, 'items[0].change_type'],
    ['policy_number', { items: [{ ...change, policy_number: 'OP-1' }] }, 'items[0].policy_number'],
    ['subtotal on the body', { items: [change], subtotal: '1.00' }, 'subtotal'],
  ];

  it.each(attempts)('refuses %s with 422 naming the field, changing nothing', async (_name, body, param) => {
    const before = await service.scanBoth();

    const res = await service.call('orders-change', { method: 'PATCH', path: `/api/v2/orders/${orderId}`, clientId, body });

    expect(res.status).toBe(422);
    expect(res.json.error.param).toBe(param);
    expect(await service.scanBoth()).toEqual(before);
  });
});
