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
