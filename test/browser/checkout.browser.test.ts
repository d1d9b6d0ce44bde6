import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoSiteRoutes } from '../../scripts/local/demo-site.js';
import { readCatalogue } from '../../widget/locale-files.js';
import { accessibilityViolations, cspViolations, launchChromium, notFound, screenshot } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The widget in a real browser (Debian's Chromium): the demo checkout, both choices, keyboard
 * only, the link from a protected order to its claim, the dashboard, the pages' icon, and a
 * checkout that still completes when the API cannot be reached.
 */
let server: TestServer;
let browser: Browser;
let page: Page;
let refusedByCsp: string[];
let missing: string[];

beforeAll(async () => {
  server = await startTestServer({ staticRoutes: demoSiteRoutes });
  browser = await launchChromium();
  page = await browser.newPage();
  refusedByCsp = cspViolations(page);
  missing = notFound(page);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const yes = () => page.getByRole('radio', { name: /Yes, protect my order for \$13\.22/ });
const no = () => page.getByRole('radio', { name: "No, I don't want protection" });
const result = () => page.locator('#result');

async function todaysOptOuts(): Promise<number> {
  const day = new Date().toISOString().slice(0, 10);
  const report = await page.evaluate(async (d) => (await fetch(`/demo/metrics?from=${d}&to=${d}`)).json(), day);
  return report.totals.opt_out;
}

describe('demo checkout', () => {
  it('shows the premium for the cart, with neither choice selected', async () => {
    await page.goto(`${server.baseUrl}/`);

    await expect.poll(() => yes().count()).toBe(1); // 120.00 + 35.50 at 8.5% = 10.20 + 3.02 = 13.22
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(await yes().isChecked()).toBe(false);
    expect(await no().isChecked()).toBe(false);
    expect(await page.getByRole('group', { name: 'Refund protection' }).count()).toBe(1);
  });

  it('declines with the keyboard only, logs the opt-out and counts it', async () => {
    const before = await todaysOptOuts();
    await page.locator('body').click({ position: { x: 1, y: 1 } });

    await page.keyboard.press('Tab'); // the link to the dashboard
    await page.keyboard.press('Tab'); // the first radio of the group
    await page.keyboard.press('ArrowDown'); // moves to "No" and selects it
    expect(await no().isChecked()).toBe(true);
    await no().focus();
    await page.keyboard.press('Space');
    await screenshot(page, 'widget-declined');
    await page.keyboard.press('Tab'); // Place order
    await page.keyboard.press('Space');

    await expect.poll(() => result().textContent()).toContain('Opt-out logged (204)');
    expect(await page.locator('#claim-next').isVisible()).toBe(false); // nothing to claim
    expect(await page.evaluate(() => (window as unknown as { OrderProtection: { get(k: string): unknown } }).OrderProtection.get('isProtected'))).toBe(false);
    await expect.poll(todaysOptOuts).toBe(before + 1); // the day counts follow from the metrics stream within a second
  });

  it('accepts on a new cart (Space on the radio) and shows the order with Issued policies', async () => {
    await page.getByRole('button', { name: 'New cart' }).click();
    await expect.poll(() => yes().count()).toBe(1);

    await yes().focus();
    await page.keyboard.press('Space');
    await screenshot(page, 'widget-protected');
    await page.getByRole('button', { name: 'Place order' }).click();

    await expect.poll(() => result().textContent()).toContain('placed with refund protection (201)');
    expect((await result().textContent())?.match(/Issued/g)).toHaveLength(2);
  });

  it("links a protected order to its claim, with the order number filled in and the cart's demo e-mail said, by keyboard", async () => {
    const orderNumber = /Order (DEMO-[0-9A-Z]+-[0-9a-z]+) placed/.exec((await result().textContent()) ?? '')?.[1] ?? '';
    expect(orderNumber).not.toBe('');
    const shown = (await page.locator('#claim-email').textContent()) ?? '';
    expect(shown).toMatch(/^demo\+[0-9a-z]+@example\.com$/);
    expect(await page.locator('#customer-email').textContent()).toBe(shown);
    const link = page.getByRole('link', { name: 'Claim a refund for this order' });
    expect(await link.getAttribute('href')).toBe(`/claim?order_number=${encodeURIComponent(orderNumber)}`);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'checkout-claim-link', { fullPage: true });

    // From Place order: Tab to New cart, Tab to the link, Enter.
    await page.getByRole('button', { name: 'Place order' }).focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('claim-link');
    await Promise.all([page.waitForURL(/\/claim\?order_number=/), page.keyboard.press('Enter')]);
    expect(await page.getByLabel('Order number').inputValue()).toBe(orderNumber);

    // The customer adds the e-mail the checkout named, and finds the order's two tickets to claim.
    await page.getByLabel('E-mail').focus();
    await page.keyboard.type(shown);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('group', { name: 'Tickets to claim for' }).getByRole('checkbox').count()).toBe(2);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'claim-from-checkout', { fullPage: true });
  });

  it("draws the dashboard with the day counted and the recent orders with their policies' statuses", async () => {
    await page.goto(`${server.baseUrl}/dashboard`);

    // The dashboard reads the day counts, which npm start's stream pump keeps within a second of a checkout.
    await expect
      .poll(async () => {
        await page.reload();
        return page.locator('#totals').textContent();
      })
      .toMatch(/1 opted in, 1 opted out, conversion 50\.0%/);
    expect(await page.locator('#chart rect.in').count()).toBe(14);
    await expect.poll(() => page.locator('#orders-status').textContent()).toBe('1 recent order');
    const recent = page.getByRole('table', { name: 'Recent orders and their policies' });
    expect(await recent.locator('tbody tr').count()).toBe(1); // the protected order; opt-outs create none
    expect(await recent.locator('tbody tr td').nth(2).textContent()).toMatch(/^OP-[0-9A-Z-]{14} Issued(, OP-[0-9A-Z-]{14} Issued)*$/);

    // The opt-out's order.opted_out and the protected order's order.created went to npm start's demo receiver, which verified both.
    await expect
      .poll(async () => {
        await page.reload();
        await page.locator('#received-status:not(:empty)').waitFor();
        return page.locator('#received-status').textContent();
      })
      .toMatch(/got 2 deliveries, 2 with a valid signature/);
    const events = page.getByRole('table', { name: 'Recent webhook events and their delivery attempts' });
    expect(await events.locator('tbody tr').count()).toBe(2);
    const rows = await events.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent)));
    expect(rows.map((cells) => cells.slice(1, 3)).sort()).toEqual([
      ['order.created', 'yes'],
      ['order.opted_out', 'yes'],
    ]);
    for (const cells of rows) expect(cells[3]).toMatch(/^\d{2}:\d{2}:\d{2} 200 \(\d+ ms\)$/);
    // This month's statement, from the ledger: the protected order's two premiums (10.20 + 3.02).
    await expect
      .poll(async () => {
        await page.reload();
        await page.locator('#statement-status:not(:has-text("Loading"))').waitFor();
        return page.locator('#statement tbody tr td').allTextContents();
      })
      .toEqual(['USD', '$13.22', '$0.00', '$0.00', '$13.22', '$0.00', '$0.00', '2', '0']);
    expect(await page.locator('#statement-status').textContent()).toMatch(/^\d{4}-\d{2}, open/);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard', { fullPage: true });
    // The pages' Content-Security-Policy let the widget, its API calls and every page's own script through.
    expect(refusedByCsp).toEqual([]);
  });

  it("gives every page the service's icon, an image of its own origin, and asks for nothing missing", async () => {
    for (const path of ['/', '/claim', '/dashboard']) {
      // the console's own: console.browser.test.ts
      await page.goto(`${server.baseUrl}${path}`);
      expect(await page.locator('link[rel=icon]').getAttribute('href'), path).toBe('/favicon.svg');
    }
    for (const path of ['/favicon.svg', '/favicon.ico']) {
      const res = await page.evaluate(async (p) => {
        const answer = await fetch(p);
        return { status: answer.status, type: answer.headers.get('content-type'), body: await answer.text() };
      }, path);
      expect(res, path).toMatchObject({ status: 200, type: 'image/svg+xml' });
      expect(res.body).toMatch(/^<svg /);
    }
    // Chromium shows it: the icon a page names, loaded under its Content-Security-Policy (img-src 'self').
    const shown = await page.evaluate(async () => {
      const img = new Image();
      img.src = (document.querySelector('link[rel=icon]') as HTMLLinkElement).href;
      await img.decode();
      return img.naturalWidth > 0;
    });
    expect(shown).toBe(true);
    expect(refusedByCsp).toEqual([]);
    expect(missing).toEqual([]);
  });

  it('sells a JPY cart in whole yen and a KWD cart to the fils, formatted as people read them', async () => {
    await page.goto(`${server.baseUrl}/?currency=JPY`);
    // ¥15,000 × 0.085 = ¥1,275; ¥4,500 × 0.085 = ¥382.5 → ¥383: ¥1,658, never "1657.50".
    const yen = page.getByRole('radio', { name: 'Yes, protect my order for ¥1,658' });
    await expect.poll(() => yen.count()).toBe(1);
    expect(await page.locator('#cart').textContent()).toContain('¥15,000');
    expect(await page.getByText(/Get back up to ¥19,500 /).count()).toBe(1);
    expect(await accessibilityViolations(page)).toEqual([]);
    await yen.focus();
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect.poll(() => result().textContent()).toContain('placed with refund protection (201)');
    expect(await result().textContent()).toMatch(/premium ¥1,275 {2}Issued[\s\S]*premium ¥383 {2}Issued/);

    await page.goto(`${server.baseUrl}/?currency=KWD`);
    // KWD 36.500 × 0.085 = 3.1025 → 3.103; 10.750 × 0.085 = 0.91375 → 0.914: KWD 4.017.
    await expect.poll(() => page.getByRole('radio', { name: 'Yes, protect my order for KWD\u00a04.017' }).count()).toBe(1);
    expect(await page.locator('#cart').textContent()).toContain('KWD\u00a036.500');
  });

  it("quotes each item with its event, keeps the offer's focus through a new quote, and keeps the shopper's language in the page's links", async () => {
    const quoted = page.waitForRequest((r) => r.url().endsWith('/api/v2/quotes') && r.method() === 'POST');
    await page.goto(`${server.baseUrl}/?locale=de`);
    // A merchant's terms may price by days to the event: the quote is asked with each item's event, as the order is sent.
    const asked = JSON.parse((await quoted).postData() ?? '{}') as { items: { event?: { start_date: string } }[] };
    expect(asked.items).toHaveLength(2);
    for (const item of asked.items) expect(item.event?.start_date ?? '').toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const link of await page.locator('#currencies a').all()) expect(await link.getAttribute('href')).toMatch(/^\/\?currency=[A-Z]{3}&locale=de$/);

    // A new quote redraws the offer: the radio the keyboard was on keeps the focus (not <body>).
    const yes = page.locator('#protection input[value=opt_in]');
    await yes.waitFor();
    await yes.focus();
    await page.keyboard.press('Space');
    await page.evaluate(async () => {
      const widget = (window as unknown as { OrderProtection: { update(u: unknown): Promise<void>; get(k: string): unknown } }).OrderProtection;
      const { items } = widget.get('quote') as { items: { reference_number: string; cost: string }[] };
      await widget.update({ items: items.map((item) => ({ reference_number: item.reference_number, cost: item.cost })) });
    });
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).toBe('opt_in');
    expect(await yes.isChecked()).toBe(true);

    // The protected order's claim link opens the claim page in German.
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect.poll(() => result().textContent()).toContain('placed with refund protection (201)');
    expect(await page.locator('#claim-link').getAttribute('href')).toMatch(/^\/claim\?order_number=DEMO-[^&]+&lang=de$/);

    // An item whose event is over gets no offer: the API refuses to quote it, the widget says so for this
    // order (not "right now"), keeps the keyboard on its notice, and tells the merchant which item and why.
    const reported = await page.evaluate(async () => {
      type Widget = { update(u: unknown): Promise<void>; configure(c: unknown): Promise<void> };
      const widget = (window as unknown as { OrderProtection: Widget }).OrderProtection;
      const errors: { code?: string; param?: string; status?: number }[] = [];
      const publicKey = (JSON.parse(document.getElementById('page-data')!.textContent ?? '{}') as { public_key: string }).public_key;
      const item = (start_date: string) => ({ reference_number: start_date, cost: '10.00', event: { name: 'Gig', start_date, start_time: '19:30' } });
      await widget.configure({
        apiKey: publicKey,
        baseUrl: location.origin,
        currency: 'USD',
        container: '#protection',
        items: [item('2099-01-01')],
        locale: 'de',
        onErrorCb: (error: { code?: string; param?: string; status?: number }) => errors.push({ code: error.code, param: error.param, status: error.status }),
      });
      (document.querySelector('#protection input[type=radio]') as HTMLInputElement).focus();
      await widget.update({ items: [item('2099-01-01'), item('2020-01-01')] });
      return errors;
    });
    expect(reported).toEqual([{ code: 'event_in_past', param: 'items[1].event.start_date', status: 422 }]);
    expect(await page.locator('#protection .op-unavailable').textContent()).toBe(readCatalogue('de')['widget.refused']);
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('op-unavailable');
    expect(await page.evaluate(() => (window as unknown as { OrderProtection: { get(k: string): unknown } }).OrderProtection.get('token'))).toBeUndefined();
  });

  it('still completes the checkout, as an opt-out, when the API cannot be reached', async () => {
    await page.goto(`${server.baseUrl}/?api=http://127.0.0.1:9`);

    await expect.poll(() => page.getByText('Refund protection is not available right now').count()).toBe(1);
    await page.getByRole('button', { name: 'Place order' }).click();

    await expect.poll(() => result().textContent()).toContain('placed. Refund protection was not available');
    expect(await page.evaluate(() => (window as unknown as { demoEvents: string[] }).demoEvents)).toEqual(['error', 'opt_out']);
  });
});
