import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { accessToken, http } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** The checkout flow over HTTP against the local server, as a merchant integrates it. */
let server: TestServer;
let auth: Record<string, string>;
const concert = { name: 'Spring Concert', start_date: '2027-04-10', start_time: '19:30', location: 'City Hall' };
// Reference numbers deliberately not in sorting order: the order keeps the merchant's item order.
const items = [
  { name: 'Seat A1', reference_number: 'e2e-z1', cost: '120.00', event: concert },
  { name: 'Seat A2', reference_number: 'e2e-a2', cost: '0.3', event: concert },
];
const personal = {
  customer: { first_name: 'Hildegard', last_name: 'Bingen', email: 'hildegard@example.org', phone: '+49 6721 987654' },
  billing_address: { address1: 'Rupertsberg 1', city: 'Bingen am Rhein', zip_code: '55411', state: 'RP', country: 'DE' },
  payment: { type: 'invoice' },
};

beforeAll(async () => {
  server = await startTestServer();
  auth = { authorization: `JWT ${await accessToken(server.baseUrl, server.demo)}` };
});
afterAll(() => server.stop());

const quote = async () =>
  (await http('POST', `${server.baseUrl}/api/v2/quotes`, { headers: { 'x-public-key': server.demo.public_key }, body: { currency: 'USD', items } })).json;

async function scanBothTables() {
  const doc = createDocumentClient(process.env.DYNAMODB_ENDPOINT, 'us-east-1');
  const pages = await Promise.all([process.env.TABLE_NAME, process.env.METRICS_TABLE_NAME].map((TableName) => doc.send(new ScanCommand({ TableName }))));
  doc.destroy();
  return JSON.stringify(pages.flatMap((page) => page.Items ?? []));
}

describe('checkout over HTTP', () => {
  it('quotes with two tokens that differ only in opt_in, and answers CORS preflights', async () => {
    const q = await quote();
    const preflight = await fetch(`${server.baseUrl}/api/v2/quotes`, {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' },
    });

    expect(q).toMatchObject({
      quote_id: expect.stringMatching(/^qt_/),
      currency: 'USD',
      premium_total: '10.23',
      items: [
        { premium: '10.20', coverage_amount: '120.00' },
        { cost: '0.30', premium: '0.03' },
      ],
    });
    const claims = (t: string) => JSON.parse(Buffer.from(t.split('.')[1]!, 'base64url').toString());
    expect({ ...claims(q.tokens.opt_in), opt_in: null }).toEqual({ ...claims(q.tokens.opt_out), opt_in: null });
    expect([claims(q.tokens.opt_in).opt_in, claims(q.tokens.opt_out).opt_in]).toEqual([true, false]);
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('logs an opt-out with 204, creates nothing readable, and stores no personal data', async () => {
    const q = await quote();

    const res = await http('POST', `${server.baseUrl}/api/v2/orders`, {
      headers: auth,
      body: { token: q.tokens.opt_out, order_number: 'E2E-OUT-1', currency: 'USD', items, ...personal },
    });

    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const stored = await scanBothTables();
    expect(stored).toContain('"opt_in":false'); // the sanitized record is there…
    expect(stored).not.toContain('E2E-OUT-1'); // …keyed by a keyed hash of the order number…
    for (const pii of ['Hildegard', 'Bingen', 'hildegard@example.org', '987654', 'Rupertsberg', '55411']) expect(stored).not.toContain(pii); // …and nothing personal
    expect(stored).not.toContain('"entity":"order"');
  });

  it('creates an opt-in order with the quoted premiums and reads the same order back', async () => {
    const q = await quote();

    const created = await http('POST', `${server.baseUrl}/api/v2/orders/`, {
      headers: auth,
      body: { token: q.tokens.opt_in, order_number: 'E2E-IN-1', currency: 'USD', items, customer: personal.customer },
    });
    const read = await http('GET', `${server.baseUrl}/api/v2/orders/${created.json.service_order_id}/`, { headers: auth });

    expect(created.status).toBe(201);
    expect(created.json.policies.map((p: { premium: string }) => p.premium)).toEqual(q.items.map((i: { premium: string }) => i.premium));
    expect(created.json.subtotal).toBe('120.30');
    expect(read.status).toBe(200);
    expect(read.json).toEqual(created.json);
  });
});
