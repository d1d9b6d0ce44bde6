import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cartItems, startService, uniqueOrderNumber, type Service } from '../../test/support/service.js';

/** POST /api/v2/orders/{id}/cancel over DynamoDB Local: every Issued policy moves, or none. */
let service: Service;
let clientId: string;

beforeAll(async () => {
  service = await startService();
  clientId = (await service.newClient('Canceling Shop')).client_id;
});
afterAll(() => service.stop());
afterEach(() => vi.useRealTimers());

const customer = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
async function newOrder(...costs: string[]) {
  const res = await service.call('orders-create', {
    method: 'POST',
    path: '/api/v2/orders',
    clientId,
    body: { order_number: uniqueOrderNumber('cxl'), currency: 'USD', items: cartItems(...costs), customer },
  });
  if (res.status !== 201) throw new Error(res.body);
  return res.json as { service_order_id: string; policies: { policy_number: string }[] };
}
const cancel = (orderId: string, body: unknown, headers: Record<string, string> = {}, asClient = clientId) =>
  service.call('orders-cancel', { method: 'POST', path: `/api/v2/orders/${orderId}/cancel`, clientId: asClient, body, headers });
const change = (orderId: string, old: string, cost: string) =>
  service.call('orders-change', {
    method: 'PATCH',
    path: `/api/v2/orders/${orderId}`,
    clientId,
    body: { items: [{ name: 'New', old_reference_number: old, reference_number: `${old}-new`, cost }] },
  });
const rows = async () => (await service.tables.doc.send(new ScanCommand({ TableName: service.tables.main }))).Items ?? [];
const statuses = (order: { policies: { status: string }[] }) => order.policies.map((p) => p.status);
const laterBy = (days: number) => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + days * 86_400_000);
};

describe('mode cancel', () => {
  it('moves every Issued policy to Canceled (refund_due 0.00) and leaves a replaced one alone; 200 with the whole order', async () => {
    const order = await newOrder('100.00', '50.00');
    await change(order.service_order_id, 'seat-1', '120.00');

    const res = await cancel(order.service_order_id, { mode: 'cancel', reason: 'order_canceled' });

    expect(res.status).toBe(200);
    expect(statuses(res.json)).toEqual(['Upgraded', 'Canceled', 'Canceled']);
    expect(res.json.policies.filter((p: { status: string }) => p.status === 'Canceled').map((p: { refund_due: string }) => p.refund_due)).toEqual([
      '0.00',
      '0.00',
    ]);
    expect(res.json.policies[2].history.at(-1)).toMatchObject({ status: 'Canceled', reason: 'order_canceled' });
    const read = await service.call('orders-read', { method: 'GET', path: `/api/v2/orders/${order.service_order_id}`, clientId });
    expect(read.json).toEqual(res.json);
  });

  it('on an order with nothing Issued left answers a true repeat as it is and writes nothing', async () => {
    const order = await newOrder('10.00', '20.00');
    const first = await cancel(order.service_order_id, { mode: 'cancel' });
    const before = JSON.stringify(await rows());

    const again = await cancel(order.service_order_id, { mode: 'cancel', reason: 'resold' });

    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
    expect(JSON.stringify(await rows())).toBe(before);
  });

  it('a void of an order whose policies are all Canceled voids nothing: 409 policy_not_issued naming one, nothing written', async () => {
    const order = await newOrder('10.00', '20.00');
    await cancel(order.service_order_id, { mode: 'cancel' });
    const before = JSON.stringify(await rows());

    const voided = await cancel(order.service_order_id, { mode: 'void' });

    expect(voided.status).toBe(409);
    expect(voided.json.error).toMatchObject({ code: 'policy_not_issued', param: order.policies[0]!.policy_number });
    expect(voided.json.error.message).toContain('Canceled');
    expect(JSON.stringify(await rows())).toBe(before);
  });

  it('a void repeated after it voided the rest of an order (one policy canceled before on its own) answers the order as it is', async () => {
    const order = await newOrder('10.00', '20.00');
    const single = await service.call('policies-settle', {
      method: 'POST',
      path: `/api/v2/policies/${order.policies[0]!.policy_number}/cancel`,
      clientId,
    });
    expect(single.status).toBe(200);
    const voided = await cancel(order.service_order_id, { mode: 'void' });
    expect(voided.json.policies.map((p: { status: string }) => p.status)).toEqual(['Canceled', 'Void']);

    const again = await cancel(order.service_order_id, { mode: 'void' });
    const cancelNow = await cancel(order.service_order_id, { mode: 'cancel' });

    expect(again.status).toBe(200);
    expect(again.json).toEqual(voided.json);
    expect([cancelNow.status, cancelNow.json.error?.code, cancelNow.json.error?.param]).toEqual([409, 'policy_not_issued', order.policies[1]!.policy_number]);
  });

  it('a cancel of an order whose policies are all Void cancels nothing: 409; a void again is the true repeat (200)', async () => {
    const order = await newOrder('10.00');
    const voided = await cancel(order.service_order_id, { mode: 'void' });

    const canceled = await cancel(order.service_order_id, { mode: 'cancel' });
    const again = await cancel(order.service_order_id, { mode: 'void' });

    expect([canceled.status, canceled.json.error?.code, canceled.json.error?.param]).toEqual([409, 'policy_not_issued', order.policies[0]!.policy_number]);
    expect(again.status).toBe(200);
    expect(again.json).toEqual(voided.json);
  });
});

describe('mode void', () => {
  it('within the look period voids every Issued policy: refund_due = premium', async () => {
    const order = await newOrder('100.00', '40.00');

    const res = await cancel(order.service_order_id, { mode: 'void' });

    expect(statuses(res.json)).toEqual(['Void', 'Void']);
    expect(res.json.policies.map((p: { premium: string; refund_due: string }) => [p.premium, p.refund_due])).toEqual([
      ['8.50', '8.50'],
      ['3.40', '3.40'],
    ]);
  });

  it('with one policy past the look period moves none: 409 look_period_over naming it, nothing changed', async () => {
    const order = await newOrder('100.00', '40.00');
    laterBy(10);
    await change(order.service_order_id, 'seat-1', '110.00'); // a policy issued 10 days later
    laterBy(5); // day 15: the order's own seat-2 policy is past 14 days, the new one (day 10) is not
    const before = JSON.stringify(await rows());

    const res = await cancel(order.service_order_id, { mode: 'void' });

    expect([res.status, res.json.error.code, res.json.error.param]).toEqual([409, 'look_period_over', order.policies[1]!.policy_number]);
    expect(JSON.stringify(await rows())).toBe(before);
  });
});

describe('whose order, which body', () => {
  it("answers 404 for another client's order and an unknown id, 422 for a bad mode or reason, changing nothing", async () => {
    const order = await newOrder('20.00');
    const other = await service.newClient('Other Shop');
    const before = JSON.stringify(await rows());

    const theirs = await cancel(order.service_order_id, { mode: 'cancel' }, {}, other.client_id);
    const unknown = await cancel('00000000-0000-4000-8000-000000000000', { mode: 'cancel' });
    const badMode = await cancel(order.service_order_id, { mode: 'refund' });
    const badReason = await cancel(order.service_order_id, { mode: 'cancel', reason: 'bored' });

    expect([theirs.status, unknown.status]).toEqual([404, 404]);
    expect([badMode.status, badMode.json.error.param, badReason.status, badReason.json.error.param]).toEqual([422, 'mode', 422, 'reason']);
    expect(JSON.stringify(await rows())).toBe(before);
  });
});

describe('Idempotency-Key', () => {
  it('replays the same whole order, from a receipt that holds no personal data', async () => {
    const order = await newOrder('60.00', '30.00');

    const first = await cancel(order.service_order_id, { mode: 'void' }, { 'idempotency-key': 'cancel-once' });
    const replay = await cancel(order.service_order_id, { mode: 'void' }, { 'idempotency-key': 'cancel-once' });

    expect([first.status, replay.status]).toEqual([200, 200]);
    expect(replay.json).toEqual(first.json);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const receipts = JSON.stringify((await rows()).filter((row) => row.entity === 'idempotency'));
    expect(receipts).toContain(order.service_order_id);
    for (const marker of ['Ada', 'Lovelace', 'ada@example.com']) expect(receipts).not.toContain(marker);
  });
});
