import type { DynamoDBRecord } from 'aws-lambda';
import { Webhook } from 'standardwebhooks';
import { dispatchChanges, recordEvent } from '#shared/webhooks/dispatch-webhooks.js';
import type { DeliveryQueue } from '#shared/webhooks/ports.js';
import { recordChanges } from '#shared/platform/dynamo/stream-events.js';
import { webhookDeps } from '#shared/webhooks/webhook-deps.js';
import { localClient } from '../../scripts/local/local-stack.js';
import { startStreamPump } from '../../scripts/local/local-streams.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { DynamoWebhookEndpoints } from '#shared/webhooks/dynamo-webhook-endpoints.js';
import { TEST_EVENT_WINDOW_MS, TEST_EVENTS_PER_CLIENT, TEST_EVENTS_PER_ENDPOINT } from '#shared/webhooks/webhook-endpoints.js';
import { startReceiver, type Delivery, type Receiver } from '../../test/support/receiver.js';
import { cartItems, startService, uniqueOrderNumber, type Service } from '../../test/support/service.js';

/**
 * POST /api/v2/webhook_endpoints/{id}/test (issue 29) and what deleting an endpoint does to its
 * pending deliveries: real receivers on localhost, the real handlers, DynamoDB Local's stream
 * through the dispatcher, the retry sweep run by hand on a schedule compressed by configuration.
 */
process.env.WEBHOOK_URLS = 'local';
process.env.WEBHOOK_RETRY_SCALE = '0.000001';

let service: Service;
const receivers: Receiver[] = [];
beforeAll(async () => {
  service = await startService();
  for (let i = 0; i < 3; i++) receivers.push(await startReceiver());
});
afterAll(async () => {
  await service.stop();
  await Promise.all(receivers.map((receiver) => receiver.stop()));
});

const endpointsCall = (clientId: string, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) =>
  service.call('webhook-endpoints', { method, path: `/api/v2/webhook_endpoints${path}`, clientId, ...(body === undefined ? {} : { body }) });
const eventsCall = (clientId: string, path: string, query?: Record<string, string>) =>
  service.call('events', { method: 'GET', path: `/api/v2/events${path}`, clientId, ...(query ? { query } : {}) });

async function register(clientId: string, receiver: Receiver, events?: string[]) {
  const created = await endpointsCall(clientId, 'POST', '', { url: receiver.url, ...(events ? { events } : {}) });
  expect(created.status).toBe(201);
  return { id: created.json.id as string, secret: created.json.secret as string };
}

const verifies = (secret: string, delivery: Delivery) => {
  try {
    new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

/** Empties every receiver after the streams are drained: what earlier steps sent is not this step's. */
async function quiet() {
  await service.drainStreams();
  for (const receiver of receivers) receiver.received.length = 0;
}

describe('a test event', () => {
  it('reaches its endpoint alone, signed with that endpoint’s secret, and shows in the delivery log', async () => {
    const [first, second, stranger] = receivers as [Receiver, Receiver, Receiver];
    const shop = await service.newClient('Testing Shop');
    const target = await register(shop.client_id, first, ['claim.paid']); // subscribed to none of the test's type: sent anyway
    const sibling = await register(shop.client_id, second);
    const other = await service.newClient('Other Shop');
    await register(other.client_id, stranger);
    await quiet();

    const asked = await endpointsCall(shop.client_id, 'POST', `/${target.id}/test`);
    expect(asked.status).toBe(202);
    expect(asked.json).toMatchObject({ type: 'webhook_endpoint.test', endpoint_id: target.id });
    await service.drainStreams();

    expect(first.received).toHaveLength(1);
    expect(second.received).toEqual([]);
    expect(stranger.received).toEqual([]);
    const [delivery] = first.received as [Delivery];
    expect(JSON.parse(delivery.body)).toEqual({
      id: asked.json.id,
      type: 'webhook_endpoint.test',
      created: asked.json.created,
      data: { endpoint_id: target.id },
    });
    expect(delivery.headers['webhook-id']).toBe(asked.json.id);
    expect(verifies(target.secret, delivery)).toBe(true);
    expect(verifies(sibling.secret, delivery)).toBe(false);

    const logged = await eventsCall(shop.client_id, `/${asked.json.id}`);
    expect(logged.status).toBe(200);
    expect(logged.json).toMatchObject({ type: 'webhook_endpoint.test', delivery_success: true, data: { endpoint_id: target.id } });
    expect(logged.json.deliveries).toEqual([{ endpoint_id: target.id, status: 'delivered', next_attempt_at: null }]);
    expect(logged.json.attempts).toMatchObject([{ endpoint_id: target.id, status_code: 200 }]);
    const listed = await eventsCall(shop.client_id, '', { type: 'webhook_endpoint.test' });
    expect(listed.json.data.map((e: { id: string }) => e.id)).toEqual([asked.json.id]);
    expect((await eventsCall(other.client_id, `/${asked.json.id}`)).status).toBe(404);
  });

  it('is retried by the sweep after a failure, then delivered once', async () => {
    const [first] = receivers as [Receiver];
    const shop = await service.newClient('Flaky Shop');
    const target = await register(shop.client_id, first);
    await quiet();
    first.answers.push(500);

    const asked = await endpointsCall(shop.client_id, 'POST', `/${target.id}/test`, {});
    expect(asked.status).toBe(202);
    await service.drainStreams();
    const failed = await eventsCall(shop.client_id, `/${asked.json.id}`);
    expect(failed.json).toMatchObject({ delivery_success: false, deliveries: [{ status: 'pending' }], attempts: [{ status_code: 500 }] });

    await new Promise((resolve) => setTimeout(resolve, 20)); // the compressed schedule's first wait has passed
    await service.runScheduled('webhooks-retry');
    const delivered = await eventsCall(shop.client_id, `/${asked.json.id}`);
    expect(delivered.json).toMatchObject({ delivery_success: true, deliveries: [{ status: 'delivered' }] });
    expect(delivered.json.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 200]);
    expect(first.received.map((r) => r.headers['webhook-id'])).toEqual([asked.json.id, asked.json.id]);
  });

  it('is 404 for another client’s, an unknown or a malformed id; 422 with a body; 409 for a disabled endpoint', async () => {
    const [first] = receivers as [Receiver];
    const shop = await service.newClient('Owner Shop');
    const target = await register(shop.client_id, first);
    const other = await service.newClient('Stranger Shop');
    await quiet();

    for (const [clientId, id] of [
      [other.client_id, target.id],
      [shop.client_id, 'we_000000000000000000000000'],
      [shop.client_id, 'not-an-id'],
    ] as const) {
      const refused = await endpointsCall(clientId, 'POST', `/${id}/test`);
      expect([refused.status, refused.json.error.code]).toEqual([404, 'webhook_endpoint_not_found']);
    }
    expect((await endpointsCall(shop.client_id, 'POST', `/${target.id}/test`, { endpoint_id: target.id })).status).toBe(422);

    await new DynamoWebhookEndpoints(sharedDocumentClient(), service.tables.main).disable(shop.client_id, target.id);
    const disabled = await endpointsCall(shop.client_id, 'POST', `/${target.id}/test`);
    expect([disabled.status, disabled.json.error.code, disabled.json.error.param]).toEqual([409, 'webhook_endpoint_disabled', 'id']);
    await service.drainStreams();
    expect(first.received).toEqual([]);
    expect((await eventsCall(shop.client_id, '')).json.data).toEqual([]);
  });
});

describe('test events of one client', () => {
  it('are limited per client too: churning endpoints (create, test to the endpoint’s limit, delete) is refused 429 past TEST_EVENTS_PER_CLIENT (issue 35.C)', async () => {
    const [first] = receivers as [Receiver];
    const shop = await service.newClient('Churning Shop');
    // The limit is a fixed window: the churn starts at the beginning of the next one (the clock set there,
    // running on from it), so all of it counts in one, instead of waiting up to a window for it.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true, now: (Math.floor(Date.now() / TEST_EVENT_WINDOW_MS) + 1) * TEST_EVENT_WINDOW_MS + 100 });
    const rounds = TEST_EVENTS_PER_CLIENT / TEST_EVENTS_PER_ENDPOINT + 2;
    const answers = [];
    try {
      for (let round = 0; round < rounds; round++) {
        const endpoint = await register(shop.client_id, first);
        for (let n = 0; n < TEST_EVENTS_PER_ENDPOINT; n++) answers.push(await endpointsCall(shop.client_id, 'POST', `/${endpoint.id}/test`));
        expect((await endpointsCall(shop.client_id, 'DELETE', `/${endpoint.id}`)).status).toBe(204);
      }
    } finally {
      vi.useRealTimers();
    }

    const accepted = answers.filter((a) => a.status === 202);
    expect(new Set(accepted.map((a) => Math.floor(Date.parse(a.json.created) / TEST_EVENT_WINDOW_MS))).size).toBe(1);
    expect(answers.slice(0, TEST_EVENTS_PER_CLIENT).map((a) => a.status)).toEqual(Array(TEST_EVENTS_PER_CLIENT).fill(202));
    const refused = answers.slice(TEST_EVENTS_PER_CLIENT);
    expect(refused).toHaveLength(2 * TEST_EVENTS_PER_ENDPOINT); // each to a new endpoint that had no test yet
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(answer.json.error).toMatchObject({ type: 'rate_limit_error', code: 'too_many_test_events' });
      expect(answer.json.error.message).toContain(`${TEST_EVENTS_PER_CLIENT} test events a minute`);
      const retryAfter = Number(answer.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(TEST_EVENT_WINDOW_MS / 1000);
    }
    // Another client's tests are its own.
    const other = await service.newClient('Calm Shop');
    const calm = await register(other.client_id, first);
    expect((await endpointsCall(other.client_id, 'POST', `/${calm.id}/test`)).status).toBe(202);
  });
});

describe('deleting an endpoint', () => {
  it('cancels its pending deliveries; nothing is sent to it after, by the sweep or a redelivery', async () => {
    const [first, second] = receivers as [Receiver, Receiver];
    const shop = await service.newClient('Leaving Shop');
    const leaving = await register(shop.client_id, first);
    const staying = await register(shop.client_id, second);
    await quiet();
    first.answers.push(500);

    const order = await service.call('orders-create', {
      method: 'POST',
      path: '/api/v2/orders',
      clientId: shop.client_id,
      body: { order_number: uniqueOrderNumber('bye'), currency: 'USD', items: cartItems('80.00'), customer: { email: 'ada@example.org' } },
    });
    expect(order.status).toBe(201);
    await service.drainStreams();
    const [created] = (await eventsCall(shop.client_id, '', { type: 'order.created' })).json.data as [{ id: string }];
    const pending = await eventsCall(shop.client_id, `/${created.id}`);
    expect(pending.json.deliveries).toContainEqual({ endpoint_id: leaving.id, status: 'pending', next_attempt_at: expect.any(String) });

    expect((await endpointsCall(shop.client_id, 'DELETE', `/${leaving.id}`)).status).toBe(204);
    const after = await eventsCall(shop.client_id, `/${created.id}`);
    expect(after.json.deliveries).toContainEqual({ endpoint_id: leaving.id, status: 'canceled', next_attempt_at: null });
    expect(after.json.deliveries).toContainEqual({ endpoint_id: staying.id, status: 'delivered', next_attempt_at: null });
    expect(after.json.delivery_success).toBe(false);

    first.received.length = 0;
    await new Promise((resolve) => setTimeout(resolve, 20));
    await service.runScheduled('webhooks-retry');
    expect((await service.call('events', { method: 'POST', path: `/api/v2/events/${created.id}/redeliver`, clientId: shop.client_id })).json.endpoints).toBe(1);
    await service.runScheduled('webhooks-retry');
    expect(first.received).toEqual([]);
    expect(
      (await eventsCall(shop.client_id, `/${created.id}`)).json.attempts.filter((a: { endpoint_id: string }) => a.endpoint_id === leaving.id),
    ).toHaveLength(1);
  });

  it('a delivery recorded for it after the delete (a dispatcher that listed it before) is canceled by the sweep, not sent', async () => {
    const [first] = receivers as [Receiver];
    const shop = await service.newClient('Late Shop');
    const gone = await register(shop.client_id, first);
    await quiet();
    expect((await endpointsCall(shop.client_id, 'DELETE', `/${gone.id}`)).status).toBe(204);

    const event = {
      id: 'evt_latelatelatelatelatelate',
      type: 'order.created' as const,
      created: new Date().toISOString(),
      client_id: shop.client_id,
      order_id: 'ord_late',
      data: {},
    };
    await recordEvent(webhookDeps(), event, [{ id: gone.id, url: first.url }], new Date());
    await service.runScheduled('webhooks-retry');
    expect(first.received).toEqual([]);
    const kept = await eventsCall(shop.client_id, `/${event.id}`);
    // Issue 35.14: canceled without an attempt is not a failed attempt: no delivery ended, so null.
    expect(kept.json).toMatchObject({ deliveries: [{ endpoint_id: gone.id, status: 'canceled' }], attempts: [], delivery_success: null });
    expect((await eventsCall(shop.client_id, '', { delivery_success: 'false' })).json.data).toEqual([]);
  });

  it('while the dispatcher is about to send to it: nothing is sent once the DELETE answered 204 (issue 35.9)', async () => {
    const [first] = receivers as [Receiver];
    const shop = await service.newClient('Racing Shop');
    const gone = await register(shop.client_id, first);
    await quiet();
    const changes = await changesOf(() =>
      service.call('orders-create', {
        method: 'POST',
        path: '/api/v2/orders',
        clientId: shop.client_id,
        body: { order_number: uniqueOrderNumber('race'), currency: 'USD', items: cartItems('30.00'), customer: { email: 'ada@example.org' } },
      }),
    );
    // The dispatcher read the client's endpoints and recorded the delivery; the DELETE lands just
    // before its send (at its last look at the order's earlier events).
    const deps = webhookDeps();
    const real = deps.deliveries;
    let deleted = 0;
    const deliveries: DeliveryQueue = Object.assign(Object.create(real) as DeliveryQueue, {
      firstPending: async (clientId: string, orderId: string, endpointId: string) => {
        if (deleted++ === 0) expect((await endpointsCall(shop.client_id, 'DELETE', `/${gone.id}`)).status).toBe(204);
        return real.firstPending(clientId, orderId, endpointId);
      },
    });
    await dispatchChanges({ ...deps, deliveries }, changes);

    expect(deleted).toBeGreaterThan(0);
    expect(first.received).toEqual([]);
    const [created] = (await eventsCall(shop.client_id, '', { type: 'order.created' })).json.data as [{ id: string }];
    const kept = await eventsCall(shop.client_id, `/${created.id}`);
    expect(kept.json).toMatchObject({ deliveries: [{ endpoint_id: gone.id, status: 'canceled' }], attempts: [], delivery_success: null });
  });
});

/** The main table's changes a request makes, read from its stream without dispatching them. */
async function changesOf(request: () => Promise<unknown>) {
  const records: DynamoDBRecord[] = [];
  const pump = await startStreamPump({
    dynamo: localClient(service.tables.endpoint),
    endpoint: service.tables.endpoint,
    tableName: service.tables.main,
    handler: (event) => Promise.resolve(void records.push(...event.Records)),
  });
  await pump.drain();
  records.length = 0;
  await request();
  await pump.drain();
  await pump.stop();
  return recordChanges(records);
}
