import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashOrderNumber } from '#shared/platform/keys/order-number-hash.js';
import { cartItems, quoteFor, startService, uniqueOrderNumber, type Service } from '../../test/support/service.js';

/** POST /api/v2/orders over DynamoDB Local: opt-out logging and opt-in order creation. */
let service: Service;
let client: { client_id: string; public_key: string };
const orders = (clientId: string, body: unknown, headers: Record<string, string> = {}) =>
  service.call('orders-create', { method: 'POST', path: '/api/v2/orders', body, headers, clientId });

async function scanAll(table: string) {
  const { Items = [] } = await service.tables.doc.send(new ScanCommand({ TableName: table }));
  return Items;
}

beforeAll(async () => {
  service = await startService();
  client = await service.newClient('Orders Shop');
});
afterAll(() => service.stop());

describe('opt-out orders', () => {
  it('answers 204 with an empty body, keeps no order, and keeps no personal data in either table', async () => {
    const items = cartItems('120.00', '35.50');
    const quote = await quoteFor(service, client.public_key, items);
    const pii = {
      customer: { first_name: 'Marguerite', last_name: 'Yourcenar', email: 'marguerite.y@example.org', phone: '+33612345678' },
      billing_address: { address1: '17 Rue des Lilas', address2: 'Bâtiment B', city: 'Montpellier', zip_code: '34090', state: 'Occitanie', country: 'FR' },
      payment: { type: 'invoice' },
    };

    const res = await orders(client.client_id, { token: quote.tokens.opt_out, order_number: uniqueOrderNumber('out'), currency: 'USD', items, ...pii });

    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    const everything = JSON.stringify([...(await scanAll(service.tables.main)), ...(await scanAll(service.tables.metrics))]);
    for (const secret of ['Marguerite', 'Yourcenar', 'marguerite.y@example.org', '612345678', 'Rue des Lilas', 'Bâtiment', 'Montpellier', '34090']) {
      expect(everything).not.toContain(secret);
    }
    const mainEntities = (await scanAll(service.tables.main)).map((item: Record<string, unknown>) => item.entity);
    expect(mainEntities).not.toContain('order');
    expect(mainEntities).not.toContain('item');
  });

  it('logs one record and counts once when the same opt-out arrives 10 times at once', async () => {
    const items = cartItems('20.00');
    const quote = await quoteFor(service, client.public_key, items);
    const orderNumber = uniqueOrderNumber('replay');
    const dayBefore = await todaysCounts(client.client_id);

    const answers = await Promise.all(
      Array.from({ length: 10 }, () => orders(client.client_id, { token: quote.tokens.opt_out, order_number: orderNumber, currency: 'USD', items })),
    );

    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(204));
    const orderHash = await hashOrderNumber(client.client_id, orderNumber);
    const records = (await scanAll(service.tables.metrics)).filter((item: Record<string, unknown>) => item.order_hash === orderHash);
    expect(records).toHaveLength(1);
    expect((await todaysCounts(client.client_id)).opt_out - dayBefore.opt_out).toBe(1);
  });
});

async function todaysCounts(clientId: string) {
  await service.drainStreams(); // the day counts follow from the metrics stream
  const res = await service.call('metrics-conversion', { method: 'GET', path: '/api/v2/metrics/conversion', clientId });
  const today = new Date().toISOString().slice(0, 10);
  return (res.json.days as { date: string; opt_in: number; opt_out: number }[]).find((day) => day.date === today) ?? { opt_in: 0, opt_out: 0 };
}

describe('opt-in orders', () => {
  it('creates the order with one Issued policy per item, premiums as quoted, readable with GET', async () => {
    const items = cartItems('120.00', '0.10');
    const quote = await quoteFor(service, client.public_key, items);
    const countsBefore = await todaysCounts(client.client_id);

    const res = await orders(client.client_id, {
      token: quote.tokens.opt_in,
      order_number: uniqueOrderNumber('in'),
      currency: 'usd',
      items,
      customer: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
    });

    expect(res.status).toBe(201);
    expect(res.json.currency).toBe('USD');
    expect(res.json.subtotal).toBe('120.10');
    expect(res.json.policies.map((p: { premium: string }) => p.premium)).toEqual(quote.items.map((i) => i.premium));
    expect(res.json.policies.every((p: { status: string }) => p.status === 'Issued')).toBe(true);
    const read = await service.call('orders-read', {
      method: 'GET',
      path: `/api/v2/orders/${res.json.service_order_id}/`,
      pathParameters: { id: res.json.service_order_id },
      clientId: client.client_id,
    });
    expect(read.status).toBe(200);
    expect(read.json).toEqual(res.json);
    expect((await todaysCounts(client.client_id)).opt_in - countsBefore.opt_in).toBe(1);
  });

  it('prices an order sent without a token itself (spec rule 2) at the client rate', async () => {
    const res = await orders(client.client_id, { order_number: uniqueOrderNumber('notoken'), currency: 'EUR', items: cartItems('99.99') });

    expect(res.status).toBe(201);
    expect(res.json.policies[0].premium).toBe('8.50'); // 99.99 × 0.085 = 8.49915 → 8.50
  });

  it('refuses a second order with the same order_number (409 order_exists) and writes nothing more', async () => {
    const orderNumber = uniqueOrderNumber('dup');
    const first = await orders(client.client_id, { order_number: orderNumber, currency: 'USD', items: cartItems('10.00') });
    const rowsBefore = (await scanAll(service.tables.main)).length;

    const second = await orders(client.client_id, { order_number: orderNumber, currency: 'USD', items: cartItems('10.00') });

    expect(first.status).toBe(201);
    expect(second.status).toBe(409);
    expect(second.json.error).toMatchObject({ code: 'order_exists', param: 'order_number' });
    expect((await scanAll(service.tables.main)).length).toBe(rowsBefore);
  });

  it('refuses an opt-out for an order number a protected order holds (409 order_exists), with and without Idempotency-Key, and writes nothing', async () => {
    const orderNumber = uniqueOrderNumber('both');
    const items = cartItems('10.00');
    const quote = await quoteFor(service, client.public_key, items);
    const protectedOrder = await orders(client.client_id, { token: quote.tokens.opt_in, order_number: orderNumber, currency: 'USD', items });
    expect(protectedOrder.status).toBe(201);
    // Every row but Idempotency-Key records (the keyed request keeps its answer under its key, a 409 no later state changes).
    const rows = async () =>
      JSON.stringify(
        [...(await scanAll(service.tables.main)), ...(await scanAll(service.tables.metrics))].filter((row) => !String(row.PK).includes('#IDEMPOTENCY#')),
      );
    const before = await rows();

    const plain = await orders(client.client_id, { token: quote.tokens.opt_out, order_number: orderNumber, currency: 'USD', items });
    const keyed = await orders(
      client.client_id,
      { token: quote.tokens.opt_out, order_number: orderNumber, currency: 'USD', items },
      { 'idempotency-key': `k-${orderNumber}` },
    );

    for (const res of [plain, keyed]) {
      expect(res.status).toBe(409);
      expect(res.json.error).toMatchObject({ code: 'order_exists', param: 'order_number' });
    }
    expect(await rows()).toBe(before);
  });

  it('still answers a repeated opt-out 204 (the same order number declined again)', async () => {
    const orderNumber = uniqueOrderNumber('twice');
    const items = cartItems('10.00');
    const quote = await quoteFor(service, client.public_key, items);
    const first = await orders(client.client_id, { token: quote.tokens.opt_out, order_number: orderNumber, currency: 'USD', items });
    const again = await orders(client.client_id, { token: quote.tokens.opt_out, order_number: orderNumber, currency: 'USD', items });
    expect([first.status, again.status]).toEqual([204, 204]);
  });

  it('answers 422 quote_mismatch when items differ from the quote by a cost, a reference or an item left out', async () => {
    const quote = await quoteFor(service, client.public_key, cartItems('50.00', '60.00'));
    const order = (items: unknown[]) => orders(client.client_id, { token: quote.tokens.opt_in, order_number: uniqueOrderNumber('mm'), currency: 'USD', items });
    const [seat1, seat2] = cartItems('50.00', '60.00');

    const answers = [await order(cartItems('50.00', '61.00')), await order([seat1, { ...seat2, reference_number: 'seat-9' }]), await order([seat1])];
    const inAnotherOrder = await order([seat2, seat1]);

    for (const res of answers) expect([res.status, res.json.error.code, res.json.error.param]).toEqual([422, 'quote_mismatch', 'items']);
    expect(inAnotherOrder.status).toBe(201);
  });
});

describe('a quote sells one order', () => {
  const everyRow = async () =>
    JSON.stringify(
      [...(await scanAll(service.tables.main)), ...(await scanAll(service.tables.metrics))].filter((row) => !String(row.PK).includes('#IDEMPOTENCY#')),
    );

  it('refuses a second order redeeming the same opt-in token (409 quote_redeemed), with and without Idempotency-Key, and writes nothing', async () => {
    const items = cartItems('40.00', '25.00');
    const quote = await quoteFor(service, client.public_key, items);
    const first = await orders(client.client_id, { token: quote.tokens.opt_in, order_number: uniqueOrderNumber('once'), currency: 'USD', items });
    expect(first.status).toBe(201);
    const before = await everyRow();

    const plain = await orders(client.client_id, { token: quote.tokens.opt_in, order_number: uniqueOrderNumber('again'), currency: 'USD', items });
    const keyed = await orders(
      client.client_id,
      { token: quote.tokens.opt_in, order_number: uniqueOrderNumber('again'), currency: 'USD', items },
      { 'idempotency-key': `k-${uniqueOrderNumber('redeem')}` },
    );

    for (const res of [plain, keyed]) {
      expect(res.status).toBe(409);
      expect(res.json.error).toMatchObject({ code: 'quote_redeemed', param: 'token' });
    }
    expect(await everyRow()).toBe(before);
    // The redemption names its order, and goes when the quote's tokens expire (TTL).
    const [redemption] = (await scanAll(service.tables.main)).filter(
      (row) => row.entity === 'quote_redemption' && row.service_order_id === first.json.service_order_id,
    );
    expect(redemption).toMatchObject({ SK: 'REDEEMED', redeemed_at: first.json.created });
    expect(redemption!.expires_at).toBeGreaterThan(Date.now() / 1000);
  });

  it('names the order number first when the same order is sent again with its spent token (409 order_exists)', async () => {
    const items = cartItems('12.00');
    const quote = await quoteFor(service, client.public_key, items);
    const body = { token: quote.tokens.opt_in, order_number: uniqueOrderNumber('retry'), currency: 'USD', items };
    expect((await orders(client.client_id, body)).status).toBe(201);

    const again = await orders(client.client_id, body);

    expect(again.status).toBe(409);
    expect(again.json.error).toMatchObject({ code: 'order_exists', param: 'order_number' });
  });

  it('sells one of four orders sent at once with one token; the others are 409 quote_redeemed', async () => {
    const items = cartItems('30.00');
    const quote = await quoteFor(service, client.public_key, items);

    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, n) =>
        orders(client.client_id, { token: quote.tokens.opt_in, order_number: uniqueOrderNumber(`race${n}`), currency: 'USD', items }),
      ),
    );

    expect(answers.map((res) => res.status).sort()).toEqual([201, 409, 409, 409]);
    expect(answers.filter((res) => res.status === 409).every((res) => res.json.error.code === 'quote_redeemed')).toBe(true);
    const sold = answers.find((res) => res.status === 201)!.json.service_order_id;
    expect(
      (await scanAll(service.tables.main))
        .filter((row) => row.entity === 'quote_redemption' && String(row.PK).endsWith(`#QUOTE#${quote.quote_id}`))
        .map((row) => row.service_order_id),
    ).toEqual([sold]);
  });

  it('still logs each declined order its opt-out token is sent with: an opt-out sells nothing', async () => {
    const items = cartItems('15.00');
    const quote = await quoteFor(service, client.public_key, items);
    const answers = [
      await orders(client.client_id, { token: quote.tokens.opt_out, order_number: uniqueOrderNumber('no1'), currency: 'USD', items }),
      await orders(client.client_id, { token: quote.tokens.opt_out, order_number: uniqueOrderNumber('no2'), currency: 'USD', items }),
      await orders(client.client_id, { token: quote.tokens.opt_in, order_number: uniqueOrderNumber('yes'), currency: 'USD', items }),
    ];
    expect(answers.map((res) => res.status)).toEqual([204, 204, 201]);
  });
});

describe('events that are over', () => {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const ticket = (event: Record<string, string>) => [
    { name: 'Seat', reference_number: `ev-${uniqueOrderNumber('r')}`, cost: '50.00', event: { name: 'Show', start_time: '19:00', ...event } },
  ];
  const quote = (items: unknown) =>
    service.call('quotes-create', { method: 'POST', path: '/api/v2/quotes', headers: { 'x-public-key': client.public_key }, body: { currency: 'USD', items } });

  it('sells no cover for an event whose last day has passed: 422 event_in_past on the quote and on an order, with a token or without, writing nothing', async () => {
    const before = (await scanAll(service.tables.main)).length;
    const cart = [{ name: 'Seat', reference_number: `ev-${uniqueOrderNumber('t')}`, cost: '50.00' }];
    const { tokens } = await quoteFor(service, client.public_key, cart);
    const [quoted, ended, sold, orderLevel, redeemed] = await Promise.all([
      quote(ticket({ start_date: '2020-01-01' })),
      quote(ticket({ start_date: day(-3), end_date: day(-1) })),
      orders(client.client_id, { order_number: uniqueOrderNumber('past'), currency: 'USD', items: ticket({ start_date: day(-1) }) }),
      orders(client.client_id, {
        order_number: uniqueOrderNumber('past'),
        currency: 'USD',
        items: [{ name: 'Seat', reference_number: 'ev-order-level', cost: '50.00' }],
        event: { name: 'Show', start_date: day(-2), start_time: '19:00' },
      }),
      // A token seals the items' costs, not their events: an event named at the order is checked then.
      orders(client.client_id, {
        token: tokens.opt_in,
        order_number: uniqueOrderNumber('past'),
        currency: 'USD',
        items: [{ ...cart[0], event: { name: 'Show', start_date: '2020-01-01', start_time: '19:00' } }],
      }),
    ]);

    expect([quoted, ended, sold, orderLevel, redeemed].map((res) => [res.status, res.json.error.code, res.json.error.param])).toEqual([
      [422, 'event_in_past', 'items[0].event.start_date'],
      [422, 'event_in_past', 'items[0].event.end_date'],
      [422, 'event_in_past', 'items[0].event.start_date'],
      [422, 'event_in_past', 'event.start_date'],
      [422, 'event_in_past', 'items[0].event.start_date'],
    ]);
    expect((await scanAll(service.tables.main)).length).toBe(before);
  });

  it('sells cover for an event today, and for one begun and not over (a festival on its second day)', async () => {
    const [today, festival] = await Promise.all([
      orders(client.client_id, { order_number: uniqueOrderNumber('today'), currency: 'USD', items: ticket({ start_date: day(0) }) }),
      quote(ticket({ start_date: day(-1), end_date: day(1) })),
    ]);

    expect(today.status).toBe(201);
    expect(festival.status).toBe(201);
  });
});

describe('between clients', () => {
  it("answers 422 to another client's quote token and 404 to another client's order", async () => {
    const other = await service.newClient('Other Shop');
    const items = cartItems('40.00');
    const othersQuote = await quoteFor(service, other.public_key, items);
    const mine = await orders(client.client_id, { order_number: uniqueOrderNumber('mine'), currency: 'USD', items });

    const usingTheirToken = await orders(client.client_id, {
      token: othersQuote.tokens.opt_in,
      order_number: uniqueOrderNumber('theirs'),
      currency: 'USD',
      items,
    });
    const readingMine = await service.call('orders-read', {
      method: 'GET',
      path: `/api/v2/orders/${mine.json.service_order_id}`,
      pathParameters: { id: mine.json.service_order_id },
      clientId: other.client_id,
    });

    expect(usingTheirToken.status).toBe(422);
    expect(usingTheirToken.json.error.code).toBe('invalid_quote_token');
    expect(readingMine.status).toBe(404);
    expect(readingMine.json.error).toMatchObject({ code: 'order_not_found', param: 'id' }); // the path's id, as every 404 of an id names it
  });
});
