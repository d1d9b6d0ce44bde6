import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PAYMENT_TYPES } from '#shared/conversion/coded-values.js';
import { DynamoOrderStore } from '#shared/orders/dynamo-order-store.js';
import { captureLogs } from '../support/logs.js';
import type { Service } from '../support/service.js';

/**
 * PII: a whole run of the API with personal data everywhere a merchant could put it — opt-outs,
 * refused requests, crashes, replays, changes — then both tables and every captured log line are
 * searched. Opt-in orders keep the customer's name and e-mail (their Order shows them), so the
 * markers that may live there are checked only outside those order records. The metrics table
 * must hold coded values only, whatever was typed into which field.
 */
let service: Service;
let logs: string[] = [];

const person = {
  first_name: 'Philippa',
  last_name: 'Quintessence',
  email: 'philippa.q@example.net',
  phone: '+1 (415) 555-0199',
};
const address = { address1: '1600 Amphitheatre Parkway', address2: 'Suite 9876', city: 'Kalamazoo', zip_code: '49001-4455', state: 'MI', country: 'US' };
const card = '4111 1111 1111 1111';
const neverAnywhere = ['555-0199', '4155550199', 'Amphitheatre', 'Suite 9876', 'Kalamazoo', '49001-4455', '490014455', '4111 1111', '4111111111111111'];
const notOutsideOrders = ['Philippa', 'Quintessence', 'philippa.q@example.net'];

beforeAll(async () => {
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  logs = captureLogs();
  const { startService } = await import('../support/service.js');
  service = await startService();
});
afterAll(async () => {
  vi.restoreAllMocks();
  await service.stop();
});

describe('personal data', () => {
  it('is found in no table and no log line, except the opt-in customer on their own order', async () => {
    const { cartItems, quoteFor, uniqueOrderNumber } = await import('../support/service.js');
    const client = await service.newClient('PII Shop');
    const items = cartItems('49.00', '51.00');
    const quote = await quoteFor(service, client.public_key, items);
    const full = { currency: 'USD', items, customer: person, billing_address: address, payment: { type: card } };
    const order = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      service.call('orders-create', { method: 'POST', path: '/api/v2/orders', clientId: client.client_id, body, headers });
    const tokens: string[] = [quote.tokens.opt_in, quote.tokens.opt_out];
    const orderNumbers: string[] = [];
    const numbered = (orderNumber: string) => {
      orderNumbers.push(orderNumber);
      return orderNumber;
    };
    // Each personal value typed into a field that is coded in the metrics table.
    const misplaced = {
      state: `${person.first_name} ${person.last_name}`,
      country: address.address1,
      order_number: person.email,
      payment: 'Visa 4242-4242-4242-4242 exp 12/29',
    };

    const statuses = [
      (await order({ ...full, token: quote.tokens.opt_out, order_number: numbered(uniqueOrderNumber('pii')) })).status,
      (
        await order({
          ...full,
          token: quote.tokens.opt_out,
          order_number: numbered(misplaced.order_number),
          billing_address: { ...address, state: misplaced.state, country: misplaced.country },
          payment: { type: misplaced.payment },
        })
      ).status,
      (
        await order({
          ...full,
          token: quote.tokens.opt_out,
          order_number: numbered(uniqueOrderNumber('pii')),
          billing_address: { ...address, state: ' us-mi ', country: 'us' },
          payment: { type: 'PayPal' },
        })
      ).status,
      (
        await order({
          ...full,
          token: quote.tokens.opt_out,
          order_number: numbered(uniqueOrderNumber('pii')),
          customer: { ...person, email: 'not an e-mail philippa.q@example.net' },
        })
      ).status,
      (await order({ ...full, token: quote.tokens.opt_out, order_number: numbered(uniqueOrderNumber('pii')), surprise: person })).status,
      (await order({ ...full, token: quote.tokens.opt_in, order_number: numbered(uniqueOrderNumber('pii')) }, { 'idempotency-key': 'pii-1' })).status,
      (await order({ ...full, token: quote.tokens.opt_in, order_number: numbered(uniqueOrderNumber('pii')) }, { 'idempotency-key': 'pii-1' })).status,
    ];
    vi.spyOn(DynamoOrderStore.prototype, 'create').mockRejectedValueOnce(new Error(`store down while writing ${person.email}`));
    statuses.push((await order({ ...full, token: quote.tokens.opt_in, order_number: numbered(uniqueOrderNumber('pii')) })).status);

    expect(statuses).toEqual([204, 204, 204, 422, 422, 201, 422, 500]);
    const rows = await service.scanBoth();
    const everything = JSON.stringify(rows);
    const outsideOrders = JSON.stringify(rows.filter((row) => !['order', 'item', 'idempotency'].includes(String(row.entity))));
    const log = logs.join('');
    expect(log).toContain('"message":"request"');
    for (const marker of neverAnywhere) {
      expect(everything).not.toContain(marker);
      expect(log).not.toContain(marker);
    }
    for (const marker of notOutsideOrders) {
      expect(outsideOrders).not.toContain(marker);
      expect(log).not.toContain(marker);
    }
    for (const token of tokens) {
      expect(everything).not.toContain(token);
      expect(log).not.toContain(token.split('.')[2]);
    }

    const metrics = (await service.tables.doc.send(new ScanCommand({ TableName: service.tables.metrics }))).Items ?? [];
    const metricsText = JSON.stringify(metrics);
    for (const value of [...orderNumbers, ...Object.values(misplaced), person.first_name, person.last_name]) {
      expect(metricsText).not.toContain(value);
    }
    const checkouts = metrics.filter((row) => row.entity === 'checkout');
    expect(checkouts).toHaveLength(4); // three opt-outs and the opt-in
    const paymentTypes = new Set<unknown>([...PAYMENT_TYPES, 'other', null]);
    for (const checkout of checkouts) {
      expect(checkout.country === null || /^[A-Z]{2}$/.test(checkout.country)).toBe(true);
      expect(checkout.state === null || /^[A-Z]{2}-[A-Z0-9]{1,3}$/.test(checkout.state)).toBe(true);
      expect(paymentTypes.has(checkout.payment_type)).toBe(true);
      expect(checkout).not.toHaveProperty('order_number');
      expect(`${checkout.PK}/${checkout.SK}`).toBe(`CHECKOUT#${checkout.client_id}#${checkout.order_hash}/CHECKOUT`);
    }
    const codes = checkouts.map((checkout) => [checkout.country, checkout.state, checkout.payment_type]);
    expect(codes).toEqual(
      expect.arrayContaining([
        ['US', 'US-MI', 'other'],
        [null, null, 'other'],
        ['US', 'US-MI', 'paypal'],
      ]),
    );
  });
});
