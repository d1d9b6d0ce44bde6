import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEndpoint } from '../../test/support/dynamo.js';
import { http } from '../../test/support/http.js';
import { LIVE_DEMO_ORDERS, startLocalServer, type LocalServer } from './local-server.js';

/**
 * npm start's live demo merchant: a newcomer's first bordereau is not empty. The server seeds it as
 * npm start does; the operator's export of this month then holds a row per seeded policy.
 */
let local: LocalServer;
beforeAll(async () => {
  const suffix = randomBytes(4).toString('hex');
  process.env.TABLE_NAME = `seed-main-${suffix}`;
  process.env.METRICS_TABLE_NAME = `seed-metrics-${suffix}`;
  local = await startLocalServer({ port: 0, dynamoEndpoint: testEndpoint(), seedLiveDemo: true });
  await local.seeded;
}, 120_000);
afterAll(() => local?.stop());

const operator = () => ({ authorization: `Operator ${local.operatorKey}` });

describe('npm start’s seeding', () => {
  it('makes the month’s premium bordereau non-empty: a row per policy of the live demo merchant’s orders', async () => {
    const live = local.liveDemo!;
    expect(live.public_key).toMatch(/^pk_live_/);
    const period = new Date().toISOString().slice(0, 7);
    const policies = LIVE_DEMO_ORDERS.reduce((n, order) => n + order.items.length, 0);
    // The ledger's stream consumer books the orders a moment after they are placed: export until every row is in.
    let csv = '';
    await expect
      .poll(
        async () => {
          const started = await http('POST', `${local.baseUrl}/api/v2/admin/bordereaux`, { headers: operator(), body: { period, kind: 'premium' } });
          expect(started.status, started.text).toBe(202);
          let done = started;
          for (let tries = 0; tries < 100 && done.json.status === 'running'; tries++) {
            await new Promise((resolve) => setTimeout(resolve, 200));
            done = await http('GET', `${local.baseUrl}/api/v2/admin/bordereaux/${started.json.export_id}`, { headers: operator() });
          }
          expect(done.json.status).toBe('done');
          csv = await (await fetch(done.json.url)).text();
          return done.json.rows;
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toBe(policies);
    const rows = csv.trim().split('\r\n').slice(1);
    expect(rows).toHaveLength(policies);
    expect(rows.every((row) => row.startsWith(`${live.client_id},`))).toBe(true);
    expect(new Set(rows.map((row) => row.split(',')[7]))).toEqual(new Set(LIVE_DEMO_ORDERS.map((order) => order.currency)));
    expect(csv).not.toContain(local.demo.client_id); // the test-mode demo shop stays out
  });
});

describe('npm start’s evidence events', () => {
  it('checks a customer’s upload as it lands and scans it with ClamAV: clean, and staff open it', async () => {
    const demo = local.demo;
    const token = await http('POST', `${local.baseUrl}/api/v2/auth/token`, { body: { public_key: demo.public_key, secret_key: demo.secret_key } });
    expect(token.status, token.text).toBe(200);
    const orderNumber = `ev-${randomBytes(4).toString('hex')}`;
    const order = await http('POST', `${local.baseUrl}/api/v2/orders`, {
      headers: { authorization: `JWT ${token.json.token}` },
      body: {
        order_number: orderNumber,
        currency: 'USD',
        customer: { email: 'ev@example.org' },
        items: [
          { name: 'Seat', reference_number: 's1', cost: '50.00', event: { name: 'Gala', start_date: '2027-05-01', start_time: '19:30', location: 'Hall' } },
        ],
      },
    });
    expect(order.status, order.text).toBe(201);
    const session = await http('POST', `${local.baseUrl}/api/v2/claims/sessions`, {
      body: { order_number: orderNumber, email: 'ev@example.org', public_key: demo.public_key },
    });
    const bearer = { authorization: `Bearer ${session.json.claim_token}` };
    const claim = await http('POST', `${local.baseUrl}/api/v2/claims`, {
      headers: bearer,
      body: { policy_numbers: [order.json.policies[0].policy_number], reason: 'illness', description: 'A fever.' },
    });
    expect(claim.status, claim.text).toBe(201);
    const pdf = new TextEncoder().encode('%PDF-1.4\n%%EOF\n');
    const asked = await http('POST', `${local.baseUrl}/api/v2/claims/${claim.json.claim_id}/files`, {
      headers: bearer,
      body: { filename: 'note.pdf', content_type: 'application/pdf', size: pdf.length },
    });
    expect(asked.status, asked.text).toBe(201);
    expect(asked.json.upload.url).toBe(`${process.env.S3_ENDPOINT}/order-protection-evidence`);
    const form = new FormData();
    for (const [name, value] of Object.entries(asked.json.upload.fields as Record<string, string>)) form.append(name, value);
    form.append('file', new Blob([pdf]));
    // As the claim page posts it: from the page's origin.
    const posted = await fetch(asked.json.upload.url, { method: 'POST', body: form, headers: { origin: local.baseUrl } });
    expect(posted.status).toBe(204);
    expect(posted.headers.get('access-control-allow-origin')).toBe(local.baseUrl);
    await expect
      .poll(async () => (await http('GET', `${local.baseUrl}/api/v2/claims/${claim.json.claim_id}/files`, { headers: bearer })).json.data[0].status, {
        timeout: 30_000,
        interval: 200,
      })
      .toBe('clean');
    const link = await http('GET', `${local.baseUrl}/api/v2/admin/claims/${claim.json.claim_id}/files/${asked.json.file_id}/link`, { headers: operator() });
    expect(link.status, link.text).toBe(200);
    expect(new Uint8Array(await (await fetch(link.json.url)).arrayBuffer())).toEqual(pdf);
  });
});
