import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptDelivery, dispatchChanges, recordEvent, retryDue, type SendWebhook } from '#shared/webhooks/dispatch-webhooks.js';
import type { DeliveryQueue } from '#shared/webhooks/ports.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { recordChanges } from '#shared/platform/dynamo/stream-events.js';
import { DynamoEventLog } from '#shared/webhooks/dynamo-event-log.js';
import { webhookDeps } from '#shared/webhooks/webhook-deps.js';
import { startReceiver, type Delivery, type Receiver } from '../../test/support/receiver.js';
import { cartItems, quoteFor, startService, uniqueOrderNumber, type Service } from '../../test/support/service.js';

/**
 * Webhooks end to end (issue 18): a real HTTP receiver on localhost, the real handlers, DynamoDB
 * Local's stream through the dispatcher, the retry sweep on a schedule compressed by
 * configuration (WEBHOOK_RETRY_SCALE), signatures checked with the standardwebhooks package.
 */
process.env.WEBHOOK_URLS = 'local';
process.env.WEBHOOK_RETRY_SCALE = '0.000001'; // the whole schedule (27.6 h) in 0.1 s: its shape, without its wait

interface Policy {
  policy_number: string;
  premium: string;
  item: { reference_number: string };
}
let service: Service;
let receiver: Receiver;
let receiverUrl: string;
let received: Delivery[];

beforeAll(async () => {
  service = await startService();
  receiver = await startReceiver();
  ({ url: receiverUrl, received } = receiver);
});
afterAll(async () => {
  await service.stop();
  await receiver.stop();
});
/** Status codes the receiver answers the next deliveries with, in turn (200 once they run out). */
const answerWith = (...codes: number[]) => receiver.answers.splice(0, receiver.answers.length, ...codes);

/** The public key of each shop made here (a quote needs it). */
const shops = new Map<string, string>();
async function shopWithEndpoint(events: string[]) {
  const client = await service.newClient('Webhook Shop');
  shops.set(client.client_id, client.public_key);
  const endpoint = await service.call('webhook-endpoints', {
    method: 'POST',
    path: '/api/v2/webhook_endpoints',
    clientId: client.client_id,
    body: { url: receiverUrl, events },
  });
  expect(endpoint.status).toBe(201);
  return { clientId: client.client_id, endpointId: endpoint.json.id as string, secret: endpoint.json.secret as string };
}

async function placeOrder(clientId: string, ...costs: string[]) {
  const res = await service.call('orders-create', {
    method: 'POST',
    path: '/api/v2/orders',
    clientId,
    body: {
      order_number: uniqueOrderNumber('hook'),
      currency: 'USD',
      items: cartItems(...costs),
      customer: { first_name: 'Philippa', last_name: 'Hookworth', email: 'philippa@example.org' },
    },
  });
  expect(res.status).toBe(201);
  return res.json as { service_order_id: string; order_number: string; policies: Policy[] };
}

const downgrade = (clientId: string, orderId: string) =>
  service.call('orders-change', {
    method: 'PATCH',
    path: `/api/v2/orders/${orderId}`,
    pathParameters: { id: orderId },
    clientId,
    body: { items: [{ name: 'Cheaper seat', old_reference_number: 'seat-1', reference_number: 'seat-1b', cost: '50.00' }] },
  });

const verifies = (secret: string, delivery: Delivery) => {
  try {
    new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

describe('a downgrade', () => {
  it('is delivered once as policy.downgraded, signed, with the negative premium difference and no personal data', async () => {
    const { clientId, secret } = await shopWithEndpoint(['policy.downgraded']);
    const order = await placeOrder(clientId, '100.00', '40.00');
    await service.drainStreams();
    received.length = 0;

    const changed = await downgrade(clientId, order.service_order_id);
    expect(changed.status).toBe(200);
    await service.drainStreams();

    expect(received).toHaveLength(1);
    const [delivery] = received;
    expect(verifies(secret, delivery!)).toBe(true);
    const body = JSON.parse(delivery!.body) as { id: string; type: string; data: Record<string, any> };
    expect(body.type).toBe('policy.downgraded');
    expect(delivery!.headers['webhook-id']).toBe(body.id);
    const newPolicy = (changed.json.policies as Policy[]).find((policy) => policy.item.reference_number === 'seat-1b')!;
    const oldPolicy = order.policies.find((policy) => policy.item.reference_number === 'seat-1')!;
    expect(body.data).toEqual({
      order_number: order.order_number,
      service_order_id: order.service_order_id,
      currency: 'USD',
      policy: { policy_number: newPolicy.policy_number, status: 'Issued', premium: newPolicy.premium },
      replaces: { policy_number: oldPolicy.policy_number, premium: oldPolicy.premium },
      premium_delta: (Number(newPolicy.premium) - Number(oldPolicy.premium)).toFixed(2),
      event: (changed.json.items as { event: unknown }[])[0]!.event, // the event the new policy covers (the old item's here)
    });
    expect(Number(body.data.premium_delta)).toBeLessThan(0);
    expect(delivery!.body).not.toMatch(/Philippa|Hookworth|philippa@/);

    await service.drainStreams(); // the stream again: nothing new is sent
    expect(received).toHaveLength(1);
  });
});

describe('policy events of a non-USD order', () => {
  it('name their currency beside their amounts: a JPY order’s policy.downgraded, policy.canceled and policy.voided (issue 35.B)', async () => {
    const { clientId } = await shopWithEndpoint(['policy.downgraded', 'policy.canceled', 'policy.voided']);
    const placed = await service.call('orders-create', {
      method: 'POST',
      path: '/api/v2/orders',
      clientId,
      body: { order_number: uniqueOrderNumber('yen'), currency: 'JPY', items: cartItems('16000', '9000', '4000') },
    });
    expect(placed.status).toBe(201);
    const orderId = placed.json.service_order_id as string;
    await service.drainStreams();
    received.length = 0;

    const changed = await service.call('orders-change', {
      method: 'PATCH',
      path: `/api/v2/orders/${orderId}`,
      pathParameters: { id: orderId },
      clientId,
      body: { items: [{ name: 'Cheaper seat', old_reference_number: 'seat-1', reference_number: 'seat-1b', cost: '5000' }] },
    });
    expect(changed.status).toBe(200);
    const second = (placed.json.policies as Policy[]).find((p) => p.item.reference_number === 'seat-2')!;
    const canceled = await service.call('policies-settle', { method: 'POST', path: `/api/v2/policies/${second.policy_number}/cancel`, clientId });
    expect(canceled.status).toBe(200);
    const voided = await service.call('orders-cancel', { method: 'POST', path: `/api/v2/orders/${orderId}/cancel`, clientId, body: { mode: 'void' } });
    expect(voided.status).toBe(200);
    await service.drainStreams();

    const bodies = received.map((r) => JSON.parse(r.body) as { type: string; data: Record<string, any> });
    expect(bodies.map((b) => b.type).sort()).toEqual(['policy.canceled', 'policy.downgraded', 'policy.voided', 'policy.voided']);
    for (const body of bodies) {
      expect(body.data.currency).toBe('JPY');
      expect(body.data.policy.premium).toMatch(/^\d+$/); // yen have no minor digits
    }
    const downgraded = bodies.find((b) => b.type === 'policy.downgraded')!;
    expect(downgraded.data.premium_delta).toMatch(/^-\d+$/);
    expect(bodies.find((b) => b.type === 'policy.voided')!.data.policy.refund_due).toMatch(/^\d+$/);
    const logged = await service.call('events', { method: 'GET', path: '/api/v2/events', clientId, query: { type: 'policy.canceled' } });
    expect(logged.json.data[0].data).toMatchObject({ currency: 'JPY', policy: { refund_due: '0' } });
  });
});

describe('a receiver that fails', () => {
  it('answering 500 twice then 200 gets three attempts, all logged, one success, one webhook-id', async () => {
    const { clientId } = await shopWithEndpoint(['policy.downgraded']);
    const order = await placeOrder(clientId, '100.00');
    await service.drainStreams();
    received.length = 0;
    answerWith(500, 500);

    await downgrade(clientId, order.service_order_id);
    await service.drainStreams();
    expect(received).toHaveLength(1);
    for (let sweep = 0; sweep < 50 && received.length < 3; sweep++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      await service.runScheduled('webhooks-retry');
    }
    expect(received).toHaveLength(3);
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(1);

    const eventId = received[0]!.headers['webhook-id'] as string;
    const kept = await new DynamoEventLog(sharedDocumentClient(), service.tables.main).event(clientId, eventId);
    expect(kept!.deliveries).toHaveLength(1);
    expect(kept!.deliveries[0]!.status).toBe('delivered');
    expect(kept!.deliveries[0]!.attempts.map((a) => a.status_code)).toEqual([500, 500, 200]);
    await service.runScheduled('webhooks-retry');
    expect(received).toHaveLength(3); // delivered: never sent again
  });

  it('answering 410 disables the endpoint: nothing more is sent to it', async () => {
    const { clientId, endpointId } = await shopWithEndpoint(['policy.downgraded', 'order.created']);
    received.length = 0;
    answerWith(410);
    await placeOrder(clientId, '30.00');
    await service.drainStreams();
    expect(received.map((r) => (JSON.parse(r.body) as { type: string }).type)).toEqual(['order.created']);
    const endpoint = await service.call('webhook-endpoints', { method: 'GET', path: `/api/v2/webhook_endpoints/${endpointId}`, clientId });
    expect(endpoint.json.status).toBe('disabled');
    await placeOrder(clientId, '31.00');
    await service.drainStreams();
    await service.runScheduled('webhooks-retry');
    expect(received).toHaveLength(1);

    // The merchant fixes its receiver and enables the endpoint again: the next event is sent.
    const enabled = await service.call('webhook-endpoints', { method: 'POST', path: `/api/v2/webhook_endpoints/${endpointId}/enable`, clientId });
    expect([enabled.status, enabled.json.status]).toEqual([200, 'enabled']);
    await placeOrder(clientId, '32.00');
    await service.drainStreams();
    expect(received).toHaveLength(2);
    const stranger = await service.newClient('Stranger');
    expect(
      (await service.call('webhook-endpoints', { method: 'POST', path: `/api/v2/webhook_endpoints/${endpointId}/enable`, clientId: stranger.client_id }))
        .status,
    ).toBe(404);
  });
});

describe('a dispatcher that dies mid-batch', () => {
  it('loses no event when its send throws, and sends again only with the same webhook-id', async () => {
    const { clientId } = await shopWithEndpoint(['order.created']);
    // Three orders in one batch of changes, read straight from the table's stream records.
    const records: DynamoDBRecord[] = [];
    const capture = await import('../../scripts/local/local-streams.js');
    const pump = await capture.startStreamPump({
      dynamo: (await import('../../scripts/local/local-stack.js')).localClient(service.tables.endpoint),
      endpoint: service.tables.endpoint,
      tableName: service.tables.main,
      handler: async (event) => {
        records.push(...event.Records);
        return Promise.resolve();
      },
    });
    await pump.drain(); // everything so far: not this test's
    records.length = 0;
    const orders = [await placeOrder(clientId, '10.00'), await placeOrder(clientId, '11.00'), await placeOrder(clientId, '12.00')];
    await pump.drain();
    await pump.stop();
    const changes = recordChanges(records);

    received.length = 0;
    const deps = webhookDeps();
    let sent = 0;
    const crashing: SendWebhook = async (url, headers, body, timeoutMs) => {
      if (++sent === 2) throw new Error('the dispatcher dies here');
      return deps.send(url, headers, body, timeoutMs);
    };
    await expect(dispatchChanges({ ...deps, send: crashing }, changes)).rejects.toThrow('dies here');
    const figures: string[] = [];
    const observed = { ...deps, observe: (figure: string) => void figures.push(figure) };
    await dispatchChanges(observed, changes); // Lambda gives the batch again
    await dispatchChanges(observed, changes); // and once more
    expect(figures.filter((f) => f === 'delivered').length).toBeGreaterThanOrEqual(1); // the alarms' metrics see the deliveries that ended

    const byOrder = new Map<string, Set<string>>();
    for (const delivery of received) {
      const body = JSON.parse(delivery.body) as { id: string; data: { service_order_id: string } };
      expect(delivery.headers['webhook-id']).toBe(body.id);
      byOrder.set(body.data.service_order_id, (byOrder.get(body.data.service_order_id) ?? new Set()).add(body.id));
    }
    expect([...byOrder.keys()].sort()).toEqual(orders.map((o) => o.service_order_id).sort()); // none lost
    expect([...byOrder.values()].every((ids) => ids.size === 1)).toBe(true); // a repeat is the same event
  });
});

describe('the delivery log', () => {
  const events = (clientId: string, path = '', query?: Record<string, string>) =>
    service.call('events', { method: 'GET', path: `/api/v2/events${path}`, clientId, ...(query ? { query } : {}) });

  it('shows each event with its attempts, filters by type and success, and redelivers on request', async () => {
    const { clientId, endpointId } = await shopWithEndpoint(['order.created', 'policy.downgraded']);
    received.length = 0;
    answerWith(500, 500, 500, 500, 500, 500, 500, 500); // the first order's event fails every attempt
    const failing = await placeOrder(clientId, '70.00');
    await service.drainStreams();
    for (let sweep = 0; sweep < 200 && received.length < 8; sweep++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      await service.runScheduled('webhooks-retry');
    }
    answerWith();
    const fine = await placeOrder(clientId, '80.00');
    await service.drainStreams();

    const all = await events(clientId);
    expect(all.status).toBe(200);
    expect(all.json.data.map((e: { data: { service_order_id: string } }) => e.data.service_order_id)).toEqual([
      fine.service_order_id,
      failing.service_order_id,
    ]);
    const [ok, failed] = all.json.data as { id: string; delivery_success: boolean | null }[];
    expect([ok!.delivery_success, failed!.delivery_success]).toEqual([true, false]);
    expect((await events(clientId, '', { delivery_success: 'false' })).json.data.map((e: { id: string }) => e.id)).toEqual([failed!.id]);
    expect((await events(clientId, '', { type: 'policy.downgraded' })).json.data).toEqual([]);
    const first = await events(clientId, '', { limit: '1' });
    const second = await events(clientId, '', { limit: '1', cursor: first.json.next_cursor });
    expect([first.json.data[0].id, second.json.data[0].id, second.json.has_more]).toEqual([ok!.id, failed!.id, false]);
    expect((await events(clientId, '', { limit: '1', cursor: first.json.next_cursor, type: 'order.created' })).json.error.code).toBe('invalid_cursor');

    const detail = await events(clientId, `/${failed!.id}`);
    expect(detail.json.deliveries).toEqual([{ endpoint_id: endpointId, status: 'failed', next_attempt_at: null }]);
    expect(detail.json.attempts.map((a: { status_code: number }) => a.status_code)).toEqual(Array(8).fill(500)); // the first and 7 retries
    expect(JSON.stringify(detail.json)).not.toMatch(/Philippa|Hookworth|philippa@/);

    received.length = 0;
    const again = await service.call('events', { method: 'POST', path: `/api/v2/events/${failed!.id}/redeliver`, clientId });
    expect([again.status, again.json.endpoints]).toEqual([202, 1]);
    await service.runScheduled('webhooks-retry');
    expect(received.map((r) => r.headers['webhook-id'])).toEqual([failed!.id]);
    const after = await events(clientId, `/${failed!.id}`);
    expect([after.json.delivery_success, after.json.attempts.length, after.json.deliveries[0].status]).toEqual([true, 9, 'delivered']);

    const stranger = await service.newClient('Stranger');
    expect((await events(stranger.client_id, `/${failed!.id}`)).status).toBe(404);
    expect((await service.call('events', { method: 'POST', path: `/api/v2/events/${failed!.id}/redeliver`, clientId: stranger.client_id })).status).toBe(404);
    expect((await events(clientId, '/evt_nope')).status).toBe(404);
  });
});

describe('the URL rules at delivery (SSRF)', () => {
  it('refuses, at each delivery, an endpoint whose address is no longer public, and sends nothing there', async () => {
    const { clientId, endpointId } = await shopWithEndpoint(['order.created']);
    const order = await placeOrder(clientId, '25.00');
    await service.drainStreams(); // its own order.created goes out first: this test sends by hand
    received.length = 0;
    const deps = webhookDeps();
    const store = new DynamoEventLog(sharedDocumentClient(), service.tables.main);
    const event = {
      id: 'evt_ssrfssrfssrfssrfssrfssrf',
      type: 'order.created' as const,
      created: new Date().toISOString(),
      client_id: clientId,
      order_id: order.service_order_id,
      data: { service_order_id: order.service_order_id },
    };
    const [delivery] = await recordEvent(deps, event, [{ id: endpointId, url: receiverUrl }], new Date(Date.now() + 60_000));
    const sent: string[] = [];
    const spy: SendWebhook = (url, headers, body, timeoutMs) => {
      sent.push(url);
      return deps.send(url, headers, body, timeoutMs);
    };
    // Deployed rules: the localhost receiver registered under npm start's rules is refused when sending.
    const refused = await attemptDelivery({ ...deps, send: spy, urlPolicy: 'deployed' }, event, delivery!, { leased: true });
    expect(refused.attempts.at(-1)).toMatchObject({ error: 'url_refused' });
    // A host that resolved to a public address at registration and now answers with a private or metadata one.
    for (const address of ['10.0.0.5', '169.254.169.254', 'fd00:ec2::254']) {
      const real = deps.endpoints;
      const endpoints = {
        list: (id: string) => real.list(id),
        get: async () => ({ ...(await real.get(clientId, endpointId))!, url: 'https://hooks.example.com/in' }),
        noteResult: (id: string, endpoint: string, ok: boolean, at: Date) => real.noteResult(id, endpoint, ok, at),
        disable: (id: string, endpoint: string) => real.disable(id, endpoint),
      };
      const again = await attemptDelivery(
        { ...deps, send: spy, endpoints, urlPolicy: 'deployed', resolve: () => Promise.resolve([address]) },
        event,
        { ...(await store.event(clientId, event.id))!.deliveries[0]!, url: 'https://hooks.example.com/in' },
        { leased: true },
      );
      expect(again.attempts.at(-1)).toMatchObject({ error: 'url_refused' });
    }
    expect(sent).toEqual([]);
    expect(received).toEqual([]);
  });
});

describe('events of one order', () => {
  it('reach an endpoint in order: a change waits while the order’s earlier event is being retried', async () => {
    const { clientId } = await shopWithEndpoint(['order.created', 'policy.downgraded']);
    await service.drainStreams(); // earlier tests' changes: not this test's
    received.length = 0;
    answerWith(500); // the order's first event fails once
    const order = await placeOrder(clientId, '90.00');
    expect((await downgrade(clientId, order.service_order_id)).status).toBe(200);
    await service.drainStreams(); // both changes in one batch: order.created fails, the downgrade must wait
    // Only this order's deliveries (earlier tests may still have retries due to the same receiver).
    const types = () =>
      received
        .map((r) => JSON.parse(r.body) as { type: string; data: { service_order_id: string } })
        .filter((body) => body.data.service_order_id === order.service_order_id)
        .map((body) => body.type);
    expect(types()).toEqual(['order.created']);
    for (let sweep = 0; sweep < 100 && types().length < 3; sweep++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      await service.runScheduled('webhooks-retry');
    }
    expect(types()).toEqual(['order.created', 'order.created', 'policy.downgraded']);
  });

  const voidWhole = (clientId: string, orderId: string) =>
    service.call('orders-cancel', { method: 'POST', path: `/api/v2/orders/${orderId}/cancel`, clientId, body: { mode: 'void', reason: 'customer_request' } });
  const arrivals = (orderId: string) =>
    received
      .map((r) => JSON.parse(r.body) as { type: string; data: { service_order_id: string; policy?: { policy_number: string } } })
      .filter((body) => body.data.service_order_id === orderId)
      .map((body) => body.data.policy?.policy_number ?? body.type);

  it('an order void reaches the receiver as its policies’ policy.voided, then order.canceled (order by order, several orders in one batch)', async () => {
    const { clientId } = await shopWithEndpoint(['policy.voided', 'order.canceled']);
    const orders = [
      await placeOrder(clientId, '10.00', '20.00', '30.00'),
      await placeOrder(clientId, '11.00', '21.00', '31.00'),
      await placeOrder(clientId, '12.00', '22.00', '32.00'),
    ];
    await service.drainStreams();
    received.length = 0;

    for (const order of orders) expect((await voidWhole(clientId, order.service_order_id)).status).toBe(200);
    await service.drainStreams(); // the three transactions' records in one batch, each order's header among its items

    for (const order of orders) {
      const got = arrivals(order.service_order_id);
      expect(got).toHaveLength(4);
      expect(got.at(-1)).toBe('order.canceled');
      expect(got.slice(0, 3).sort()).toEqual(order.policies.map((p) => p.policy_number).sort());
    }
  });

  it('an order void whose first policy.voided delivery fails once still ends with order.canceled, after every policy.voided (three orders, one after another)', async () => {
    const { clientId } = await shopWithEndpoint(['policy.voided', 'order.canceled']);
    for (let round = 0; round < 3; round++) {
      const order = await placeOrder(clientId, '10.00', '20.00', '30.00');
      await service.drainStreams();
      received.length = 0;
      answerWith(500); // the first delivery of the void fails

      expect((await voidWhole(clientId, order.service_order_id)).status).toBe(200);
      await service.drainStreams();
      const got = () => arrivals(order.service_order_id);
      expect(got()).toHaveLength(1); // the failed one; the others wait behind it
      for (let sweep = 0; sweep < 200 && got().length < 5; sweep++) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        await service.runScheduled('webhooks-retry');
      }

      expect(got()).toHaveLength(5);
      expect(got()[1]).toBe(got()[0]); // the retry of the failed one comes first
      expect(got().at(-1)).toBe('order.canceled');
      expect(new Set(got().slice(0, 4))).toEqual(new Set(order.policies.map((p) => p.policy_number)));
    }
  });
});

describe('a delivery woken for the sweep while its dispatcher is about to send it', () => {
  it('is sent once, and the log shows every attempt the receiver got (issue 35.13)', async () => {
    const { clientId } = await shopWithEndpoint(['policy.voided', 'order.canceled']);
    const order = await placeOrder(clientId, '10.00');
    await service.drainStreams();
    received.length = 0;
    // The void's changes, read from the stream without dispatching them.
    const records: DynamoDBRecord[] = [];
    const { startStreamPump } = await import('../../scripts/local/local-streams.js');
    const pump = await startStreamPump({
      dynamo: (await import('../../scripts/local/local-stack.js')).localClient(service.tables.endpoint),
      endpoint: service.tables.endpoint,
      tableName: service.tables.main,
      handler: (event) => Promise.resolve(void records.push(...event.Records)),
    });
    await pump.drain();
    records.length = 0;
    const voided = await service.call('orders-cancel', {
      method: 'POST',
      path: `/api/v2/orders/${order.service_order_id}/cancel`,
      clientId,
      body: { mode: 'void', reason: 'customer_request' },
    });
    expect(voided.status).toBe(200);
    await pump.drain();
    await pump.stop();

    // policy.voided is delivered, which wakes the order's next event (order.canceled); the sweep
    // runs right then, while the dispatcher's lane goes on to send order.canceled itself.
    const deps = webhookDeps();
    const real = deps.deliveries;
    const deliveries: DeliveryQueue = Object.assign(Object.create(real) as DeliveryQueue, {
      wakeNext: async (client: string, orderId: string, endpointId: string, now: Date) => {
        await real.wakeNext(client, orderId, endpointId, now);
        await retryDue({ ...deps, deliveries: real });
      },
    });
    await dispatchChanges({ ...deps, deliveries }, recordChanges(records));

    const mine = received
      .map((r) => JSON.parse(r.body) as { id: string; type: string; data: { service_order_id: string } })
      .filter((body) => body.data.service_order_id === order.service_order_id);
    expect(mine.map((body) => body.type)).toEqual(['policy.voided', 'order.canceled']);
    const canceled = await service.call('events', { method: 'GET', path: `/api/v2/events/${mine[1]!.id}`, clientId });
    expect(canceled.json.attempts).toHaveLength(1);
  });
});

describe('an opt-out', () => {
  it('is delivered as order.opted_out with its order number, which the metrics table holds only sealed', async () => {
    const { clientId, secret } = await shopWithEndpoint(['order.opted_out']);
    await service.drainStreams();
    received.length = 0;
    const items = cartItems('60.00');
    const quote = await quoteFor(service, shops.get(clientId)!, items);
    const orderNumber = uniqueOrderNumber('optout-mail@example.org');
    const logged = await service.call('orders-create', {
      method: 'POST',
      path: '/api/v2/orders',
      clientId,
      body: { token: quote.tokens.opt_out, order_number: orderNumber, currency: 'USD', items },
    });
    expect(logged.status).toBe(204);
    await service.drainStreams();
    const mine = received.filter((r) => (JSON.parse(r.body) as { type: string }).type === 'order.opted_out');
    expect(mine).toHaveLength(1);
    expect(verifies(secret, mine[0]!)).toBe(true);
    expect((JSON.parse(mine[0]!.body) as { data: Record<string, unknown> }).data).toMatchObject({
      order_number: orderNumber,
      currency: 'USD',
      subtotal: '60.00',
    });
    for (const table of [service.tables.metrics, service.tables.main]) {
      const { Items = [] } = await service.tables.doc.send(new ScanCommand({ TableName: table }));
      expect(JSON.stringify(Items), table).not.toContain(orderNumber); // sealed in both; only the body sent names it
    }
    // The delivery log shows the event without it.
    const eventId = (JSON.parse(mine[0]!.body) as { id: string }).id;
    const listed = await service.call('events', { method: 'GET', path: '/api/v2/events', clientId });
    const shown = await service.call('events', { method: 'GET', path: `/api/v2/events/${eventId}`, pathParameters: { id: eventId }, clientId });
    expect(listed.json.data[0]).toMatchObject({ id: eventId, type: 'order.opted_out', data: { currency: 'USD', subtotal: '60.00' } });
    expect(shown.json.data).toEqual({ currency: 'USD', subtotal: '60.00' });
    expect(listed.body + shown.body).not.toContain(orderNumber);
  });

  it('carries its order number in a retried delivery too, opened from the seal at each attempt', async () => {
    const { clientId } = await shopWithEndpoint(['order.opted_out']);
    await service.drainStreams();
    received.length = 0;
    const items = cartItems('15.00');
    const quote = await quoteFor(service, shops.get(clientId)!, items);
    const orderNumber = uniqueOrderNumber('optout-retry');
    answerWith(500);
    const logged = await service.call('orders-create', {
      method: 'POST',
      path: '/api/v2/orders',
      clientId,
      body: { token: quote.tokens.opt_out, order_number: orderNumber, currency: 'USD', items },
    });
    expect(logged.status).toBe(204);
    await service.drainStreams();
    const mine = () => received.filter((r) => r.body.includes('order.opted_out'));
    for (let sweep = 0; sweep < 100 && mine().length < 2; sweep++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      await service.runScheduled('webhooks-retry');
    }
    expect(mine()).toHaveLength(2);
    expect(mine().map((r) => (JSON.parse(r.body) as { data: { order_number: string } }).data.order_number)).toEqual([orderNumber, orderNumber]);
  });
});

describe('records no consumer reads', () => {
  it('never stop the stream: after an Idempotency-Key answer with empty headers (a repeated opt-out), the next order is still announced', async () => {
    const { clientId } = await shopWithEndpoint(['order.created']);
    await service.drainStreams();
    received.length = 0;
    const items = cartItems('15.00');
    const quote = await quoteFor(service, shops.get(clientId)!, items);
    const optOut = { token: quote.tokens.opt_out, order_number: uniqueOrderNumber('optout-twice'), currency: 'USD', items };
    const send = (key: string) =>
      service.call('orders-create', { method: 'POST', path: '/api/v2/orders', clientId, body: optOut, headers: { 'idempotency-key': key } });
    expect((await send('first')).status).toBe(204);
    expect((await send('second')).status).toBe(204); // a repeat: its answer is kept under the key, headers and all (an empty map)
    await service.drainStreams();

    const order = await placeOrder(clientId, '20.00');
    await service.drainStreams();

    expect(received.map((r) => (JSON.parse(r.body) as { data: { service_order_id: string } }).data.service_order_id)).toContain(order.service_order_id);
  });
});

describe('a slow receiver', () => {
  it('holds up only its own deliveries: another merchant’s event in the same batch arrives first', async () => {
    const slowArrivals: number[] = [];
    const slow = createServer((req, res) => {
      req.resume();
      setTimeout(() => {
        slowArrivals.push(Date.now());
        res.end();
      }, 1_500);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const slowShop = await service.newClient('Slow Shop');
      const registered = await service.call('webhook-endpoints', {
        method: 'POST',
        path: '/api/v2/webhook_endpoints',
        clientId: slowShop.client_id,
        body: { url: `http://127.0.0.1:${(slow.address() as { port: number }).port}/hooks`, events: ['order.created'] },
      });
      expect(registered.status).toBe(201);
      const { clientId } = await shopWithEndpoint(['order.created']);
      await service.drainStreams();
      received.length = 0;
      const started = Date.now();
      await placeOrder(slowShop.client_id, '10.00'); // first in the stream
      const fast = await placeOrder(clientId, '11.00');
      let fastAt = 0;
      const poll = setInterval(() => {
        if (!fastAt && received.some((r) => r.body.includes(fast.service_order_id))) fastAt = Date.now();
      }, 5);
      await service.drainStreams();
      clearInterval(poll);
      expect(slowArrivals).toHaveLength(1);
      expect(fastAt).toBeGreaterThan(0);
      expect(fastAt - started).toBeLessThan(slowArrivals[0]! - started); // not queued behind the slow one
    } finally {
      await new Promise((resolve) => slow.close(resolve));
    }
  });
});
