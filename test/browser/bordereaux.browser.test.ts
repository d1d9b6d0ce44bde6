import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoSiteRoutes } from '../../scripts/local/demo-site.js';
import { createClient } from '#shared/clients/manage-clients.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { createDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { accessibilityViolations, cspViolations, launchChromium, overflowingTables, screenshot, signInThroughForm, staffUser } from '../support/browser.js';
import { testEndpoint } from '../support/dynamo.js';
import { accessToken, http } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The console's bordereaux in a real browser (Debian's Chromium), by keyboard: the finance user
 * signs in, then the month and the kind, Enter; the section follows the export until it is done and
 * offers the link, which downloads the CSV from the local S3 (s3rver) with the live client's policy
 * in it. The past exports are listed, an export a script started before among them, and a done one's
 * link is had from the list.
 */
let server: TestServer;
let browser: Browser;
let page: Page;
let refused: string[];
let policyNumber = '';
let earlierId = '';
const month = new Date().toISOString().slice(0, 7);

beforeAll(async () => {
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
  // An export started earlier by a script (the operator key), before the finance user signs in.
  const earlier = await http('POST', `${server.baseUrl}/api/v2/admin/bordereaux`, {
    headers: { authorization: `Operator ${server.operatorKey}` },
    body: { period: month, kind: 'claims' },
  });
  expect(earlier.status, earlier.text).toBe(202);
  earlierId = earlier.json.export_id;
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const focusedId = () => page.evaluate(() => document.activeElement?.id);

describe('the bordereaux page', () => {
  it('exports the month’s premium bordereau by keyboard and offers its link', async () => {
    await signInThroughForm(page, server.baseUrl, staffUser(server.staff, 'finance'));
    // The past exports as the section opens: the script's, with who started it.
    const past = page.getByRole('table', { name: 'Past exports' }).locator('tbody tr');
    await past.first().waitFor();
    expect(await past.count()).toBe(1);
    expect(await past.first().getAttribute('data-export-id')).toBe(earlierId);
    expect(await past.first().locator('td').allTextContents()).toEqual([
      month,
      'Claims',
      expect.stringMatching(/^(Running|Done)$/),
      expect.stringMatching(/^(–|0)$/),
      expect.stringMatching(/ UTC.+$/),
      expect.stringMatching(/^(Show|Get link)/),
    ]);
    expect(await page.locator('#exports-count').textContent()).toBe('1 export shown, newest first.');
    expect(await page.locator('#bordereaux').getByLabel('Month').inputValue()).toBe(month);
    await page.locator('#bordereaux').getByLabel('Month').focus(); // this month already
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
      'client_id,policy_number,service_order_id,order_number,transaction_type,transaction_date,risk_start,currency,premium,coverage_amount,commission,terms_version',
    );
    expect(csv).toContain(`,${policyNumber},`);
    expect(csv).not.toContain(server.demo.client_id);
    expect(csv).not.toContain('Mant');
    // The new export on top of the list, done, by the finance user.
    expect(await past.count()).toBe(2);
    expect(await past.first().locator('td').allTextContents()).toEqual([
      month,
      'Premium',
      'Done',
      '1',
      expect.stringMatching(new RegExp(` UTC${staffUser(server.staff, 'finance').email.replace(/[.+]/g, '\\$&')}$`)),
      expect.stringMatching(/^Get link/),
    ]);
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(await overflowingTables(page)).toEqual([]);
    await screenshot(page, 'console-bordereaux-done', { fullPage: true });
  });

  it('gets the link of an export started earlier from the list of past exports, by keyboard, at a desktop and a phone width', async () => {
    // The list as it was read again when the premium export started: the earlier export done by then.
    const earlier = page.locator(`#exports-rows tr[data-export-id="${earlierId}"]`);
    await earlier.waitFor();
    expect(await earlier.locator('td').nth(2).textContent()).toBe('Done');
    const getLink = earlier.getByRole('button', { name: new RegExp(`^Get link to the claims bordereau ${month} started `) });
    await getLink.focus();
    await page.keyboard.press('Enter');
    const link = page.getByRole('link', { name: `Download the claims bordereau ${month} (CSV)` });
    await link.waitFor();
    expect(await focusedId()).toBe('result-title');
    expect((await fetch((await link.getAttribute('href'))!)).status).toBe(200);
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      expect(await accessibilityViolations(page)).toEqual([]);
      expect(await overflowingTables(page)).toEqual([]);
      await screenshot(page, `console-bordereaux-past-${viewport.width}`, { fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('shows a refusal in the alert with the focus on the field it names', async () => {
    await page.locator('#bordereaux').getByLabel('Month').fill('2999-01');
    await page.getByRole('button', { name: 'Start export' }).click();
    await expect.poll(() => page.locator('#error').textContent()).toMatch(/2999-01 has not begun/);
    expect(await focusedId()).toBe('period');
    expect(await page.locator('#bordereaux').getByLabel('Month').getAttribute('aria-invalid')).toBe('true');
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(refused).toEqual([]);
  });
});
