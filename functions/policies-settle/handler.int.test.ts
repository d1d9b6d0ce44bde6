import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cartItems, startService, uniqueOrderNumber, type Service } from '../../test/support/service.js';
import { publishTermsVersion } from '../../test/support/terms.js';

/** Cancel and void of one policy over DynamoDB Local: Issued only, the look period, repeats, races. */
let service: Service;
let clientId: string;

beforeAll(async () => {
  service = await startService();
  clientId = (await service.newClient('Settling Shop')).client_id;
});
afterAll(() => service.stop());
afterEach(() => vi.useRealTimers());

async function newOrder(...costs: string[]) {
  const res = await service.call('orders-create', {
    method: 'POST',
    path: '/api/v2/orders',
    clientId,
    body: { order_number: uniqueOrderNumber('stl'), currency: 'USD', items: cartItems(...costs) },
  });
  if (res.status !== 201) throw new Error(res.body);
  return res.json as { service_order_id: string; policies: { policy_number: string; premium: string }[] };
}

const settle = (action: 'cancel' | 'void', policyNumber: string, body?: unknown, asClient = clientId, method = 'POST') =>
  service.call('policies-settle', { method, path: `/api/v2/policies/${policyNumber}/${action}`, clientId: asClient, ...(body === undefined ? {} : { body }) });
const read = (orderId: string) => service.call('orders-read', { method: 'GET', path: `/api/v2/orders/${orderId}/`, clientId });
const allRows = async () => JSON.stringify((await service.tables.doc.send(new ScanCommand({ TableName: service.tables.main }))).Items);
const later = (days: number) => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + days * 86_400_000);
};

describe('cancel', () => {
  it('moves an Issued policy to Canceled with refund_due 0.00 and its reason in the history; PUT and POST alike', async () => {
    const order = await newOrder('80.00', '20.00');
    const [first, second] = order.policies;

    const byPost = await settle('cancel', first!.policy_number, { reason: 'ticket_transferred' });
    const byPut = await settle('cancel', second!.policy_number, undefined, clientId, 'PUT');

    expect(byPost.status).toBe(200);
    expect(byPost.json).toMatchObject({
      policy_number: first!.policy_number,
      status: 'Canceled',
      premium: '6.80',
      refund_due: '0.00',
      service_order_id: order.service_order_id,
      reference_number: 'seat-1',
    });
    expect(byPost.json.history.map((step: { status: string; reason: string }) => [step.status, step.reason])).toEqual([
      ['Issued', 'order_created'],
      ['Canceled', 'ticket_transferred'],
    ]);
    expect(byPut.json).toMatchObject({ status: 'Canceled', history: [{ status: 'Issued' }, { status: 'Canceled', reason: 'other' }] });
    const stored = (await read(order.service_order_id)).json;
    expect(stored.policies.map((p: { status: string }) => p.status)).toEqual(['Canceled', 'Canceled']);
    expect(stored.updated).toBe(byPut.json.updated);
  });

  it('repeated on a Canceled policy answers it as it is and writes nothing; any other status is 409, and a change of it too', async () => {
    const order = await newOrder('50.00');
    const policy = order.policies[0]!.policy_number;
    const first = await settle('cancel', policy);
    const rows = await allRows();

    const again = await settle('cancel', policy);
    const voided = await settle('void', policy);
    const changed = await service.call('orders-change', {
      method: 'PATCH',
      path: `/api/v2/orders/${order.service_order_id}`,
      clientId,
      body: { items: [{ name: 'Other', old_reference_number: 'seat-1', reference_number: 'other-1', cost: '60.00' }] },
    });

    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
    expect(await allRows()).toBe(rows);
    expect([voided.status, voided.json.error.code]).toEqual([409, 'policy_not_issued']);
    expect([changed.status, changed.json.error.code]).toEqual([409, 'policy_not_issued']);
  });
});

describe('void', () => {
  it('within the look period refunds the premium: refund_due = premium', async () => {
    const order = await newOrder('120.00');

    const res = await settle('void', order.policies[0]!.policy_number, { reason: 'customer_request' });

    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: 'Void', premium: '10.20', refund_due: '10.20' });
  });

  it('after the look period (14 days by default) is 409 look_period_over and changes nothing; a cancel still works', async () => {
    const order = await newOrder('30.00');
    const policy = order.policies[0]!.policy_number;
    later(14.01);

    const voided = await settle('void', policy);
    const canceled = await settle('cancel', policy);

    // `param` names the policy by its number, as an order's void does.
    expect([voided.status, voided.json.error.code, voided.json.error.param]).toEqual([409, 'look_period_over', policy]);
    expect(canceled.json).toMatchObject({ status: 'Canceled', refund_due: '0.00' });
  });

  it('follows the client its own look period', async () => {
    const strict = await service.newClient('Strict Shop');
    await publishTermsVersion(service, strict.client_id, { look_period_days: 0 });
    const created = await service.call('orders-create', {
      method: 'POST',
      path: '/api/v2/orders',
      clientId: strict.client_id,
      body: { order_number: uniqueOrderNumber('lp0'), currency: 'USD', items: cartItems('10.00') },
    });
    later(0.001);

    const res = await settle('void', created.json.policies[0].policy_number, undefined, strict.client_id);

    expect([res.status, res.json.error.code]).toEqual([409, 'look_period_over']);
  });
});

describe('the void window, fixed at sale', () => {
  // A new version of the client's terms with this look period, in force at once.
  const setLookPeriod = async (client: string, days: number) => {
    await publishTermsVersion(service, client, { look_period_days: days });
  };
  const sell = async (client: string, ...costs: string[]) => {
    const res = await service.call('orders-create', {
      method: 'POST',
      path: '/api/v2/orders',
      clientId: client,
      body: { order_number: uniqueOrderNumber('win'), currency: 'USD', items: cartItems(...costs) },
    });
    if (res.status !== 201) throw new Error(res.body);
    return res.json as { service_order_id: string; created: string; policies: { policy_number: string; void_until: string }[] };
  };
  const at = (sold: string, days: number) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse(sold) + days * 86_400_000);
  };

  it('a policy sold under a 14-day look period stays voidable for 14 days after the look period is set to 0, and one sold afterwards is not', async () => {
    const { client_id: shop } = await service.newClient('Shortening Shop');
    const sold = await sell(shop, '40.00', '60.00');
    expect(sold.policies.map((p) => p.void_until)).toEqual([0, 1].map(() => new Date(Date.parse(sold.created) + 14 * 86_400_000).toISOString()));

    await setLookPeriod(shop, 0);
    at(sold.created, 1 / 24); // an hour later: past the cached client's minute, so the next sale reads the new look period
    const soldAfter = await sell(shop, '10.00');
    at(sold.created, 13.99);
    const voided = await service.call('policies-settle', { method: 'POST', path: `/api/v2/policies/${sold.policies[0]!.policy_number}/void`, clientId: shop });
    const lateOne = await service.call('policies-settle', {
      method: 'POST',
      path: `/api/v2/policies/${soldAfter.policies[0]!.policy_number}/void`,
      clientId: shop,
    });

    expect(voided.status).toBe(200);
    expect(voided.json).toMatchObject({ status: 'Void', void_until: sold.policies[0]!.void_until });
    expect(soldAfter.policies[0]!.void_until).toBe(soldAfter.created);
    expect([lateOne.status, lateOne.json.error?.code]).toEqual([409, 'look_period_over']);
    // The order's void follows the same windows: the other policy of the first order is voidable too.
    const orderVoid = await service.call('orders-cancel', {
      method: 'POST',
      path: `/api/v2/orders/${sold.service_order_id}/cancel`,
      clientId: shop,
      body: { mode: 'void' },
    });
    expect(orderVoid.status).toBe(200);
    expect(orderVoid.json.policies.map((p: { status: string }) => p.status)).toEqual(['Void', 'Void']);
  });

  it('a longer look period set later does not reopen a closed window', async () => {
    const { client_id: shop } = await service.newClient('Lengthening Shop');
    const sold = await sell(shop, '40.00');
    await setLookPeriod(shop, 60);
    at(sold.created, 20);

    const voided = await service.call('policies-settle', { method: 'POST', path: `/api/v2/policies/${sold.policies[0]!.policy_number}/void`, clientId: shop });

    expect([voided.status, voided.json.error?.code, voided.json.error?.param]).toEqual([409, 'look_period_over', sold.policies[0]!.policy_number]);
  });

  it('a policy exchanged on day 10 of a 14-day window keeps that window: not voidable on day 15, alone or with its order', async () => {
    const { client_id: shop } = await service.newClient('Exchanging Shop');
    const sold = await sell(shop, '50.00');
    at(sold.created, 10);
    const exchanged = await service.call('orders-change', {
      method: 'PATCH',
      path: `/api/v2/orders/${sold.service_order_id}`,
      clientId: shop,
      body: { items: [{ name: 'Seat 2', old_reference_number: 'seat-1', reference_number: 'seat-1b', cost: '50.00' }] },
    });
    expect(exchanged.status).toBe(200);
    const replacement = exchanged.json.policies[0] as { policy_number: string; change_type: string; void_until: string };
    expect(replacement).toMatchObject({ change_type: 'exchange', void_until: sold.policies[0]!.void_until });

    at(sold.created, 15);
    const voided = await service.call('policies-settle', { method: 'POST', path: `/api/v2/policies/${replacement.policy_number}/void`, clientId: shop });
    const orderVoid = await service.call('orders-cancel', {
      method: 'POST',
      path: `/api/v2/orders/${sold.service_order_id}/cancel`,
      clientId: shop,
      body: { mode: 'void' },
    });

    expect([voided.status, voided.json.error?.code]).toEqual([409, 'look_period_over']);
    expect([orderVoid.status, orderVoid.json.error?.code, orderVoid.json.error?.param]).toEqual([409, 'look_period_over', replacement.policy_number]);
  });
});

describe('Idempotency-Key', () => {
  it('replays the first answer of a cancel with the same key, and refuses the key with another request', async () => {
    const order = await newOrder('70.00', '30.00');
    const [first, second] = order.policies;
    const withKey = (policy: string, body?: unknown) =>
      service.call('policies-settle', {
        method: 'POST',
        path: `/api/v2/policies/${policy}/cancel`,
        clientId,
        body,
        headers: { 'idempotency-key': 'settle-once' },
      });

    const answered = await withKey(first!.policy_number, { reason: 'resold' });
    const replayed = await withKey(first!.policy_number, { reason: 'resold' });
    const reused = await withKey(second!.policy_number, { reason: 'resold' });

    expect([answered.status, replayed.status]).toEqual([200, 200]);
    expect(replayed.json).toEqual(answered.json);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect([reused.status, reused.json.error.code]).toEqual([422, 'idempotency_key_reused']);
  });
});

describe('whose policy', () => {
  it("answers 404 policy_not_found for another client's policy, an unknown number and a malformed one, changing nothing", async () => {
    const order = await newOrder('40.00');
    const other = await service.newClient('Other Shop');
    const rows = await allRows();

    const answers = [
      await settle('cancel', order.policies[0]!.policy_number, undefined, other.client_id),
      await settle('void', 'OP-0000-0000-0000'),
      await settle('cancel', 'not-a-policy'),
    ];

    for (const res of answers) expect([res.status, res.json.error.code]).toEqual([404, 'policy_not_found']);
    expect(await allRows()).toBe(rows);
  });

  it('refuses a body that is not an object (an array included) with 422, moving nothing', async () => {
    const order = await newOrder('40.00');
    const answers = await Promise.all(
      ['[]', '[{"reason":"resold"}]', 'null', '5'].map((raw) =>
        service.call('policies-settle', { method: 'POST', path: `/api/v2/policies/${order.policies[0]!.policy_number}/void`, clientId, rawBody: raw }),
      ),
    );
    expect(answers.map((res) => res.status)).toEqual([422, 422, 422, 422]);
    expect((await read(order.service_order_id)).json.policies[0].status).toBe('Issued');
  });

  it('answers concurrent identical voids all with 200 (one wrote, the rest are its repeats), the same policy each time', async () => {
    const order = await newOrder('60.00');
    const answers = await Promise.all(Array.from({ length: 12 }, () => settle('void', order.policies[0]!.policy_number)));
    expect(answers.map((res) => res.status)).toEqual(Array(12).fill(200));
    for (const res of answers) expect(res.json).toEqual(answers[0]!.json);
    expect(answers[0]!.json.history).toHaveLength(2);
  });

  it('refuses an unknown reason or field with 422', async () => {
    const order = await newOrder('40.00');
    const bad = await settle('cancel', order.policies[0]!.policy_number, { reason: 'bored' });
    const extra = await settle('cancel', order.policies[0]!.policy_number, { status: 'Void' });
    expect([bad.status, bad.json.error.param, extra.status, extra.json.error.param]).toEqual([422, 'reason', 422, 'status']);
  });
});

describe('a race', () => {
  it('of 20 cancels, voids and changes of one policy ends with exactly one transition and a consistent order', async () => {
    const order = await newOrder('100.00');
    const policy = order.policies[0]!.policy_number;
    const kinds = Array.from({ length: 20 }, (_, i) => (['cancel', 'void', 'change'] as const)[i % 3]!);
    const attempts = kinds.map((kind, i) =>
      kind === 'cancel'
        ? settle('cancel', policy)
        : kind === 'void'
          ? settle('void', policy)
          : service.call('orders-change', {
              method: 'PATCH',
              path: `/api/v2/orders/${order.service_order_id}`,
              clientId,
              body: { items: [{ name: `New ${i}`, old_reference_number: 'seat-1', reference_number: `new-${i}`, cost: '110.00' }] },
            }),
    );

    const answers = await Promise.all(attempts);

    // One request moves the policy; the rest are refused (409), except that a cancel or void arriving
    // after the same cancel or void committed is its repeat, answered 200 with the policy as it is.
    const won = answers.map((res, i) => ({ res, kind: kinds[i]! })).filter(({ res }) => res.status === 200);
    const winningKinds = new Set(won.map(({ kind }) => kind));
    expect(winningKinds.size).toBe(1);
    if (winningKinds.has('change')) expect(won).toHaveLength(1);
    else for (const { res } of won) expect(res.json).toEqual(won[0]!.res.json);
    expect(answers.filter((res) => res.status !== 200).every((res) => res.status === 409)).toBe(true);
    const after = (await read(order.service_order_id)).json;
    const original = after.policies.find((p: { policy_number: string }) => p.policy_number === policy);
    expect(original.status).toBe({ cancel: 'Canceled', void: 'Void', change: 'Upgraded' }[[...winningKinds][0]!]);
    expect(original.history).toHaveLength(2);
    expect(after.items).toHaveLength(original.status === 'Upgraded' ? 2 : 1);
  });
});
