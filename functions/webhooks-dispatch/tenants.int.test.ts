import { createServer, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_TRY_TIMEOUT_MS, PER_CLIENT_SENDS } from '#shared/webhooks/dispatch-webhooks.js';
import { TEST_EVENT_WINDOW_MS, TEST_EVENTS_PER_ENDPOINT } from '#shared/webhooks/webhook-endpoints.js';
import { startReceiver, type Receiver } from '../../test/support/receiver.js';
import { cartItems, startService, uniqueOrderNumber, type Service } from '../../test/support/service.js';

/**
 * Issue 35.2: one merchant's slow receiver must not delay another's webhooks. Client X registers
 * endpoints on a receiver that never answers (until the test lets it) and floods test events and
 * orders; client Y's deliveries, through the real handlers, DynamoDB Local's stream, the local
 * pump and the real dispatcher and sweep, arrive while X's requests still hang.
 */
process.env.WEBHOOK_URLS = 'local';
process.env.WEBHOOK_RETRY_SCALE = '0.000001';

/** A receiver that holds every request open until released; it notes each one's arrival and whether the sender gave up on it. */
async function startHangingReceiver() {
  const requests: { at: number; closedBySender: boolean; closedAt?: number; res: ServerResponse }[] = [];
  let released = false;
  const server = createServer((req, res) => {
    req.resume();
    const request: (typeof requests)[number] = { at: performance.now(), closedBySender: false, res };
    requests.push(request);
    res.on('close', () => {
      request.closedAt = performance.now();
      if (!res.writableEnded) request.closedBySender = true;
    });
    if (released) res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`,
    requests,
    /** Answers 200 to every request still open, and to every one after. */
    release() {
      released = true;
      for (const { res } of requests) if (!res.writableEnded && !res.destroyed) res.end();
    },
    open: () => requests.filter(({ res }) => !res.writableEnded && !res.destroyed).length,
    stop: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let service: Service;
let hanging: Awaited<ReturnType<typeof startHangingReceiver>>;
let healthy: Receiver;
beforeAll(async () => {
  service = await startService();
  hanging = await startHangingReceiver();
  healthy = await startReceiver();
});
afterAll(async () => {
  hanging.release();
  await service.stop();
  await hanging.stop();
  await healthy.stop();
});

const register = async (clientId: string, url: string, events?: string[]) => {
  const created = await service.call('webhook-endpoints', {
    method: 'POST',
    path: '/api/v2/webhook_endpoints',
    clientId,
    body: { url, ...(events ? { events } : {}) },
  });
  expect(created.status).toBe(201);
  return created.json.id as string;
};
const order = async (clientId: string, prefix: string) => {
  const res = await service.call('orders-create', {
    method: 'POST',
    path: '/api/v2/orders',
    clientId,
    body: { order_number: uniqueOrderNumber(prefix), currency: 'USD', items: cartItems('40.00'), customer: { email: 'ada@example.org' } },
  });
  expect(res.status).toBe(201);
  return res.json.service_order_id as string;
};
/** When Y's receiver got the order's event (performance.now()), polled while the dispatcher runs. */
function watchArrival(orderId: string) {
  let at: number | undefined;
  const poll = setInterval(() => {
    if (at === undefined && healthy.received.some((r) => r.body.includes(orderId))) at = performance.now();
  }, 2);
  return {
    stop: () => clearInterval(poll),
    get at() {
      return at;
    },
  };
}

describe('a client whose endpoints hang and flood', () => {
  it('cannot delay another client’s delivery: Y’s event arrives while X’s requests still hang, and X’s test events are limited per endpoint', async () => {
    const x = await service.newClient('Hanging Shop');
    const y = await service.newClient('Healthy Shop');
    const xEndpoints = [];
    for (let n = 0; n < 4; n++) xEndpoints.push(await register(x.client_id, hanging.url));
    await register(y.client_id, healthy.url, ['order.created']);
    await service.drainStreams();
    healthy.received.length = 0;

    // X floods: 64 test calls over its 4 endpoints, then 16 orders; Y's order comes last.
    const answers = [];
    for (let n = 0; n < 64; n++) {
      answers.push(
        await service.call('webhook-endpoints', { method: 'POST', path: `/api/v2/webhook_endpoints/${xEndpoints[n % 4]}/test`, clientId: x.client_id }),
      );
    }
    // At most TEST_EVENTS_PER_ENDPOINT per endpoint and window (the calls may straddle two windows).
    const accepted = answers.filter((a) => a.status === 202);
    const perWindow = new Map<string, number>();
    for (const { json } of accepted) {
      const key = `${json.endpoint_id}#${Math.floor(Date.parse(json.created) / TEST_EVENT_WINDOW_MS)}`;
      perWindow.set(key, (perWindow.get(key) ?? 0) + 1);
    }
    expect(Math.max(...perWindow.values())).toBe(TEST_EVENTS_PER_ENDPOINT);
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length + accepted.length).toBe(64);
    expect(limited.length).toBeGreaterThanOrEqual(64 - 2 * 4 * TEST_EVENTS_PER_ENDPOINT);
    expect(limited[0]!.json.error).toMatchObject({ type: 'rate_limit_error', code: 'too_many_test_events' });
    expect(Number(limited[0]!.headers['retry-after'])).toBeGreaterThan(0);
    for (let n = 0; n < 16; n++) await order(x.client_id, 'flood');
    const yOrder = await order(y.client_id, 'healthy');

    const arrival = watchArrival(yOrder);
    await service.drainStreams(); // one batch: X's tests and orders, then Y's order
    arrival.stop();

    expect(arrival.at).toBeDefined();
    // None of X's first tries had ended when Y's event arrived: Y's delivery waited for none of
    // X's (each is cut only after FIRST_TRY_TIMEOUT_MS; before, every one waited 10 s).
    expect(hanging.requests.length).toBeGreaterThan(0);
    expect(hanging.requests.filter((r) => r.closedAt! < arrival.at!)).toEqual([]);
    // The dispatcher tried X at most PER_CLIENT_SENDS at once and, once one was slow, left X's others
    // to the retry sweep: X's receiver got no more than that many first tries, each cut by the dispatcher.
    expect(hanging.requests.length).toBeLessThanOrEqual(PER_CLIENT_SENDS);
    expect(hanging.requests.every((r) => r.closedBySender)).toBe(true);
    const xLog = await service.call('events', { method: 'GET', path: '/api/v2/events', clientId: x.client_id, query: { limit: '100' } });
    expect(xLog.json.data).toHaveLength(accepted.length + 16);
    const cut = await service.call('events', { method: 'GET', path: `/api/v2/events/${xLog.json.data.at(-1).id}`, clientId: x.client_id });
    for (const attempt of cut.json.attempts as { error?: string; duration_ms: number }[]) expect(attempt.error).toBe('timeout');
    expect(FIRST_TRY_TIMEOUT_MS).toBeLessThan(10_000);

    // The sweep takes X's deliveries up with the full 10 s each: Y's retry there does not wait for them either.
    healthy.answers.push(500);
    const second = await order(y.client_id, 'healthy-retry');
    await service.drainStreams();
    expect(healthy.received.filter((r) => r.body.includes(second))).toHaveLength(1); // the 500
    const before = hanging.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 20)); // the compressed schedule's first wait
    const retried = watchArrival(second);
    const sweep = service.runScheduled('webhooks-retry');
    for (let wait = 0; wait < 2_000 && healthy.received.filter((r) => r.body.includes(second)).length < 2; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    retried.stop();
    const sweptX = hanging.requests.slice(before);
    expect(healthy.received.filter((r) => r.body.includes(second))).toHaveLength(2);
    expect(sweptX.length).toBeLessThanOrEqual(PER_CLIENT_SENDS); // X's, at most PER_CLIENT_SENDS at once…
    expect(sweptX.every((r) => !r.closedBySender)).toBe(true); // …all still hanging
    hanging.release();
    await sweep;
    expect(hanging.requests.length).toBeGreaterThan(before); // the sweep did send X's meanwhile
  }, 120_000);
});
