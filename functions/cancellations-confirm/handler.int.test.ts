import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startReceiver, type Receiver } from '../../test/support/receiver.js';
import { cartItems, startService, uniqueOrderNumber, type Service } from '../../test/support/service.js';

/**
 * A cancellation seen before it happens, over DynamoDB Local: `preview: true` on the order's cancel
 * and on the single-policy cancel and void changes nothing; POST /cancellations/{id}/confirm applies
 * exactly the preview, or refuses with nothing changed.
 */
process.env.WEBHOOK_URLS = 'local'; // the receiver is on 127.0.0.1

let service: Service;
let receiver: Receiver;
let clientId: string;

beforeAll(async () => {
  service = await startService();
  receiver = await startReceiver();
  clientId = (await service.newClient('Previewing Shop')).client_id;
  // An endpoint, so that the stream writes the client's webhook events (a preview must write none).
  const endpoint = await service.call('webhook-endpoints', { method: 'POST', path: '/api/v2/webhook_endpoints', clientId, body: { url: receiver.url } });
  expect(endpoint.status, endpoint.body).toBe(201);
});
afterAll(async () => {
  await service.stop();
  await receiver.stop();
});
afterEach(() => vi.useRealTimers());

async function newOrder(currency: string, ...costs: string[]) {
  const res = await service.call('orders-create', {
    method: 'POST',
    path: '/api/v2/orders',
    clientId,
    body: { order_number: uniqueOrderNumber('pv'), currency, items: cartItems(...costs), customer: { email: 'ada@example.com' } },
  });
  if (res.status !== 201) throw new Error(res.body);
  return res.json as { service_order_id: string; policies: { policy_number: string; premium: string; void_until: string }[] };
}
const cancel = (orderId: string, body: unknown, headers: Record<string, string> = {}) =>
  service.call('orders-cancel', { method: 'POST', path: `/api/v2/orders/${orderId}/cancel`, clientId, body, headers });
const settle = (policyNumber: string, action: 'cancel' | 'void', body?: unknown) =>
  service.call('policies-settle', {
    method: 'POST',
    path: `/api/v2/policies/${policyNumber}/${action}`,
    clientId,
    ...(body === undefined ? {} : { body }),
  });
const confirm = (id: string, { headers = {}, body, asClient = clientId }: { headers?: Record<string, string>; body?: unknown; asClient?: string } = {}) =>
  service.call('cancellations-confirm', {
    method: 'POST',
    path: `/api/v2/cancellations/${id}/confirm`,
    clientId: asClient,
    headers,
    ...(body === undefined ? {} : { body }),
  });
const readOrder = (orderId: string) => service.call('orders-read', { method: 'GET', path: `/api/v2/orders/${orderId}`, clientId });
const laterBy = (ms: number) => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + ms);
};
const HOUR = 3_600_000;

/** The records the streams write from a change: ledger entries and webhook events, of this client. */
async function streamWritten() {
  await service.drainStreams();
  const { Items = [] } = await service.tables.doc.send(new ScanCommand({ TableName: service.tables.main }));
  const mine = Items.filter((item) => item.client_id === clientId || String(item.PK).startsWith(`CLIENT#${clientId}#`));
  return {
    ledger: mine.filter((item) => item.entity === 'ledger_entry').map((item) => ({ type: item.type, policy: item.policy_number, amount: item.amount })),
    events: mine.filter((item) => item.entity === 'webhook_event').map((item) => `${item.type} ${item.order_id}`),
  };
}

describe('preview', () => {
  it('answers what the order’s void would refund, to the minor unit, and changes nothing: no ledger entry, no webhook', async () => {
    const order = await newOrder('USD', '100.00', '35.50');
    const written = await streamWritten();
    expect(written.events).toContain(`order.created ${order.service_order_id}`);
    expect(written.ledger.filter((entry) => entry.type === 'premium_written' && order.policies.some((p) => p.policy_number === entry.policy))).toHaveLength(2);
    const before = await readOrder(order.service_order_id);

    const res = await cancel(order.service_order_id, { mode: 'void', reason: 'customer_request', preview: true });

    expect(res.status, res.body).toBe(200);
    expect(res.json).toMatchObject({
      service_order_id: order.service_order_id,
      mode: 'void',
      reason: 'customer_request',
      currency: 'USD',
      policies: order.policies.map((p) => ({ policy_number: p.policy_number, status_after: 'Void', refund_due: p.premium })),
    });
    expect(res.json.cancellation_id).toMatch(/^cn_[0-9A-Za-z]{24}$/);
    const total = order.policies.reduce((sum, p) => sum + Math.round(Number(p.premium) * 100), 0);
    expect(res.json.total_refund).toBe((total / 100).toFixed(2));
    expect((await readOrder(order.service_order_id)).json).toEqual(before.json);
    expect(await streamWritten()).toEqual(written);
  });

  it('refuses what the direct call would refuse, with the same error', async () => {
    const order = await newOrder('USD', '100.00');
    laterBy(15 * 24 * HOUR); // past the 14-day look period
    const preview = await cancel(order.service_order_id, { mode: 'void', preview: true });
    const direct = await cancel(order.service_order_id, { mode: 'void' });
    expect([preview.status, preview.json.error.code, preview.json.error.param]).toEqual([409, 'look_period_over', order.policies[0]!.policy_number]);
    expect({ ...direct.json.error, request_id: 'x' }).toEqual({ ...preview.json.error, request_id: 'x' });
    const single = await settle(order.policies[0]!.policy_number, 'void', { preview: true });
    expect([single.status, single.json.error.code]).toEqual([409, 'look_period_over']);
  });

  it('a void’s preview can be confirmed no later than the void windows it relies on; a cancel’s for 24 hours', async () => {
    const order = await newOrder('USD', '100.00');
    laterBy(14 * 24 * HOUR - 2 * HOUR); // two hours before the window closes
    const voiding = await cancel(order.service_order_id, { mode: 'void', preview: true });
    expect(voiding.json.confirm_before).toBe(order.policies[0]!.void_until);
    const canceling = await cancel(order.service_order_id, { mode: 'cancel', preview: true });
    expect(Date.parse(canceling.json.confirm_before) - Date.parse(canceling.json.created)).toBe(24 * HOUR);
  });

  it('of a request that would move nothing (a repeat) lists no policy and refunds nothing', async () => {
    const order = await newOrder('JPY', '15000');
    await cancel(order.service_order_id, { mode: 'cancel' });
    const res = await cancel(order.service_order_id, { mode: 'cancel', preview: true });
    expect(res.json).toMatchObject({ policies: [], total_refund: '0', currency: 'JPY' });
    const confirmed = await confirm(res.json.cancellation_id);
    expect(confirmed.json).toEqual((await readOrder(order.service_order_id)).json);
  });

  it('rejects a preview that is not a boolean, in the one envelope', async () => {
    const order = await newOrder('USD', '10.00');
    const res = await cancel(order.service_order_id, { mode: 'cancel', preview: 'yes' });
    expect([res.status, res.json.error.code, res.json.error.param]).toEqual([422, 'validation_failed', 'preview']);
  });
});

describe('confirm', () => {
  it.each([
    ['USD', ['120.00', '35.50']],
    ['JPY', ['15000', '4500']],
    ['KWD', ['36.500', '10.750']],
  ])('refunds exactly the preview in %s, and the ledger books exactly that once per policy', async (currency, costs) => {
    const order = await newOrder(currency, ...costs);
    const preview = await cancel(order.service_order_id, { mode: 'void', preview: true });

    const res = await confirm(preview.json.cancellation_id);

    expect(res.status, res.body).toBe(200);
    expect(res.json).toEqual((await readOrder(order.service_order_id)).json); // as the direct call answers: the whole order
    const voided = res.json.policies.filter((p: { status: string }) => p.status === 'Void');
    expect(
      voided.map((p: { policy_number: string; refund_due: string }) => ({ policy_number: p.policy_number, status_after: 'Void', refund_due: p.refund_due })),
    ).toEqual(preview.json.policies);
    const refunds = (await streamWritten()).ledger.filter(
      (entry) => entry.type === 'premium_refunded' && voided.some((p: { policy_number: string }) => p.policy_number === entry.policy),
    );
    expect(refunds).toHaveLength(preview.json.policies.length);
    for (const policy of preview.json.policies) expect(refunds.filter((entry) => entry.policy === policy.policy_number)).toHaveLength(1);
  });

  it('after confirm_before: 409 cancellation_expired, nothing changed', async () => {
    const order = await newOrder('USD', '50.00');
    const preview = await cancel(order.service_order_id, { mode: 'cancel', preview: true });
    laterBy(24 * HOUR + 1000);
    const res = await confirm(preview.json.cancellation_id);
    expect([res.status, res.json.error.code]).toEqual([409, 'cancellation_expired']);
    expect((await readOrder(order.service_order_id)).json.policies[0].status).toBe('Issued');
  });

  it('after a PATCH of one of its policies: 409 cancellation_stale, nothing changed', async () => {
    const order = await newOrder('USD', '100.00', '50.00');
    const preview = await cancel(order.service_order_id, { mode: 'void', preview: true });
    const patched = await service.call('orders-change', {
      method: 'PATCH',
      path: `/api/v2/orders/${order.service_order_id}`,
      clientId,
      body: { items: [{ name: 'Better seat', old_reference_number: 'seat-1', reference_number: 'seat-1b', cost: '120.00' }] },
    });
    expect(patched.status, patched.body).toBe(200);
    const before = await readOrder(order.service_order_id);

    const res = await confirm(preview.json.cancellation_id);

    expect([res.status, res.json.error.code]).toEqual([409, 'cancellation_stale']);
    expect((await readOrder(order.service_order_id)).json).toEqual(before.json);
  });

  it('of one policy: answers the policy as the single-policy call does; stale once the policy moved another way', async () => {
    const order = await newOrder('KWD', '36.500', '10.750');
    const [first, second] = order.policies;
    const voiding = await settle(first!.policy_number, 'void', { preview: true, reason: 'resold' });
    expect(voiding.json).toMatchObject({
      mode: 'void',
      reason: 'resold',
      total_refund: first!.premium,
      policies: [{ policy_number: first!.policy_number, status_after: 'Void' }],
    });
    const res = await confirm(voiding.json.cancellation_id);
    expect(res.status, res.body).toBe(200);
    expect(res.json).toMatchObject({ policy_number: first!.policy_number, status: 'Void', refund_due: first!.premium });
    expect(res.json.history.at(-1)).toMatchObject({ status: 'Void', reason: 'resold' });

    const canceling = await settle(second!.policy_number, 'cancel', { preview: true });
    expect((await settle(second!.policy_number, 'void')).status).toBe(200);
    const stale = await confirm(canceling.json.cancellation_id);
    expect([stale.status, stale.json.error.code]).toEqual([409, 'cancellation_stale']);
  });

  it('a repeat answers the same; with an Idempotency-Key it is replayed', async () => {
    const order = await newOrder('USD', '20.00');
    const preview = await cancel(order.service_order_id, { mode: 'cancel', preview: true });
    const first = await confirm(preview.json.cancellation_id, { headers: { 'idempotency-key': 'confirm-1' }, body: {} });
    const again = await confirm(preview.json.cancellation_id);
    const replayed = await confirm(preview.json.cancellation_id, { headers: { 'idempotency-key': 'confirm-1' }, body: {} });
    expect(first.status, first.body).toBe(200);
    expect(again.json).toEqual(first.json);
    expect(replayed.json).toEqual(first.json);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
  });

  it('concurrent confirms of one preview: one moves the policies, every answer is the same, one ledger entry per policy', async () => {
    const order = await newOrder('USD', '80.00', '40.00', '12.34');
    const preview = await cancel(order.service_order_id, { mode: 'void', preview: true });

    const answers = await Promise.all(Array.from({ length: 6 }, () => confirm(preview.json.cancellation_id)));

    expect(answers.map((res) => res.status)).toEqual(Array(6).fill(200));
    for (const res of answers) expect(res.json).toEqual(answers[0]!.json);
    const history = answers[0]!.json.policies.map((p: { history: unknown[] }) => p.history.length);
    expect(history).toEqual([2, 2, 2]); // Issued, then Void once
    const refunds = (await streamWritten()).ledger.filter(
      (entry) => entry.type === 'premium_refunded' && order.policies.some((p) => p.policy_number === entry.policy),
    );
    expect(refunds.map((entry) => entry.policy).sort()).toEqual(order.policies.map((p) => p.policy_number).sort());
  });

  it('another client’s cancellation, an unknown id and a body with fields: refused in the one envelope', async () => {
    const order = await newOrder('USD', '20.00');
    const preview = await cancel(order.service_order_id, { mode: 'cancel', preview: true });
    const stranger = (await service.newClient('Other Shop')).client_id;
    const theirs = await confirm(preview.json.cancellation_id, { asClient: stranger });
    expect([theirs.status, theirs.json.error.code]).toEqual([404, 'cancellation_not_found']);
    expect((await confirm('cn_nope')).json.error.code).toBe('cancellation_not_found');
    expect((await confirm('cn_000000000000000000000000')).json.error.code).toBe('cancellation_not_found');
    const body = await confirm(preview.json.cancellation_id, { body: { preview: true } });
    expect([body.status, body.json.error.code]).toEqual([422, 'validation_failed']);
    expect((await readOrder(order.service_order_id)).json.policies[0].status).toBe('Issued');
  });
});
