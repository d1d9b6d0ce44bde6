import { QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartItems, startService, uniqueOrderNumber, type Service } from '../../test/support/service.js';

/** PATCH /api/v2/orders/{id}/ over DynamoDB Local: all or nothing, race-free. */
process.env.WEBHOOK_URLS = 'local'; // the exchange to another date's webhook goes to an endpoint on 127.0.0.1

let service: Service;
let clientId: string;

beforeAll(async () => {
  service = await startService();
  clientId = (await service.newClient('Change Shop')).client_id;
});
afterAll(() => service.stop());

async function newOrder(...costs: string[]): Promise<string> {
  const res = await service.call('orders-create', {
    method: 'POST',
    path: '/api/v2/orders',
    clientId,
    body: { order_number: uniqueOrderNumber('chg'), currency: 'USD', items: cartItems(...costs) },
  });
  if (res.status !== 201) throw new Error(res.body);
  return res.json.service_order_id;
}

const change = (orderId: string, items: unknown[], asClient = clientId) =>
  service.call('orders-change', { method: 'PATCH', path: `/api/v2/orders/${orderId}/`, pathParameters: { id: orderId }, clientId: asClient, body: { items } });

const read = (orderId: string) => service.call('orders-read', { method: 'GET', path: `/api/v2/orders/${orderId}/`, pathParameters: { id: orderId }, clientId });

/** Every stored record of the order, as DynamoDB holds it. */
async function storedRecords(orderId: string) {
  const { Items = [] } = await service.tables.doc.send(
    new QueryCommand({
      TableName: service.tables.main,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': `CLIENT#${clientId}#ORDER#${orderId}` },
      ConsistentRead: true,
    }),
  );
  return Items;
}

const statusOf = (order: { policies: { status: string; item: { reference_number: string } }[] }, reference: string) =>
  order.policies.find((p) => p.item.reference_number === reference)?.status;

describe('PATCH /orders/{id}/', () => {
  it('upgrades, downgrades and exchanges in one request', async () => {
    const orderId = await newOrder('100.00', '100.00', '100.00');

    const res = await change(orderId, [
      { name: 'VIP', old_reference_number: 'seat-1', reference_number: 'vip-1', cost: '150.00' },
      { name: 'Balcony', old_reference_number: 'seat-2', reference_number: 'bal-2', cost: '80.00' },
      { name: 'Seat 3 moved', old_reference_number: 'seat-3', reference_number: 'seat-3b', cost: '100' },
    ]);

    expect(res.status).toBe(200);
    expect(res.json.items.map((i: { reference_number: string }) => i.reference_number)).toEqual(['vip-1', 'bal-2', 'seat-3b']);
    expect(res.json.policies.map((p: { change_type: string; status: string }) => [p.change_type, p.status])).toEqual([
      ['upgrade', 'Issued'],
      ['downgrade', 'Issued'],
      ['exchange', 'Issued'],
    ]);
    expect(res.json.policies[0].premium).toBe('12.75');
    expect(res.json.subtotal).toBe('330.00');
    const after = (await read(orderId)).json;
    expect([statusOf(after, 'seat-1'), statusOf(after, 'seat-2'), statusOf(after, 'seat-3')]).toEqual(['Upgraded', 'Downgraded', 'Exchanged']);
    expect(after.subtotal).toBe('330.00');
    const replaced = after.items.find((i: { reference_number: string }) => i.reference_number === 'seat-1');
    const replacement = after.items.find((i: { reference_number: string }) => i.reference_number === 'vip-1');
    expect(replacement.event_id).toBe(replaced.event_id);
    expect(res.json.policies[0].replaces).toBe(
      after.policies.find((p: { item: { reference_number: string } }) => p.item.reference_number === 'seat-1').policy_number,
    );
  });

  const failingThirdElements: [string, unknown, number, string, string][] = [
    [
      'unknown old reference',
      { name: 'X', old_reference_number: 'nope', reference_number: 'x-3', cost: '5' },
      404,
      'item_not_found',
      'items[2].old_reference_number',
    ],
    [
      'reference already in the order',
      { name: 'X', old_reference_number: 'seat-3', reference_number: 'seat-1', cost: '5' },
      409,
      'reference_exists',
      'items[2].reference_number',
    ],
    [
      'reference repeated in the body',
      { name: 'X', old_reference_number: 'seat-3', reference_number: 'new-1', cost: '5' },
      422,
      'duplicate_reference',
      'items[2].reference_number',
    ],
    ['invalid cost', { name: 'X', old_reference_number: 'seat-3', reference_number: 'x-3', cost: '5.001' }, 422, 'validation_failed', 'items[2].cost'],
    [
      'policy already changed',
      { name: 'X', old_reference_number: 'seat-4', reference_number: 'x-3', cost: '5' },
      409,
      'policy_not_issued',
      'items[2].old_reference_number',
    ],
  ];

  it.each(failingThirdElements)('changes nothing at all when the third element fails: %s', async (_name, third, status, code, param) => {
    const orderId = await newOrder('10.00', '20.00', '30.00', '40.00');
    expect((await change(orderId, [{ name: 'Y', old_reference_number: 'seat-4', reference_number: 'seat-4b', cost: '41' }])).status).toBe(200);
    const before = await storedRecords(orderId);

    const res = await change(orderId, [
      { name: 'A', old_reference_number: 'seat-1', reference_number: 'new-1', cost: '11.00' },
      { name: 'B', old_reference_number: 'seat-2', reference_number: 'new-2', cost: '19.00' },
      third,
    ]);

    expect(res.status).toBe(status);
    expect(res.json.error).toMatchObject({ code, param });
    expect(await storedRecords(orderId)).toEqual(before);
  });

  it('lets exactly one of 20 concurrent changes of the same policy win; the others get 409', async () => {
    const orderId = await newOrder('50.00');

    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        change(orderId, [{ name: `Try ${i}`, old_reference_number: 'seat-1', reference_number: `try-${i}`, cost: '60.00' }]),
      ),
    );

    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const order = (await read(orderId)).json;
    expect(order.policies.filter((p: { replaces?: string }) => p.replaces)).toHaveLength(1);
    expect(order.policies.filter((p: { status: string }) => p.status === 'Issued')).toHaveLength(1);
    expect(order.subtotal).toBe('60.00');
  });

  it('refuses to change an already changed policy (409) but changes its replacement, down a chain', async () => {
    const orderId = await newOrder('70.00');
    await change(orderId, [{ name: 'Up', old_reference_number: 'seat-1', reference_number: 'up-1', cost: '90.00' }]);

    const again = await change(orderId, [{ name: 'Again', old_reference_number: 'seat-1', reference_number: 'again-1', cost: '20.00' }]);
    const down = await change(orderId, [{ name: 'Down', old_reference_number: 'up-1', reference_number: 'down-1', cost: '30.00' }]);

    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('policy_not_issued');
    expect(down.status).toBe(200);
    expect(down.json.policies[0]).toMatchObject({ change_type: 'downgrade', status: 'Issued' });
    const order = (await read(orderId)).json;
    expect([statusOf(order, 'seat-1'), statusOf(order, 'up-1'), statusOf(order, 'down-1')]).toEqual(['Upgraded', 'Downgraded', 'Issued']);
    expect(order.subtotal).toBe('30.00');
  });

  it("states the money owed on each new policy (premium_delta) and keeps every policy's history", async () => {
    const orderId = await newOrder('100.00', '40.00');

    const res = await change(orderId, [
      { name: 'Cheaper', old_reference_number: 'seat-1', reference_number: 'cheap-1', cost: '50.00' },
      { name: 'Dearer', old_reference_number: 'seat-2', reference_number: 'dear-2', cost: '140.00' },
    ]);
    const order = (await read(orderId)).json;
    const policyOf = (reference: string) => order.policies.find((p: { item: { reference_number: string } }) => p.item.reference_number === reference);

    expect(res.status).toBe(200);
    // 8.5 % of 100.00, 50.00, 40.00, 140.00: 8.50, 4.25, 3.40, 11.90
    expect(res.json.policies.map((p: { premium_delta: string }) => p.premium_delta)).toEqual(['-4.25', '8.50']);
    expect(policyOf('seat-1').history.map((step: { status: string; reason: string }) => [step.status, step.reason])).toEqual([
      ['Issued', 'order_created'],
      ['Downgraded', 'downgrade'],
    ]);
    expect(policyOf('cheap-1').history).toEqual([{ status: 'Issued', at: res.json.updated, reason: 'downgrade' }]);
    expect(policyOf('seat-1').premium_delta).toBeUndefined();
  });

  it("answers 404 for an unknown order and for another client's order, changing nothing", async () => {
    const orderId = await newOrder('25.00');
    const other = await service.newClient('Someone Else');
    const before = await storedRecords(orderId);
    const body = [{ name: 'X', old_reference_number: 'seat-1', reference_number: 'x', cost: '30' }];

    const theirs = await change(orderId, body, other.client_id);
    const unknown = await change('00000000-0000-4000-8000-000000000000', body);

    expect(theirs.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(await storedRecords(orderId)).toEqual(before);
  });

  it('answers 422 for an empty change list and for more than 25 changes', async () => {
    const orderId = await newOrder('25.00');
    const many = Array.from({ length: 26 }, (_, i) => ({ name: 'X', old_reference_number: 'seat-1', reference_number: `n-${i}`, cost: '1' }));

    const empty = await change(orderId, []);
    const tooMany = await change(orderId, many);

    expect([empty.status, empty.json.error.param]).toEqual([422, 'items']);
    expect([tooMany.status, tooMany.json.error.param]).toEqual([422, 'items']);
  });
});

describe('an exchange to another date (an item with `event`)', () => {
  const postponed = { name: 'Spring Concert', start_date: '2027-05-08', start_time: '20:00', location: 'City Hall' };
  let shop: string;
  beforeAll(async () => {
    shop = (await service.newClient('Postponing Shop')).client_id;
    // An endpoint (nothing listens: deliveries fail), so that the stream keeps the shop's webhook events.
    const endpoint = await service.call('webhook-endpoints', {
      method: 'POST',
      path: '/api/v2/webhook_endpoints',
      clientId: shop,
      body: { url: 'http://127.0.0.1:1025/hooks' },
    });
    expect(endpoint.status, endpoint.body).toBe(201);
  });
  const shopOrder = async () => {
    const res = await service.call('orders-create', {
      method: 'POST',
      path: '/api/v2/orders',
      clientId: shop,
      body: { order_number: uniqueOrderNumber('date'), currency: 'USD', items: cartItems('100.00', '40.00') },
    });
    expect(res.status, res.body).toBe(201);
    return res.json as {
      service_order_id: string;
      items: { event: { id: string } }[];
      policies: { policy_number: string; premium: string; void_until: string }[];
    };
  };
  const exchange = (orderId: string, items: unknown[]) =>
    service.call('orders-change', { method: 'PATCH', path: `/api/v2/orders/${orderId}/`, pathParameters: { id: orderId }, clientId: shop, body: { items } });
  /** The shop's records the streams wrote: its webhook events' data and its ledger entries. */
  async function streamed() {
    await service.drainStreams();
    const { Items = [] } = await service.tables.doc.send(new ScanCommand({ TableName: service.tables.main }));
    const mine = Items.filter((record) => record.client_id === shop || String(record.PK).startsWith(`CLIENT#${shop}#`));
    return {
      events: mine.filter((record) => record.entity === 'webhook_event').map((record) => ({ type: record.type, data: record.data })),
      ledger: mine
        .filter((record) => record.entity === 'ledger_entry')
        .map((record) => ({ type: record.type, policy: record.policy_number, amount: record.amount, event: record.event?.start_date })),
    };
  }

  it('issues a policy covering the new event, with a webhook naming it and the ledger its premium’s difference', async () => {
    const order = await shopOrder();
    const res = await exchange(order.service_order_id, [
      { name: 'Seat 1', old_reference_number: 'seat-1', reference_number: 'seat-1-may', cost: '100.00', event: postponed },
    ]);

    expect(res.status, res.body).toBe(200);
    const [item] = res.json.items;
    expect(item.event).toMatchObject({ ...postponed, start_time: '20:00:00', end_date: null, end_time: null });
    expect(item.event.id).toMatch(/^evnt_/);
    expect(item.event.id).not.toBe(order.items[0]!.event.id);
    const [policy] = res.json.policies;
    // The replaced policy's terms (one flat rate here): the same cost, the same premium; its void window kept.
    expect(policy).toMatchObject({
      status: 'Issued',
      change_type: 'exchange',
      premium: order.policies[0]!.premium,
      premium_delta: '0.00',
      void_until: order.policies[0]!.void_until,
    });
    const read = await service.call('orders-read', { method: 'GET', path: `/api/v2/orders/${order.service_order_id}`, clientId: shop });
    expect(read.json.items.map((i: { event: { start_date: string } }) => i.event.start_date)).toEqual(['2027-04-10', '2027-04-10', '2027-05-08']);

    const { events, ledger } = await streamed();
    const exchanged = events.find((event) => event.type === 'policy.exchanged' && event.data.policy.policy_number === policy.policy_number);
    expect(exchanged?.data).toMatchObject({ replaces: { policy_number: order.policies[0]!.policy_number }, event: item.event });
    // The ledger books the new policy with the event it covers.
    expect(ledger.filter((entry) => entry.policy === policy.policy_number)).toEqual([
      { type: 'premium_adjusted', policy: policy.policy_number, amount: 0, event: '2027-05-08' },
    ]);
    const shown = await service.call('ledger-read', {
      method: 'GET',
      path: '/api/v2/ledger',
      clientId: shop,
      query: { type: 'premium_adjusted', limit: '100' },
    });
    expect(shown.json.data.find((entry: { policy_number: string }) => entry.policy_number === policy.policy_number)?.event).toEqual({
      id: item.event.id,
      name: 'Spring Concert',
      start_date: '2027-05-08',
    });
  });

  it('prices an upgrade to another date under the replaced terms, and its ledger entry is the premium’s difference', async () => {
    const order = await shopOrder();
    const res = await exchange(order.service_order_id, [
      { name: 'Seat 2 VIP', old_reference_number: 'seat-2', reference_number: 'seat-2-may', cost: '60.00', event: postponed },
    ]);
    expect(res.status, res.body).toBe(200);
    const [policy] = res.json.policies;
    expect(policy.change_type).toBe('upgrade');
    const delta = Math.round(Number(policy.premium) * 100) - Math.round(Number(order.policies[1]!.premium) * 100);
    expect(Math.round(Number(policy.premium_delta) * 100)).toBe(delta);
    const { ledger, events } = await streamed();
    expect(ledger.filter((entry) => entry.policy === policy.policy_number)).toEqual([
      { type: 'premium_adjusted', policy: policy.policy_number, amount: delta, event: '2027-05-08' },
    ]);
    expect(events.find((event) => event.type === 'policy.upgraded' && event.data.policy.policy_number === policy.policy_number)?.data.event).toMatchObject({
      start_date: '2027-05-08',
    });
  });

  it('refuses a bad event in the one envelope, naming it, and changes nothing', async () => {
    const order = await shopOrder();
    const item = (event: unknown) => ({ name: 'Seat 1', old_reference_number: 'seat-1', reference_number: 'seat-1-x', cost: '100.00', event });
    const cases: [unknown, string][] = [
      [{ ...postponed, doors: '19:00' }, 'items[0].event.doors'],
      [{ ...postponed, start_date: '2027-02-30' }, 'items[0].event.start_date'],
      [{ ...postponed, end_date: '2027-05-01' }, 'items[0].event.end_date'],
      [{ name: 'No date' }, 'items[0].event.start_date'],
      ['tomorrow', 'items[0].event'],
      [{ ...postponed, end_date: '2027-05-08', end_time: '19:00' }, 'items[0].event.end_time'],
    ];
    for (const [event, param] of cases) {
      const res = await exchange(order.service_order_id, [item(event)]);
      expect([res.status, res.json.error.code, res.json.error.param], JSON.stringify(event)).toEqual([422, 'validation_failed', param]);
    }
    // A day already past: cover that could never be claimed.
    const past = await exchange(order.service_order_id, [item({ ...postponed, start_date: '2020-01-01' })]);
    expect([past.status, past.json.error.code, past.json.error.param]).toEqual([422, 'event_in_past', 'items[0].event.start_date']);
    const after = await service.call('orders-read', { method: 'GET', path: `/api/v2/orders/${order.service_order_id}`, clientId: shop });
    expect(after.json.policies.map((p: { status: string }) => p.status)).toEqual(['Issued', 'Issued']);
    // A policy no longer Issued cannot move to another date either.
    expect((await exchange(order.service_order_id, [item(postponed)])).status).toBe(200);
    const again = await exchange(order.service_order_id, [{ ...item(postponed), reference_number: 'seat-1-y' }]);
    expect([again.status, again.json.error.code]).toEqual([409, 'policy_not_issued']);
  });
});
