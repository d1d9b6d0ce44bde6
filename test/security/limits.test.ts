import { describe, expect, it } from 'vitest';
import { http } from '../support/http.js';
import { useTestServer } from '../support/server.js';

/** Limits and hostile input over HTTP: each gets a clear answer in the envelope, naming the field. */
const server = useTestServer();

const item = (i = 0, cost = '10.00') => ({ name: `Seat ${i}`, reference_number: `lim-${i}`, cost });
const order = (overrides: Record<string, unknown> = {}) => ({ order_number: `lim-${Math.random()}`, currency: 'USD', items: [item()], ...overrides });
const post = (body: unknown, headers: Record<string, string> = {}) =>
  http('POST', `${server.baseUrl}/api/v2/orders`, { body, headers: { ...server.auth, ...headers } });
const postRaw = (rawBody: string, contentType = 'application/json') =>
  http('POST', `${server.baseUrl}/api/v2/orders`, { rawBody, headers: { ...server.auth, 'content-type': contentType } });

describe('transport', () => {
  it('answers 413 to a body over 256 KB', async () => {
    const res = await postRaw(JSON.stringify(order({ padding: 'x'.repeat(300 * 1024) })));
    expect([res.status, res.json.error.code]).toEqual([413, 'payload_too_large']);
  });

  it('answers 415 to a body that is not JSON', async () => {
    const res = await postRaw('order_number=1', 'application/x-www-form-urlencoded');
    expect([res.status, res.json.error.code]).toEqual([415, 'unsupported_media_type']);
  });

  it('answers 400 to malformed JSON', async () => {
    const res = await postRaw('{"order_number": "1",');
    expect([res.status, res.json.error.code]).toEqual([400, 'invalid_json']);
  });

  it.each([
    ['an array', '[]'],
    ['null', 'null'],
    ['a number', '42'],
    ['a string', '"order"'],
  ])('answers 422 to %s as body', async (_name, raw) => {
    const res = await postRaw(raw);
    expect([res.status, res.json.error.code]).toEqual([422, 'validation_failed']);
  });
});

describe('fields', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['more than 96 items', { items: Array.from({ length: 97 }, (_, i) => item(i)) }, 'items'],
    ['no items', { items: [] }, 'items'],
    ['a string over 255 characters', { order_number: 'n'.repeat(256) }, 'order_number'],
    ['an unknown field', { coupon: 'FREE' }, 'coupon'],
    ['a number where a string belongs', { items: [{ ...item(), cost: 10 }] }, 'items[0].cost'],
    ['a negative cost', { items: [item(0, '-1.00')] }, 'items[0].cost'],
    ['a cost with 3 decimals', { items: [item(0, '1.005')] }, 'items[0].cost'],
    ['a cost over 1,000,000.00', { items: [item(0, '1000000.01')] }, 'items[0].cost'],
    ['a currency that is not ISO 4217', { currency: 'XYZ' }, 'currency'],
    ['a date that does not exist', { event: { name: 'Gala', start_date: '2026-02-30', start_time: '19:00' } }, 'event.start_date'],
    ['a time that does not exist', { event: { name: 'Gala', start_date: '2026-02-20', start_time: '25:00' } }, 'event.start_time'],
    ['an e-mail that is not one', { customer: { email: 'not-an-email' } }, 'customer.email'],
    ['a repeated reference number', { items: [item(1), item(1)] }, 'items[1].reference_number'],
  ];

  it.each(cases)('answers 422 to %s, naming %s', async (_name, overrides, param) => {
    const res = await post(order(overrides));
    expect(res.status).toBe(422);
    expect(res.json.error).toMatchObject({ type: 'invalid_request_error', param });
  });

  it('answers 422 to more than 25 changes on PATCH', async () => {
    const changes = Array.from({ length: 26 }, (_, i) => ({ name: 'x', old_reference_number: `a${i}`, reference_number: `b${i}`, cost: '1' }));
    const res = await http('PATCH', `${server.baseUrl}/api/v2/orders/00000000-0000-4000-8000-000000000000/`, {
      body: { items: changes },
      headers: server.auth,
    });
    expect([res.status, res.json.error.param]).toEqual([422, 'items']);
  });
});

describe('errors', () => {
  it('carry a request_id that is also the x-request-id header', async () => {
    const res = await post(order({ currency: 'XYZ' }));
    expect(res.json.error.request_id).toBe(res.headers.get('x-request-id'));
  });

  it('answer unknown routes and wrong methods in the envelope too', async () => {
    const unknown = await http('GET', `${server.baseUrl}/api/v2/nothing`);
    const wrongMethod = await http('DELETE', `${server.baseUrl}/api/v2/orders/abc`, { headers: server.auth });
    expect([unknown.status, unknown.json.error.code]).toEqual([404, 'route_not_found']);
    expect([wrongMethod.status, wrongMethod.json.error.code]).toEqual([405, 'method_not_allowed']);
    expect(wrongMethod.headers.get('allow')).toBe('GET, PATCH'); // the methods the path takes, as HTTP asks of a 405
    expect(wrongMethod.json.error.message).toBe('DELETE is not allowed on /api/v2/orders/abc; it takes GET, PATCH.');
    // A parameter given twice reaches the handler as the request spelled it, and is refused, not joined.
    const twice = await http('GET', `${server.baseUrl}/api/v2/orders?order_number=A&order_number=B`, { headers: server.auth });
    expect([twice.status, twice.json.error.param]).toEqual([422, 'order_number']);
  });
});
