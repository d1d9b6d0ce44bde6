import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '#shared/platform/keys/tokens.js';
import { cartItems, quoteFor, startService, uniqueOrderNumber, type Service } from '../../test/support/service.js';

/** GET and POST /api/v2/quotes/decode over DynamoDB Local: what a widget token vouches for, checked before charging. */
let service: Service;
let client: { client_id: string; public_key: string; secret_key: string };

beforeAll(async () => {
  service = await startService();
  client = await service.newClient('Decode Shop');
});
afterAll(() => service.stop());

/** `asClient: null` sends no access token (the authorizer passes on no client). */
const decode = (token: string, { asClient = client.client_id, path = '/api/v2/quotes/decode' }: { asClient?: string | null; path?: string } = {}) =>
  service.call('quotes-decode', { method: 'GET', path, query: { token }, ...(asClient ? { clientId: asClient } : {}) });
const check = (body: unknown) => service.call('quotes-decode', { method: 'POST', path: '/api/v2/quotes/decode', body, clientId: client.client_id });

const byReference = <T extends { reference_number: string }>(items: T[]) => [...items].sort((a, b) => a.reference_number.localeCompare(b.reference_number));

describe('GET /quotes/decode', () => {
  it('answers the sealed facts of a fresh opt-in and opt-out token, as the quote showed them', async () => {
    const items = cartItems('120.00', '35.50', '0.10');
    const quote = await quoteFor(service, client.public_key, items);

    const optIn = await decode(quote.tokens.opt_in);
    const optOut = await decode(quote.tokens.opt_out);

    expect(optIn.status).toBe(200);
    const sealed = {
      quote_id: quote.quote_id,
      currency: 'USD',
      terms_version: 1,
      item_count: 3,
      premium_total: quote.premium_total,
      expires_at: quote.expires_at,
    };
    expect(optIn.json).toEqual({ ...sealed, opt_in: true, redeemed_by: null });
    expect(optOut.status).toBe(200);
    expect(optOut.json).toEqual({ ...sealed, opt_in: false });
    expect(quote.premium_total).toBe('13.23'); // 10.20 + 3.02 + 0.01
  });

  it("answers 422 invalid_quote_token for another client's token", async () => {
    const other = await service.newClient('Other Shop');
    const theirs = await quoteFor(service, other.public_key, cartItems('80.00'));

    const res = await decode(theirs.tokens.opt_in);

    expect(res.status).toBe(422);
    expect(res.json.error).toMatchObject({ code: 'invalid_quote_token', param: 'token' });
  });

  it('answers 422 invalid_quote_token for an access token, a tampered token and text that is no token', async () => {
    const auth = await service.call('auth-token', {
      method: 'POST',
      path: '/api/v2/auth/token',
      body: { public_key: client.public_key, secret_key: client.secret_key },
    });
    const quote = await quoteFor(service, client.public_key, cartItems('80.00'));
    const [header, payload, signature] = quote.tokens.opt_in.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, pt: '0.01' })).toString('base64url')}.${signature}`;

    const answers = await Promise.all([auth.json.token as string, tampered, 'not-a-token'].map((token) => decode(token)));

    expect(auth.status).toBe(200);
    expect(answers.map((res) => [res.status, res.json.error.code])).toEqual(Array(3).fill([422, 'invalid_quote_token']));
  });

  it('answers 422 quote_expired for an expired token', async () => {
    const expired = await signToken(
      'quote',
      client.client_id,
      { qid: 'qt_expired', opt_in: true, currency: 'USD', tv: 1, n: 1, items: 'digest', pt: '6.80' },
      -60,
    );

    const res = await decode(expired);

    expect(res.status).toBe(422);
    expect(res.json.error).toMatchObject({ code: 'quote_expired', param: 'token' });
  });

  it('refuses a token sealed before the premium total was (no `pt`), or with neither a terms version nor a rate, as invalid', async () => {
    const noTotal = await signToken('quote', client.client_id, { qid: 'qt_old', opt_in: true, currency: 'USD', tv: 1, n: 1, items: 'digest' }, 300);
    const noTerms = await signToken('quote', client.client_id, { qid: 'qt_old', opt_in: true, currency: 'USD', n: 1, items: 'digest', pt: '6.80' }, 300);

    for (const old of [noTotal, noTerms]) {
      const res = await decode(old);
      expect([res.status, res.json.error.code]).toEqual([422, 'invalid_quote_token']);
    }
  });

  it('reads a token signed before terms had versions (its flat `rate`, no `tv`) as version 1, which that rate is', async () => {
    const old = await signToken(
      'quote',
      client.client_id,
      { qid: 'qt_old', opt_in: true, currency: 'USD', rate: '0.085', n: 1, items: 'digest', pt: '6.80' },
      300,
    );

    const res = await decode(old);

    expect([res.status, res.json.terms_version, res.json.premium_total]).toEqual([200, 1, '6.80']);
  });

  it("names the order that redeemed an opt-in token's quote, as soon as it is sold; an opt-out token, never spent, names none", async () => {
    const items = cartItems('45.00', '12.50');
    const quote = await quoteFor(service, client.public_key, items);
    const before = await decode(quote.tokens.opt_in);

    const order = await service.call('orders-create', {
      method: 'POST',
      path: '/api/v2/orders',
      clientId: client.client_id,
      body: { token: quote.tokens.opt_in, order_number: uniqueOrderNumber('decode'), currency: 'USD', items },
    });
    const [after, cart, optOut] = await Promise.all([
      decode(quote.tokens.opt_in),
      check({ token: quote.tokens.opt_in, items: items.map(({ reference_number, cost }) => ({ reference_number, cost })) }),
      decode(quote.tokens.opt_out),
    ]);

    expect([before.status, before.json.redeemed_by]).toEqual([200, null]);
    expect(order.status, order.body).toBe(201);
    const redeemedBy = { service_order_id: order.json.service_order_id, redeemed_at: order.json.created };
    expect([after.status, after.json.redeemed_by]).toEqual([200, redeemedBy]);
    expect([cart.status, cart.json.redeemed_by, cart.json.items.length]).toEqual([200, redeemedBy, 2]);
    expect(optOut.status).toBe(200);
    expect(optOut.json).not.toHaveProperty('redeemed_by');
  });

  it('answers 401 without an access token', async () => {
    const quote = await quoteFor(service, client.public_key, cartItems('80.00'));

    const res = await decode(quote.tokens.opt_in, { asClient: null });

    expect(res.status).toBe(401);
    expect(res.json.error).toMatchObject({ type: 'authentication_error', code: 'invalid_token' });
  });

  it("answers on Teak's spelling GET /api/v2/quote/decode too", async () => {
    const quote = await quoteFor(service, client.public_key, cartItems('80.00'));

    const [ours, teaks] = await Promise.all([decode(quote.tokens.opt_in), decode(quote.tokens.opt_in, { path: '/api/v2/quote/decode/' })]);

    expect(teaks.status).toBe(200);
    expect(teaks.json).toEqual(ours.json);
  });

  it('answers 422 without a token or with another query parameter', async () => {
    const missing = await service.call('quotes-decode', { method: 'GET', path: '/api/v2/quotes/decode', clientId: client.client_id });
    const extra = await service.call('quotes-decode', {
      method: 'GET',
      path: '/api/v2/quotes/decode',
      query: { token: 'x', items: 'y' },
      clientId: client.client_id,
    });

    expect([missing.status, missing.json.error.param]).toEqual([422, 'token']);
    expect([extra.status, extra.json.error.param]).toEqual([422, 'items']);
  });
});

describe('POST /quotes/decode', () => {
  it('answers the sealed facts and, for the quoted items in any order, their premiums as the quote priced them', async () => {
    const items = cartItems('120.00', '35.50', '0.10');
    const quote = await quoteFor(service, client.public_key, items);
    const sent = [items[2]!, items[0]!, items[1]!].map(({ reference_number, cost }) => ({ reference_number, cost }));

    const res = await check({ token: quote.tokens.opt_in, items: sent });
    const plain = await check({ token: quote.tokens.opt_in });

    expect(res.status).toBe(200);
    expect(res.json.items.map((item: { reference_number: string }) => item.reference_number)).toEqual(['seat-3', 'seat-1', 'seat-2']);
    expect(byReference(res.json.items)).toEqual(byReference(quote.items.map(({ reference_number, cost, premium }) => ({ reference_number, cost, premium }))));
    expect(plain.status).toBe(200);
    expect(res.json).toEqual({ ...plain.json, items: res.json.items });
    expect(plain.json).toMatchObject({ quote_id: quote.quote_id, opt_in: true, item_count: 3, premium_total: quote.premium_total });
  });

  it('answers 422 quote_mismatch when a cost changed, an item is missing or one was added', async () => {
    const items = cartItems('120.00', '35.50');
    const quote = await quoteFor(service, client.public_key, items);
    const pairs = items.map(({ reference_number, cost }) => ({ reference_number, cost }));

    const answers = await Promise.all(
      [[{ ...pairs[0]!, cost: '119.99' }, pairs[1]!], [pairs[0]!], [...pairs, { reference_number: 'seat-9', cost: '1.00' }]].map((sent) =>
        check({ token: quote.tokens.opt_out, items: sent }),
      ),
    );

    for (const res of answers) {
      expect(res.status).toBe(422);
      expect(res.json.error).toMatchObject({ code: 'quote_mismatch', param: 'items' });
    }
  });

  it('refuses what an order would refuse: unknown fields, bad money, an empty cart, and tokens of other clients', async () => {
    const quote = await quoteFor(service, client.public_key, cartItems('80.00'));
    const other = await service.newClient('Third Shop');
    const theirs = await quoteFor(service, other.public_key, cartItems('80.00'));

    const answers = await Promise.all([
      check({ token: quote.tokens.opt_in, items: [{ reference_number: 'seat-1', cost: '80.00', premium: '0.01' }] }),
      check({ token: quote.tokens.opt_in, items: [{ reference_number: 'seat-1', cost: '80.001' }] }),
      check({ token: quote.tokens.opt_in, items: [] }),
      check({ token: quote.tokens.opt_in, rate: '0.0001' }),
      check({ token: theirs.tokens.opt_in, items: [{ reference_number: 'seat-1', cost: '80.00' }] }),
    ]);

    expect(answers.map((res) => [res.status, res.json.error.code, res.json.error.param])).toEqual([
      [422, 'validation_failed', 'items[0].premium'],
      [422, 'validation_failed', 'items[0].cost'],
      [422, 'validation_failed', 'items'],
      [422, 'validation_failed', 'rate'],
      [422, 'invalid_quote_token', 'token'],
    ]);
  });

  it('answers 401 without an access token, before reading the body', async () => {
    const res = await service.call('quotes-decode', { method: 'POST', path: '/api/v2/quotes/decode', rawBody: '{not json' });

    expect(res.status).toBe(401);
  });
});
