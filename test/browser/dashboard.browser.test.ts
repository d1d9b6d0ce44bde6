import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoSiteRoutes } from '../../scripts/local/demo-site.js';
import { accessibilityViolations, cspViolations, launchChromium, screenshot } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The dashboard in a real browser (Debian's Chromium): the conversion chart's axes carry their
 * values, and "Send test event" — reached and pressed by keyboard — sends the demo receiver a
 * webhook_endpoint.test, announces the delivery and shows the event in the webhook log.
 */
let server: TestServer;
let browser: Browser;
let page: Page;
let refused: string[];

beforeAll(async () => {
  server = await startTestServer({ staticRoutes: demoSiteRoutes });
  browser = await launchChromium();
  page = await browser.newPage();
  refused = cspViolations(page);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const focusedText = () => page.evaluate(() => document.activeElement?.textContent ?? '');
const texts = (selector: string) => page.locator(selector).allTextContents();

describe('the dashboard', () => {
  it('labels both axes of the conversion chart with their values', async () => {
    const dayOf = () => new Date().toISOString().slice(5, 10);
    const before = dayOf(); // the chart ends on the day the page drew it: between these two (a CI run crossed midnight UTC here)
    await page.goto(`${server.baseUrl}/dashboard`);
    await expect.poll(() => page.locator('#chart .x-axis text').count()).toBe(15); // 14 days and the axis' title
    const days = await texts('#chart .x-axis text');
    expect(days.slice(0, 14).every((label) => /^\d{2}-\d{2}$/.test(label))).toBe(true);
    expect([before, dayOf()]).toContain(days[13]);
    expect(days[14]).toBe('Day (month-day)');
    const counts = await texts('#chart .y-axis text');
    expect(counts).toEqual(['0', '1', '2', '3', '4', 'Checkouts']); // no checkouts yet: the smallest scale
    expect(await texts('#chart .rate-axis text')).toEqual(['0%', '25%', '50%', '75%', '100%', 'Conversion rate']);
  });

  it('sends a test event by keyboard, announces its delivery and shows it in the webhook log', async () => {
    const button = page.getByRole('button', { name: 'Send test event' });
    await button.waitFor();
    expect(await button.getAttribute('aria-describedby')).toMatch(/^url-we_/);
    for (let stops = 0; stops < 10 && (await focusedText()) !== 'Send test event'; stops++) await page.keyboard.press('Tab');
    expect(await focusedText()).toBe('Send test event');
    await page.keyboard.press('Enter');

    const status = page.locator('#test-status');
    expect(await status.getAttribute('aria-live')).toBe('polite');
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toMatch(/^Test event evt_[A-Za-z0-9]{24} delivered \(HTTP 200\)/);
    const eventId = /evt_[A-Za-z0-9]{24}/.exec((await status.textContent())!)![0];
    const row = page.locator('#events tbody tr', { hasText: eventId });
    expect(await row.locator('td').allTextContents()).toEqual([eventId, 'webhook_endpoint.test', 'yes', expect.stringMatching(/ 200 \(\d+ ms\)$/)]);
    await expect.poll(() => page.locator('#received-status').textContent()).toMatch(/with a valid signature/);
    expect(await focusedText()).toBe('Send test event'); // the focus stays where the keyboard left it

    expect(await accessibilityViolations(page)).toEqual([]);
    expect(refused).toEqual([]);
    await screenshot(page, 'dashboard-test-event', { fullPage: true });
  });
});

describe('the accessibility check every page passes', () => {
  it('finds what axe finds: an image without a text alternative, a field without a label, text too faint to read', async () => {
    // The control for every `accessibilityViolations(page)` that reads []: the build it loads runs its rules.
    const broken = await browser.newPage();
    await broken.setContent(
      '<!doctype html><html lang="en"><title>Broken</title><main><img src="data:,"><input type="text"><p style="color:#eee;background:#fff">faint</p></main></html>',
    );
    const found = (await accessibilityViolations(broken)).map((violation) => violation.split(':')[0]);
    expect(found).toEqual(expect.arrayContaining(['image-alt', 'label', 'color-contrast']));
    await broken.close();
  });
});
