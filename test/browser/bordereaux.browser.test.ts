import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoSiteRoutes } from '../../scripts/local/demo-site.js';
import { createClient } from '#shared/clients/manage-clients.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { createDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { accessibilityViolations, launchChromium, cspViolations, signInThroughForm, staffUser } from '../support/browser.js';
import { testEndpoint } from '../support/dynamo.js';
import { accessToken, http } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The console's bordereaux in a real browser (Debian's Chromium), by keyboard: the finance user
 * signs in, then the month and the kind, Enter; the section follows the export until it is done and
 * offers the link, which downloads the CSV from the local S3 (s3rver) with the live client's policy
 * in it.
 */
let server: TestServer;
let browser: Browser;
let page: Page;
let refused: string[];
let policyNumber = '';
const shots = join(process.cwd(), 'test-results');
const month = new Date().toISOString().slice(0, 7);

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  server = await startTestServer({ staticRoutes: demoSiteRoutes });
  browser = await launchChromium();
  page = await browser.newPage();
  refused = cspViolations(page);

  // A live merchant (the demo shop is in test mode: its money is not in the bordereaux) sells one protected ticket.
  const doc = createDocumentClient(testEndpoint(), 'us-east-1');
  const live = await createClient(new DynamoClientStore(doc, process.env.TABLE_NAME!), { name: 'Live Venue', mode: 'live' });
  doc.destroy();
  const order = await http('POST', `${server.baseUrl}/api/v2/orders`, {
    headers: { authorization: `JWT ${await accessToken(server.baseUrl, live)}` },
    body: {
      order_number: `BDX-${Date.now().toString(36)}`,
      currency: 'USD',
      items: [{ name: 'Seat A1', reference_number: 'a1', cost: '80.00' }],
      customer: { first_name: 'Claire', last_name: 'Mant', email: 'claire.mant@example.org' },
    },
  });
  expect(order.status, order.text).toBe(201);
  policyNumber = order.json.policies[0].policy_number;
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const focusedId = () => page.evaluate(() => document.activeElement?.id);

describe('the bordereaux page', () => {
  it('exports the month’s premium bordereau by keyboard and offers its link', async () => {
    await signInThroughForm(page, server.baseUrl, staffUser(server.staff, 'finance'));
    expect(await page.getByLabel('Month').inputValue()).toBe(month);
    await page.getByLabel('Month').focus(); // this month already
    // Chromium's month field has stops of its own (the month, the year, its picker), then the kind.
    for (let stops = 0; stops < 3 && (await focusedId()) === 'period'; stops++) await page.keyboard.press('Tab');
    expect(await focusedId()).toBe('kind'); // Bordereau: Premium
    await page.keyboard.press('Tab'); // Start export
    await page.keyboard.press('Enter');

    const link = page.getByRole('link', { name: `Download the premium bordereau ${month} (CSV)` });
    await link.waitFor();
    expect(await page.locator('#result-status').textContent()).toMatch(/^Done: 1 row/);
    expect(await page.locator('#announce').textContent()).toMatch(/The download link is ready\.$/);
    expect(await focusedId()).toBe('result-title');
    const href = (await link.getAttribute('href'))!;
    expect(new URL(href).searchParams.get('X-Amz-Expires')).toBe('900');
    const csv = await (await fetch(href)).text();
    expect(csv.split('\r\n')[0]).toBe(
      'client_id,policy_number,service_order_id,order_number,transaction_type,transaction_date,risk_start,currency,premium,coverage_amount',
    );
    expect(csv).toContain(`,${policyNumber},`);
    expect(csv).not.toContain(server.demo.client_id);
    expect(csv).not.toContain('Mant');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: join(shots, 'console-bordereaux-done.png'), fullPage: true });
  });

  it('shows a refusal in the alert with the focus on the field it names', async () => {
    await page.getByLabel('Month').fill('2999-01');
    await page.getByRole('button', { name: 'Start export' }).click();
    await expect.poll(() => page.locator('#error').textContent()).toMatch(/2999-01 has not begun/);
    expect(await focusedId()).toBe('period');
    expect(await page.getByLabel('Month').getAttribute('aria-invalid')).toBe('true');
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(refused).toEqual([]);
  });
});
