import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashOrderNumber } from '#shared/platform/keys/order-number-hash.js';
import { DynamoOrderStore } from '#shared/orders/dynamo-order-store.js';
import { cartItems, startService, uniqueOrderNumber, type Service } from '../support/service.js';

/** Idempotency-Key on POST /orders and PATCH: replay, mismatch, concurrency, and crash safety. */
let service: Service;
let clientId: string;

beforeAll(async () => {
  service = await startService();
  clientId = (await service.newClient('Idempotent Shop')).client_id;
});
afterAll(() => service.stop());
afterEach(() => vi.restoreAllMocks());

let keys = 0;
const newKey = () => `key-${Date.now()}-${keys++}`;
const create = (body: unknown, key?: string) =>
  service.call('orders-create', { method: 'POST', path: '/api/v2/orders', clientId, body, headers: key ? { 'idempotency-key': key } : {} });
const ordersNumbered = async (orderNumber: string) => (await service.scanBoth()).filter((row) => row.entity === 'order' && row.order_number === orderNumber);

describe('Idempotency-Key', () => {
  it('replays the first answer to the same key and body, marked Idempotent-Replayed, writing once', async () => {
    const key = newKey();
    const body = { order_number: uniqueOrderNumber('idem'), currency: 'USD', items: cartItems('12.00') };

    const first = await create(body, key);
    const replay = await create(body, key);

    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.json).toEqual(first.json);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await ordersNumbered(body.order_number)).toHaveLength(1);
  });

  it('refuses the same key with another body: 422 idempotency_key_reused', async () => {
    const key = newKey();
    await create({ order_number: uniqueOrderNumber('idem'), currency: 'USD', items: cartItems('12.00') }, key);

    const res = await create({ order_number: uniqueOrderNumber('idem'), currency: 'USD', items: cartItems('13.00') }, key);

    expect(res.status).toBe(422);
    expect(res.json.error).toMatchObject({ code: 'idempotency_key_reused', param: 'Idempotency-Key' });
  });

  it('compares bodies as JSON values as sent: key order and spacing do not count, spaces inside a value do (docs/api.md)', async () => {
    const key = newKey();
    const orderNumber = uniqueOrderNumber('idem');
    const send = (rawBody: string) =>
      service.call('orders-create', {
        method: 'POST',
        path: '/api/v2/orders',
        clientId,
        rawBody,
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
      });
    const item = (name: string) => `{"name":"${name}","reference_number":"r-1","cost":"12.00"}`;

    const first = await send(`{"order_number":"${orderNumber}","currency":"USD","items":[${item('Seat A1')}]}`);
    const reordered = await send(`{ "items" : [ ${item('Seat A1')} ],\n  "currency": "USD", "order_number": "${orderNumber}" }`);
    const padded = await send(`{"order_number":"${orderNumber}","currency":"USD","items":[${item(' Seat A1 ')}]}`);

    expect(first.status).toBe(201);
    expect(reordered.status).toBe(201);
    expect(reordered.headers['idempotent-replayed']).toBe('true');
    expect(padded.status).toBe(422);
    expect(padded.json.error).toMatchObject({ code: 'idempotency_key_reused', param: 'Idempotency-Key' });
    expect(await ordersNumbered(orderNumber)).toHaveLength(1);
  });

  it('answers 409 request_in_progress while the first request with the key still runs', async () => {
    const key = newKey();
    const body = { order_number: uniqueOrderNumber('idem'), currency: 'USD', items: cartItems('12.00') };
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const original = DynamoOrderStore.prototype.create;
    vi.spyOn(DynamoOrderStore.prototype, 'create').mockImplementationOnce(async function (this: DynamoOrderStore, ...args) {
      await gate;
      return original.apply(this, args);
    });

    const slow = create(body, key);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const concurrent = await create(body, key);
    release();
    const first = await slow;

    expect(concurrent.status).toBe(409);
    expect(concurrent.json.error.code).toBe('request_in_progress');
    expect(first.status).toBe(201);
  });

  it('does not store validation failures: the key works for the corrected request', async () => {
    const key = newKey();
    const invalid = await create({ order_number: uniqueOrderNumber('idem'), currency: 'USD', items: cartItems('12.001') }, key);

    const corrected = await create({ order_number: uniqueOrderNumber('idem'), currency: 'USD', items: cartItems('12.00') }, key);

    expect(invalid.status).toBe(422);
    expect(corrected.status).toBe(201);
  });

  it('replays a 409 answer too: it was the answer to that request', async () => {
    const body = { order_number: uniqueOrderNumber('idem'), currency: 'USD', items: cartItems('12.00') };
    await create(body);
    const key = newKey();

    const conflict = await create(body, key);
    const replay = await create(body, key);

    expect([conflict.status, replay.status]).toEqual([409, 409]);
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  it('works on PATCH: a replayed change does not change twice', async () => {
    const order = await create({ order_number: uniqueOrderNumber('idem'), currency: 'USD', items: cartItems('20.00') });
    const key = newKey();
    const patch = () =>
      service.call('orders-change', {
        method: 'PATCH',
        path: `/api/v2/orders/${order.json.service_order_id}`,
        clientId,
        headers: { 'idempotency-key': key },
        body: { items: [{ name: 'Up', old_reference_number: 'seat-1', reference_number: 'up-1', cost: '25.00' }] },
      });

    const [first, second] = [await patch(), await patch()];

    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.json).toEqual(first.json);
    expect(second.headers['idempotent-replayed']).toBe('true');
  });

  it('refuses a key longer than 255 characters with 422', async () => {
    const res = await create({ order_number: uniqueOrderNumber('idem'), currency: 'USD', items: cartItems('12.00') }, 'k'.repeat(256));
    expect([res.status, res.json.error.code]).toEqual([422, 'invalid_idempotency_key']);
  });
});

describe('crash safety', () => {
  it('leaves no half-written order when the store fails, and a retry with the same key completes once', async () => {
    const key = newKey();
    const body = { order_number: uniqueOrderNumber('crash'), currency: 'USD', items: cartItems('10.00', '20.00', '30.00') };
    vi.spyOn(DynamoOrderStore.prototype, 'create').mockRejectedValueOnce(new Error('connection reset by the injected fault'));

    const crashed = await create(body, key);
    const rowsAfterCrash = await service.scanBoth();
    const retried = await create(body, key);
    const again = await create(body, key);

    expect(crashed.status).toBe(500);
    expect(crashed.json.error).toMatchObject({ type: 'api_error', code: 'internal_error' });
    expect(crashed.body).not.toContain('injected fault');
    const orderHash = await hashOrderNumber(clientId, body.order_number);
    expect(rowsAfterCrash.filter((row) => row.order_number === body.order_number || row.order_hash === orderHash)).toHaveLength(0);
    expect(retried.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await ordersNumbered(body.order_number)).toHaveLength(1);
  });
});
