import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { countRoundTrips, type RoundTripCounter } from '../../bench/meters/round-trips.js';
import { cartItems, quoteFor, startService, uniqueOrderNumber, type FunctionName, type Service } from '../support/service.js';

/**
 * Property-based fuzzing of every request schema: random bodies per route, from arbitrary JSON to
 * near-valid shapes with hostile values. Never a 5xx; a refused request writes nothing: no call
 * it made to DynamoDB that could write succeeded (counted on the functions' shared client, so an
 * item changed in place or written and deleted again counts too, which a count of rows misses).
 *
 * `npm test` runs RUNS bodies per route (the path and query suites fewer) from a fixed seed, so that a run is repeatable and a
 * failure is the same on every machine; `npm run test:soak` runs SOAK_FACTOR times as many from a fresh seed each
 * time (fast-check prints the seed and the shrunk body of a failure: FUZZ_SEED=<seed> repeats it).
 */
const SOAK = process.env.FUZZ_SOAK === '1';
const SOAK_FACTOR = 20;
const RUNS = 1_000;
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : SOAK ? Date.now() ^ (Math.random() * 2 ** 31) : 20_261_127;
/** A case may take a second on a busy machine; a soak is allowed hours. */
const TIMEOUT = SOAK ? 6 * 3_600_000 : 300_000;
const settings = (numRuns: number) => ({ numRuns: SOAK ? numRuns * SOAK_FACTOR : numRuns, seed: SEED });
let service: Service;
let client: { client_id: string; public_key: string; secret_key: string };
let orderId: string;
let quoteTokens: string[];
let calls: RoundTripCounter;

beforeAll(async () => {
  service = await startService();
  calls = countRoundTrips(sharedDocumentClient());
  client = await service.newClient('Fuzz Shop');
  orderId = (
    await service.call('orders-create', {
      method: 'POST',
      path: '/api/v2/orders',
      clientId: client.client_id,
      body: { order_number: uniqueOrderNumber('fz'), currency: 'USD', items: cartItems('10.00', '20.00') },
    })
  ).json.service_order_id;
  const quote = await quoteFor(service, client.public_key, cartItems('10.00'));
  quoteTokens = [quote.tokens.opt_in, quote.tokens.opt_out];
}, 60_000);
afterAll(async () => {
  calls.detach();
  await service.stop();
});

/** What DynamoDB only reads; any other command may write. */
const READS = /^(Get|BatchGet|Query|Scan|TransactGet|Describe)/;
/** The functions' calls since `calls.reset()` that could have written and succeeded (a failed one carries "(failed: …)"). */
const writesMade = () => calls.commands.filter((command) => !command.includes('(failed:') && !READS.test(command));

const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ minLength: 250, maxLength: 300 }),
  fc.constantFrom('', ' ', '\u0000', '<script>', "' OR 1=1 --", '${jndi:x}', '__proto__', 'constructor', '😀', '\uD800'),
);
const anyJson = fc.oneof(
  hostileText,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ weight: 3, arbitrary: arb }, { weight: 1, arbitrary: anyJson });
const money = fc.oneof(
  fc.integer({ min: 0, max: 100_000_00 }).map((cents) => (cents / 100).toFixed(cents % 3 === 0 ? 0 : 2)),
  fc.constantFrom('1.005', '-1', '1e3', '0x10', '1,00', ' 1', '1000000.01', 'NaN', '00.1'),
);
const date = fc.oneof(
  fc.constantFrom('2026-02-30', '2027-04-10', '2026-13-01', '10/04/2027'),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
);
const event = fc.record(
  {
    name: maybe(hostileText),
    start_date: maybe(date),
    start_time: maybe(fc.constantFrom('19:30', '25:00', '19:30:00', '7pm')),
    end_date: fc.option(maybe(date)),
    location: maybe(hostileText),
  },
  { requiredKeys: [] },
);
const item = fc.record(
  { name: maybe(hostileText), reference_number: maybe(hostileText), cost: maybe(money), event: maybe(event), premium: money },
  { requiredKeys: ['reference_number', 'cost'] },
);

/** Fully valid carts, so the success path (and its writes) is fuzzed too. */
const validItems = fc.uniqueArray(fc.stringMatching(/^[a-z0-9-]{1,12}$/), { minLength: 1, maxLength: 4 }).chain((refs) =>
  fc.tuple(
    ...refs.map((ref) =>
      fc.record({
        name: fc.string({ minLength: 1, maxLength: 20 }).filter((n) => n.trim().length > 0),
        reference_number: fc.constant(ref),
        cost: money.filter((m) => /^\d+(\.\d\d)?$/.test(m) && m.length < 11),
      }),
    ),
  ),
);
const validOrder = fc.record({ order_number: fc.stringMatching(/^[A-Z0-9-]{1,16}$/), currency: fc.constantFrom('USD', 'eur', 'JPY'), items: validItems });

const nearValidOrder = fc.record(
  {
    token: fc.option(
      fc.oneof(
        fc.constantFrom(...['', 'a.b.c']),
        fc.nat(1).map((i) => quoteTokens[i]!),
      ),
    ),
    order_number: maybe(hostileText),
    currency: maybe(fc.constantFrom('USD', 'usd', 'XYZ', 'EURO', '', 'eur')),
    items: maybe(fc.array(item, { maxLength: 4 })),
    event: maybe(event),
    customer: maybe(fc.record({ first_name: hostileText, email: fc.oneof(fc.emailAddress(), hostileText), phone: hostileText }, { requiredKeys: [] })),
    billing_address: maybe(fc.record({ city: hostileText, zip_code: hostileText, country: hostileText }, { requiredKeys: [] })),
    payment: maybe(fc.record({ type: hostileText })),
  },
  { requiredKeys: [] },
);
const orderBody = fc.oneof({ weight: 1, arbitrary: validOrder }, { weight: 3, arbitrary: nearValidOrder });
const changeBody = fc.record(
  {
    items: maybe(
      fc.array(
        fc.record(
          {
            name: maybe(hostileText),
            old_reference_number: maybe(fc.constantFrom('seat-1', 'seat-2', 'nope')),
            reference_number: maybe(hostileText),
            cost: maybe(money),
          },
          { requiredKeys: [] },
        ),
        { maxLength: 3 },
      ),
    ),
  },
  { requiredKeys: [] },
);
const quoteBody = fc.oneof(
  fc.record({ currency: fc.constantFrom('USD', 'jpy'), items: validItems }),
  fc.record({ currency: maybe(fc.constantFrom('USD', 'XYZ', 'jpy')), items: maybe(fc.array(item, { maxLength: 4 })) }, { requiredKeys: [] }),
);
const tokenBody = fc.record({ public_key: maybe(hostileText), secret_key: maybe(hostileText) }, { requiredKeys: [] });

/** Any body: random JSON (arrays, scalars, objects) or the route's own near-valid shape, sent raw sometimes. */
const bodies = (shape: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 1, arbitrary: fc.jsonValue().map((value) => ({ raw: JSON.stringify(value) ?? 'null' })) },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }).map((raw) => ({ raw })) },
    { weight: 6, arbitrary: shape.map((body) => ({ raw: JSON.stringify(body) })) },
  );

/**
 * `writes`: the route may write, so every refused request is checked to have written nothing, and
 * every accepted one to have written something (which shows the count sees the functions' client).
 * A route that may not write holds the tables' rows as they were, counted before and after.
 */
async function fuzz(
  name: FunctionName,
  method: string,
  path: string,
  shape: fc.Arbitrary<unknown>,
  extra: { clientId?: string; headers?: Record<string, string> },
  writes = true,
) {
  const statuses = new Map<number, number>();
  const rowsAtStart = writes ? undefined : await service.rowCount();
  await fc.assert(
    fc.asyncProperty(bodies(shape), async ({ raw }) => {
      calls.reset();
      const res = await service.call(name, { method, path, rawBody: raw, ...extra });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      expect(res.status, res.body).toBeLessThan(500);
      if (res.status >= 400) {
        expect(res.json.error).toMatchObject({ type: expect.any(String), code: expect.any(String), request_id: expect.any(String) });
        if (writes) expect(writesMade(), res.body).toEqual([]);
      } else if (writes && res.status === 201) expect(writesMade().length, res.body).toBeGreaterThan(0);
    }),
    settings(RUNS),
  );
  if (!writes) expect(await service.rowCount()).toBe(rowsAtStart);
  return statuses;
}

describe(`fuzzing, ${SOAK ? RUNS * SOAK_FACTOR : RUNS} bodies per route (seed ${SEED})`, () => {
  it(
    'POST /orders',
    async () => {
      const statuses = await fuzz('orders-create', 'POST', '/api/v2/orders', orderBody, { clientId: client.client_id });
      expect([...statuses.keys()].some((s) => s >= 200 && s < 300)).toBe(true); // valid bodies got through too
    },
    TIMEOUT,
  );

  it(
    'PATCH /orders/{id}/',
    async () => {
      await fuzz('orders-change', 'PATCH', `/api/v2/orders/${orderId}/`, changeBody, { clientId: client.client_id });
    },
    TIMEOUT,
  );

  it(
    'POST /quotes',
    async () => {
      const statuses = await fuzz('quotes-create', 'POST', '/api/v2/quotes', quoteBody, { headers: { 'x-public-key': client.public_key } }, false);
      expect(statuses.get(201)).toBeGreaterThan(0);
    },
    TIMEOUT,
  );

  it(
    'POST /auth/token',
    async () => {
      await fuzz('auth-token', 'POST', '/api/v2/auth/token', tokenBody, {}, false);
    },
    TIMEOUT,
  );

  it(
    'order ids in the path and public keys in the header, up to 4 KB',
    async () => {
      // Never empty: `/api/v2/orders/` is the list route (API Gateway drops the trailing slash), not an order.
      const text = fc.oneof(fc.string({ minLength: 1, maxLength: 40 }), fc.string({ minLength: 1000, maxLength: 4000 }), fc.uuid());
      await fc.assert(
        fc.asyncProperty(text, text, async (id, publicKey) => {
          const path = `/api/v2/orders/${encodeURIComponent(id)}`;
          const read = await service.call('orders-read', { method: 'GET', path, pathParameters: { id }, clientId: client.client_id });
          const change = await service.call('orders-change', {
            method: 'PATCH',
            path,
            pathParameters: { id },
            clientId: client.client_id,
            body: { items: [{ name: 'x', old_reference_number: 'seat-1', reference_number: 'x', cost: '1' }] },
          });
          const quote = await service.call('quotes-create', {
            method: 'POST',
            path: '/api/v2/quotes',
            headers: { 'x-public-key': publicKey },
            body: { currency: 'USD', items: [{ reference_number: 'a', cost: '1' }] },
          });
          for (const res of [read, change, quote]) expect(res.status, res.body).toBeLessThan(500);
        }),
        settings(200),
      );
    },
    TIMEOUT,
  );

  it(
    'GET /metrics/conversion (query strings)',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.dictionary(fc.constantFrom('from', 'to', 'x'), fc.oneof(date, hostileText), { maxKeys: 3 }), async (query) => {
          const res = await service.call('metrics-conversion', { method: 'GET', path: '/api/v2/metrics/conversion', query, clientId: client.client_id });
          expect(res.status, res.body).toBeLessThan(500);
        }),
        settings(RUNS),
      );
    },
    TIMEOUT,
  );
});
