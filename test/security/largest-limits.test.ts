import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CREATE_ORDER_RESERVED_ACTIONS, MAX_CHECKOUT_ITEMS, MAX_ORDER_ITEMS, MAX_TRANSACTION_ACTIONS } from '#shared/platform/limits.js';
import { MAX_BODY_BYTES } from '#shared/platform/http/middleware.js';
import { createDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { DynamoIdempotencyStore } from '#shared/platform/dynamo/idempotency-store.js';
import { http, type HttpAnswer } from '../support/http.js';
import { useTestServer } from '../support/server.js';

/**
 * Everything the API issues, it accepts back — at the largest size the limits allow, with the
 * longest strings (255 UTF-16 units of a 3-byte character), through every order path, with and
 * without Idempotency-Key, and replayed. Also: a committed write is never answered with an error,
 * replays keep no personal data, and an order never grows past its lifetime limit.
 */
const server = useTestServer();
afterEach(() => vi.restoreAllMocks());

const longest = (prefix: string) => `${prefix}-`.padEnd(255, '漢');
const customer = {
  first_name: longest('Philippa'),
  last_name: longest('Quintessence'),
  email: `philippa.q@${'x'.repeat(237)}.net`,
  phone: '+1 (415) 555-0199',
};
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/** The largest checkout the limits allow: as many items as allowed, and as many of them with their own event as the body limit leaves room for. */
function largestCheckout(tag: string) {
  const items: Record<string, unknown>[] = Array.from({ length: MAX_CHECKOUT_ITEMS }, (_, i) => ({
    name: longest(`Seat ${i}`),
    reference_number: longest(`${tag}-${i}`),
    cost: '1000000.00',
  }));
  const order = {
    token: 'x'.repeat(600), // room for the real token
    order_number: longest(`order-${tag}`),
    currency: 'USD',
    items,
    event: { name: longest('Gala'), start_date: '2027-04-10', start_time: '19:30', end_date: '2027-04-11', end_time: '01:00', location: longest('Hall') },
    customer,
    billing_address: {
      address1: longest('Street'),
      address2: longest('Suite'),
      city: longest('City'),
      zip_code: '9'.repeat(32),
      state: longest('State'),
      country: longest('Country'),
    },
    payment: { type: longest('card') },
  };
  for (const [i, item] of items.entries()) {
    const event = { name: longest(`Matinee ${i}`), start_date: '2027-04-10', start_time: '14:00', location: longest(`Room ${i}`) };
    if (bytes(order) + bytes(event) + 10 > MAX_BODY_BYTES) break;
    item.event = event;
  }
  return order;
}

const quote = (items: unknown[]) =>
  http('POST', `${server.baseUrl}/api/v2/quotes`, { body: { currency: 'USD', items }, headers: { 'x-public-key': server.demo.public_key } });
const post = (body: unknown, key?: string) =>
  http('POST', `${server.baseUrl}/api/v2/orders`, { body, headers: { ...server.auth, ...(key ? { 'idempotency-key': key } : {}) } });

async function scan(tableName: string): Promise<Record<string, unknown>[]> {
  const doc = createDocumentClient();
  const rows: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey }));
    rows.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  doc.destroy();
  return rows;
}

describe('the largest checkout the limits allow', () => {
  it('is quoted with tokens of at most 1 KB that both order paths redeem, with and without Idempotency-Key, and replays', async () => {
    const checkout = largestCheckout('big');
    const quoted = await quote(checkout.items);
    const tokens = quoted.json.tokens as { opt_in: string; opt_out: string };
    const orderOf = (token: string, tag: string) => ({ ...checkout, token, order_number: longest(`order-${tag}`) });
    expect(bytes(orderOf(tokens.opt_in, 'size'))).toBeLessThanOrEqual(MAX_BODY_BYTES);
    expect(checkout.items.filter((item) => item.event).length).toBeGreaterThan(30);

    const answers: Record<string, HttpAnswer> = {
      optInWithKey: await post(orderOf(tokens.opt_in, 'in-key'), 'big-in'),
      optInReplay: await post(orderOf(tokens.opt_in, 'in-key'), 'big-in'),
      // A quote sells one order: the order without a key redeems a quote of its own, and the spent token sells no other.
      optInNoKey: await post(orderOf(((await quote(checkout.items)).json.tokens as { opt_in: string }).opt_in, 'in-nokey')),
      optInSpent: await post(orderOf(tokens.opt_in, 'in-spent')),
      optOutWithKey: await post(orderOf(tokens.opt_out, 'out-key'), 'big-out'),
      optOutReplay: await post(orderOf(tokens.opt_out, 'out-key'), 'big-out'),
      optOutNoKey: await post(orderOf(tokens.opt_out, 'out-nokey')),
    };

    expect(quoted.status).toBe(201);
    expect(Math.max(tokens.opt_in.length, tokens.opt_out.length)).toBeLessThanOrEqual(1024);
    expect(Object.fromEntries(Object.entries(answers).map(([name, res]) => [name, res.status]))).toEqual({
      optInWithKey: 201,
      optInReplay: 201,
      optInNoKey: 201,
      optInSpent: 409,
      optOutWithKey: 204,
      optOutReplay: 204,
      optOutNoKey: 204,
    });
    // The largest order with its receipt and its quote's redemption is DynamoDB's whole transaction (MAX_TRANSACTION_ACTIONS).
    expect(MAX_CHECKOUT_ITEMS + CREATE_ORDER_RESERVED_ACTIONS).toBe(MAX_TRANSACTION_ACTIONS);
    expect(answers.optInWithKey!.json.policies).toHaveLength(MAX_CHECKOUT_ITEMS);
    expect(answers.optInSpent!.json.error.code).toBe('quote_redeemed');
    expect(answers.optInReplay!.json).toEqual(answers.optInWithKey!.json);
    expect(answers.optInReplay!.headers.get('idempotent-replayed')).toBe('true');
    expect(answers.optOutReplay!.headers.get('idempotent-replayed')).toBe('true');
    const receipts = (await scan(process.env.TABLE_NAME!)).filter((row) => row.entity === 'idempotency');
    expect(receipts).toHaveLength(2);
    for (const marker of ['Philippa', 'Quintessence', 'philippa.q@', '555-0199']) expect(JSON.stringify(receipts)).not.toContain(marker);
  });

  it('answers a quote over the item limit with 422, so no token is ever issued that an order could not redeem', async () => {
    const items = Array.from({ length: MAX_CHECKOUT_ITEMS + 1 }, (_, i) => ({ reference_number: `r${i}`, cost: '1.00' }));
    const res = await quote(items);
    expect([res.status, res.json.error.param]).toEqual([422, 'items']);
  });
});

describe('a committed write', () => {
  it('is answered with its success, first and on replay, even when keeping the answer fails', async () => {
    vi.spyOn(DynamoIdempotencyStore.prototype, 'complete').mockRejectedValue(new Error('the idempotency record could not be written'));
    const items = [{ name: 'Seat', reference_number: 'commit-1', cost: '80.00' }];
    const { json } = await quote(items);
    const body = { token: json.tokens.opt_in, order_number: 'committed-1', currency: 'USD', items, customer };

    const first = await post(body, 'committed-key');
    const replay = await post(body, 'committed-key');

    expect([first.status, replay.status]).toEqual([201, 201]);
    expect(replay.json).toEqual(first.json);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });

  it('replays a change as first answered even after later changes, and /orders/{id}/ is the same request as /orders/{id}', async () => {
    const created = await post({
      order_number: 'replay-after-change',
      currency: 'USD',
      items: [
        { name: 'A', reference_number: 'a', cost: '10.00' },
        { name: 'B', reference_number: 'b', cost: '10.00' },
      ],
    });
    const path = `${server.baseUrl}/api/v2/orders/${created.json.service_order_id}`;
    const change = { items: [{ name: 'A+', old_reference_number: 'a', reference_number: 'a2', cost: '15.00' }] };
    const headers = { ...server.auth, 'idempotency-key': 'change-key' };

    const first = await http('PATCH', path, { body: change, headers });
    const later = await http('PATCH', path, {
      body: { items: [{ name: 'A++', old_reference_number: 'a2', reference_number: 'a3', cost: '5.00' }] },
      headers: server.auth,
    });
    const replayWithSlash = await http('PATCH', `${path}/`, { body: change, headers });

    expect([first.status, later.status, replayWithSlash.status]).toEqual([200, 200, 200]);
    expect(replayWithSlash.headers.get('idempotent-replayed')).toBe('true');
    expect(replayWithSlash.json).toEqual(first.json);
  });
});

describe('an order over its life', () => {
  it(`holds at most ${MAX_ORDER_ITEMS} items: a change that would pass it is 422 order_too_large and changes nothing`, async () => {
    const items = Array.from({ length: MAX_CHECKOUT_ITEMS }, (_, i) => ({ name: `S${i}`, reference_number: `s${i}`, cost: '10.00' }));
    const created = await post({ order_number: 'grows', currency: 'USD', items });
    const path = `${server.baseUrl}/api/v2/orders/${created.json.service_order_id}/`;
    const changes = (from: number, count: number) => ({
      items: Array.from({ length: count }, (_, i) => ({ name: 'n', old_reference_number: `s${from + i}`, reference_number: `n${from + i}`, cost: '12.00' })),
    });
    const room = MAX_ORDER_ITEMS - MAX_CHECKOUT_ITEMS;

    const filling = await http('PATCH', path, { body: changes(0, room), headers: server.auth });
    const overflowing = await http('PATCH', path, { body: changes(room, 1), headers: server.auth });
    const after = await http('GET', path, { headers: server.auth });

    expect(filling.status).toBe(200);
    expect([overflowing.status, overflowing.json.error.code, overflowing.json.error.param]).toEqual([422, 'order_too_large', 'items']);
    expect(after.json.items).toHaveLength(MAX_ORDER_ITEMS);
  });
});
