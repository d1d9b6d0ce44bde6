import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createOrderProtectionClient, OrderProtectionError, verifyWebhook, WebhookVerificationError, type OrderProtectionClient } from '../src/index.js';
import { freePort, startLocalServer, TSX_LOADER, type LocalServer } from './local-server.js';

/** Why a delivered body is not what openapi.yaml's `webhooks` give its type (undefined: it is). */
const OPENAPI = parse(readFileSync(new URL('../../../openapi.yaml', import.meta.url), 'utf8')) as { webhooks: Record<string, unknown> };
const ajv = new Ajv2020({ strict: false, allErrors: true });
// ajv-formats is CommonJS: its default export arrives wrapped under NodeNext typing.
(formats as unknown as { default: (ajv: Ajv2020) => void }).default(ajv);
ajv.addSchema(OPENAPI, 'openapi.yaml');
function webhookBodyErrors(body: unknown): string | undefined {
  const type = (body as { type?: unknown }).type;
  if (typeof type !== 'string' || !(type in OPENAPI.webhooks)) return `openapi.yaml has no webhook ${String(type)}`;
  const validate = ajv.getSchema(`openapi.yaml#/webhooks/${type}/post/requestBody/content/application~1json/schema`)!;
  return validate(body) ? undefined : ajv.errorsText(validate.errors);
}

/** The client against a real `npm start` (its own, on free ports). */
let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer();
}, 90_000);
afterAll(async () => {
  await server?.stop();
}, 30_000);

/** A client over a fetch that counts sign-ins and 401s, and can spoil the next access token it sends. */
function observedClient(now?: () => number) {
  const seen = { signIns: 0, unauthorized: 0, spoilNext: false };
  const client = createOrderProtectionClient({
    baseUrl: server.demo.base_url,
    publicKey: server.demo.public_key,
    secretKey: server.demo.secret_key,
    ...(now && { now }),
    fetch: async (request) => {
      if (new URL(request.url).pathname === '/api/v2/auth/token') seen.signIns++;
      const auth = request.headers.get('authorization');
      if (seen.spoilNext && auth?.startsWith('JWT ')) {
        seen.spoilNext = false;
        const headers = new Headers(request.headers);
        headers.set('authorization', `${auth}x`); // its signature no longer matches: 401 invalid_token
        request = new Request(request, { headers });
      }
      const response = await fetch(request);
      if (response.status === 401) seen.unauthorized++;
      return response;
    },
  });
  return { client, seen };
}

const item = (reference: string, cost = '50.00') => ({ name: `Seat ${reference}`, reference_number: reference, cost });
const orderNumber = (label: string) => `C-${Date.now()}-${Math.random().toString(36).slice(2, 8)}-${label}`;

async function protectedOrder(client: OrderProtectionClient, label: string) {
  const order = await client.orders.create({ order_number: orderNumber(label), currency: 'USD', items: [item('a1', '120.00'), item('a2', '80.00')] });
  if (!order) throw new Error('no token: the order is created');
  return order;
}

describe('@order-protection/client against npm start', () => {
  it('answers a 401 for its token (expired, revoked, spoiled) by signing in once more and repeating the call', async () => {
    const { client, seen } = observedClient();
    const order = await protectedOrder(client, '401');
    expect(seen.signIns).toBe(1);

    seen.spoilNext = true;
    const read = await client.orders.retrieve(order.service_order_id);

    expect(read.service_order_id).toBe(order.service_order_id);
    expect(seen).toMatchObject({ unauthorized: 1, signIns: 2 });
  });

  it('takes a new token before the held one expires, from the expiry the token answer stated', async () => {
    let offset = 0;
    const { client, seen } = observedClient(() => Date.now() + offset);
    await client.accessToken();
    await client.accessToken(); // held
    offset = 15 * 60_000 - 30_000; // 30 s before its 15 minutes are up
    await client.ledger.statement(new Date().toISOString().slice(0, 7));

    expect(seen).toMatchObject({ signIns: 2, unauthorized: 0 });
  });

  it('throws a refused second change of an item as a typed 409, and replays a write by its Idempotency-Key', async () => {
    const { client } = observedClient();
    const order = await protectedOrder(client, '409');
    const upgrade = { items: [{ name: 'VIP', old_reference_number: 'a1', reference_number: 'vip-1', cost: '200.00' }] };
    const key = crypto.randomUUID();
    const changed = await client.orders.change(order.service_order_id, upgrade, { idempotencyKey: key });
    const replayed = await client.orders.change(order.service_order_id, upgrade, { idempotencyKey: key });

    const refused = await client.orders
      .change(order.service_order_id, { items: [{ name: 'B', old_reference_number: 'a1', reference_number: 'b-1', cost: '90.00' }] })
      .catch((error: unknown) => error);

    expect(replayed).toEqual(changed);
    expect(refused).toBeInstanceOf(OrderProtectionError);
    expect(refused).toMatchObject({
      status: 409,
      type: 'invalid_request_error',
      code: 'policy_not_issued',
      param: 'items[0].old_reference_number',
      requestId: expect.any(String),
    });
  });

  // Before the 250 orders: their records would queue ahead of this order's on the stream.
  it("verifies delivered webhooks (an order's, the endpoint's test event) with the endpoint's secret, and refuses a tampered body", async () => {
    const { client } = observedClient();
    const deliveries: { body: string; headers: IncomingHttpHeaders }[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        deliveries.push({ body, headers: req.headers });
        res.end();
      });
    });
    const port = await freePort();
    await new Promise<void>((resolve) => receiver.listen(port, '127.0.0.1', resolve));
    const endpoint = await client.webhookEndpoints.create({ url: `http://127.0.0.1:${port}/hooks`, events: ['order.created'] });
    try {
      const order = await protectedOrder(client, 'hook');
      await expect.poll(() => deliveries.length, { timeout: 30_000, interval: 100 }).toBeGreaterThan(0);
      const [delivery] = deliveries;

      const sent = await client.webhookEndpoints.test(endpoint.id);
      await expect.poll(() => deliveries.length, { timeout: 30_000, interval: 100 }).toBeGreaterThan(1);
      const [event, test] = deliveries.map(({ body, headers }) => verifyWebhook(body, headers, endpoint.secret));
      const tampered = () => verifyWebhook(delivery!.body.replace(order.service_order_id, crypto.randomUUID()), delivery!.headers, endpoint.secret);

      expect(event).toMatchObject({ type: 'order.created', data: { service_order_id: order.service_order_id } });
      expect(test).toEqual({ id: sent.id, type: 'webhook_endpoint.test', created: sent.created, data: { endpoint_id: endpoint.id } });
      expect(tampered).toThrow(WebhookVerificationError);
      // The delivery log, its yes-or-no filter given as a boolean: the delivered event is among the delivered ones.
      const delivered = async () => {
        for await (const logged of client.events.list({ type: 'order.created', delivery_success: true, limit: 100 }))
          if (logged.data.service_order_id === order.service_order_id) return true;
        return false;
      };
      await expect.poll(delivered, { timeout: 30_000, interval: 200 }).toBe(true);
    } finally {
      await client.webhookEndpoints.delete(endpoint.id);
      receiver.close();
    }
  });

  // Before the 250 orders, as above. Every type the service sends but webhook_endpoint.test (checked above) and
  // the ones a test client cannot make happen (claim.denied/paid/withdrawn share claim.approved's schema).
  it("delivers each event type with the body openapi.yaml's webhooks give it, which WebhookEvent types", async () => {
    const { client } = observedClient();
    const bodies: unknown[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        bodies.push(JSON.parse(body));
        res.end();
      });
    });
    const port = await freePort();
    await new Promise<void>((resolve) => receiver.listen(port, '127.0.0.1', resolve));
    const endpoint = await client.webhookEndpoints.create({ url: `http://127.0.0.1:${port}/hooks` }); // every type
    try {
      const email = `hooks-${Date.now()}@example.com`;
      const changed = await protectedOrder(client, 'types');
      await client.orders.change(changed.service_order_id, { items: [{ name: 'VIP', old_reference_number: 'a1', reference_number: 'vip-1', cost: '200.00' }] });
      // The void seen first, then confirmed: it sends what the direct void sends (order.canceled, policy.voided).
      const preview = await client.orders.previewCancel(changed.service_order_id, { mode: 'void' });
      expect(preview.policies.map((policy) => policy.status_after)).toEqual(['Void', 'Void']);
      const voided = (await client.cancellations.confirm(preview.cancellation_id)) as { policies: { status: string; refund_due: string | null }[] };
      expect(voided.policies.filter((policy) => policy.status === 'Void').map((policy) => policy.refund_due)).toEqual(
        preview.policies.map((policy) => policy.refund_due),
      );
      const claimed = await client.orders.create({ order_number: orderNumber('types-claim'), currency: 'USD', items: [item('c1')], customer: { email } });
      const customer = await client.claims.openSession({ order_number: claimed!.order_number, email });
      const claim = await customer.file({ policy_numbers: [claimed!.policies[0]!.policy_number], reason: 'illness', description: 'Could not go.' });
      await client.testHelpers.decideClaim(claim.claim_id, { decision: 'approve' });
      const quote = await client.quotes.create({ currency: 'USD', items: [item('d1')] });
      const declined = orderNumber('types-out');
      await client.orders.create({ token: quote.tokens.opt_out, order_number: declined, currency: 'USD', items: [item('d1')] });
      const ours = () =>
        (bodies as { type: string; data: { order_number?: string } }[]).filter((body) =>
          [changed.order_number, claimed!.order_number, declined].includes(body.data.order_number ?? ''),
        );
      const expected = ['claim.approved', 'claim.submitted', 'order.canceled', 'order.created', 'order.opted_out', 'policy.upgraded', 'policy.voided'];

      await expect.poll(() => [...new Set(ours().map((body) => body.type))].sort(), { timeout: 30_000, interval: 100 }).toEqual(expected);
      const invalid = bodies.map((body) => [body, webhookBodyErrors(body)]).filter(([, errors]) => errors);

      expect(invalid).toEqual([]);
    } finally {
      await client.webhookEndpoints.delete(endpoint.id);
      receiver.close();
    }
  });

  it("files a claim in a customer's session and decides it with the test helper; an advanced order's policy is past its void", async () => {
    const { client } = observedClient();
    const email = `claim-${Date.now()}@example.com`;
    const order = await client.orders.create({
      order_number: orderNumber('claim'),
      currency: 'USD',
      items: [item('a1', '120.00'), item('a2', '80.00')],
      customer: { email },
    });
    const [claimed, other] = order!.policies;
    const customer = await client.claims.openSession({ order_number: order!.order_number, email });
    const claim = await customer.file({ policy_numbers: [claimed!.policy_number], reason: 'illness', description: 'Could not go.' });
    const decided = await client.testHelpers.decideClaim(claim.claim_id, { decision: 'approve' });
    await client.testHelpers.advanceOrder(order!.service_order_id, 30);
    const lateVoid = await client.policies.void(other!.policy_number).catch((error: unknown) => error);

    expect(customer.session.policies.map((policy) => policy.policy_number).sort()).toEqual([claimed!.policy_number, other!.policy_number].sort());
    expect(decided).toMatchObject({ claim_id: claim.claim_id, status: 'Approved', amount_approved: '120.00' });
    expect(lateVoid).toBeInstanceOf(OrderProtectionError);
    expect(lateVoid).toMatchObject({ status: 409, code: 'look_period_over', param: other!.policy_number });
  });

  it('walks a list of 250 orders to its end through the cursor', { timeout: 120_000 }, async () => {
    const { client } = observedClient();
    const since = new Date().toISOString();
    const created = new Set<string>();
    let next = 0;
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        while (next < 250) {
          const n = next++;
          const order = await client.orders.create({ order_number: orderNumber(`list-${n}`), currency: 'USD', items: [item(`r${n}`)] });
          created.add(order!.service_order_id);
        }
      }),
    );

    const listed: string[] = [];
    for await (const order of client.orders.list({ limit: 100, created_gte: since })) listed.push(order.service_order_id);

    expect(created.size).toBe(250);
    expect(listed).toHaveLength(250);
    expect(new Set(listed)).toEqual(created);
  });

  it('runs examples/walk.ts as the docs tell (against the demo keys npm start wrote)', async () => {
    const walk = join(fileURLToPath(new URL('..', import.meta.url)), 'examples', 'walk.ts');
    // The root tsconfig's paths take the package's name to its sources (the package itself ships dist/), here outside the root too.
    const env = { ...process.env, TSX_TSCONFIG_PATH: fileURLToPath(new URL('../../../tsconfig.json', import.meta.url)) };
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', TSX_LOADER, walk], { cwd: server.cwd, env, timeout: 30_000 });

    expect(stdout).toMatch(/^1\. access token /m);
    expect(stdout).toMatch(/^3\. upgrade: OP-\S+ replaces OP-\S+, charge 6\.80 USD$/m);
    expect(stdout).toMatch(/second change refused: 409 policy_not_issued \(items\[0\]\.old_reference_number\)$/m);
  });
});
