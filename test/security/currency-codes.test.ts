import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartItems, startService, uniqueOrderNumber, type Service } from '../support/service.js';

/**
 * Issue 35.11: a currency code is three ASCII letters. JavaScript's toUpperCase folds Unicode, so
 * `uſd` (long s) became USD, `ınr` (dotless i) INR and `ßp` (sharp s, two letters upper-cased) SSP.
 * Through the quote and the order handlers they are 422 `validation_failed` on `currency` in the
 * envelope; lower-case ASCII stays accepted (openapi.yaml's Currency: `^[A-Za-z]{3}$`, answered upper-case).
 */
let service: Service;
let client: Awaited<ReturnType<Service['newClient']>>;
beforeAll(async () => {
  service = await startService();
  client = await service.newClient('Currency Codes Shop');
});
afterAll(() => service.stop());

const quote = (currency: string) =>
  service.call('quotes-create', {
    method: 'POST',
    path: '/api/v2/quotes',
    headers: { 'x-public-key': client.public_key },
    body: { currency, items: cartItems('10.00') },
  });
const order = (currency: string) =>
  service.call('orders-create', {
    method: 'POST',
    path: '/api/v2/orders',
    clientId: client.client_id,
    body: { order_number: uniqueOrderNumber('cur'), currency, items: cartItems('10.00') },
  });

describe('currency codes', () => {
  it.each(['uſd', 'ınr', 'ßp', 'ＵＳＤ', 'usd\u0307', 'U\u200bSD'])('%j is not a currency code: 422 on currency, quote and order alike', async (currency) => {
    for (const res of [await quote(currency), await order(currency)]) {
      expect(res.status, res.body).toBe(422);
      expect(res.json.error).toMatchObject({ type: 'invalid_request_error', code: 'validation_failed', param: 'currency' });
    }
  });

  it('takes ASCII letters in either case and answers the code upper-case', async () => {
    const res = await quote('uSd');
    expect(res.status, res.body).toBe(201);
    expect(res.json.currency).toBe('USD');
  });
});
