import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoSiteRoutes } from '../../scripts/local/demo-site.js';
import { claimLink } from '#shared/claims/claim-link.js';
import { createClient, type NewClientKeys } from '#shared/clients/manage-clients.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { createDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { claimPage } from '../../widget/pages/claim-page.js';
import { accessibilityViolations, cspViolations, launchChromium, screenshot } from '../support/browser.js';
import { testEndpoint } from '../support/dynamo.js';
import { accessToken, http } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The merchant's claim link in a real browser (Debian's Chromium): `/claim?shop=<client_id>#order=…&email=…`
 * opens the claim page for that shop (not npm start's demo shop) with the order number and e-mail
 * filled in, drops them from the address bar, shows no key, and a claim is filed from it; the page
 * without a shop (as deployed, with no demo shop) says to use the claim link. axe at 1280 and 390 px.
 */
let server: TestServer;
let browser: Browser;
let page: Page;
let refused: string[];
let venue: NewClientKeys;
const email = 'Claire.Mant@example.org';
const orderNumber = `LNK-${Date.now().toString(36).toUpperCase()} #7`;
const germanOrderNumber = `LNK-${Date.now().toString(36).toUpperCase()}-DE`;
const german = JSON.parse(readFileSync('widget/locales/de.json', 'utf8')) as Record<string, string>;

beforeAll(async () => {
  server = await startTestServer({ staticRoutes: demoSiteRoutes });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  refused = cspViolations(page);

  // A shop of its own (not the demo shop npm start's page falls back to) sells a protected ticket.
  const doc = createDocumentClient(testEndpoint(), 'us-east-1');
  venue = await createClient(new DynamoClientStore(doc, process.env.TABLE_NAME!), { name: 'Link Venue' });
  doc.destroy();
  // Two orders of one ticket each: the first for the claim filed in English, the second for the German page's errors.
  const token = await accessToken(server.baseUrl, venue);
  const sell = async (number: string, item: { name: string; reference_number: string; cost: string }, eventName: string, customer: object) => {
    const body = {
      order_number: number,
      currency: 'USD',
      items: [{ ...item, event: { name: eventName, start_date: '2027-04-10', start_time: '19:30' } }],
      customer,
    };
    const order = await http('POST', `${server.baseUrl}/api/v2/orders`, { headers: { authorization: `JWT ${token}` }, body });
    expect(order.status, order.text).toBe(201);
  };
  await sell(orderNumber, { name: 'Seat A1', reference_number: 'a1', cost: '80.00' }, 'Spring Concert', { first_name: 'Claire', last_name: 'Mant', email });
  await sell(germanOrderNumber, { name: 'Platz B2', reference_number: 'b2', cost: '60.00' }, 'Frühlingskonzert', { email });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const focusedId = () => page.evaluate(() => document.activeElement?.id);
/** axe at 1280 and 390 px, no sideways scroll on the phone, a screenshot at each; back at 1280. */
async function atBothWidths(name: string): Promise<void> {
  expect(await accessibilityViolations(page)).toEqual([]);
  await screenshot(page, `${name}-1280`, { fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await accessibilityViolations(page)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, `${name}-390`, { fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe('the claim link', () => {
  it('opens the claim page for its shop with the order number and e-mail filled in, then drops them from the address bar', async () => {
    const link = claimLink(server.baseUrl, venue.client_id, { orderNumber, email });
    expect(link).toBe(`${server.baseUrl}/claim?shop=${venue.client_id}#${new URLSearchParams({ order: orderNumber, email }).toString()}`);
    const answer = await page.goto(link);
    // The order number and e-mail ride in the fragment: the request for the page carried neither.
    expect(answer?.request().url()).toBe(`${server.baseUrl}/claim?shop=${venue.client_id}`);
    expect(answer?.headers()['referrer-policy']).toBe('strict-origin-when-cross-origin'); // another site gets no path either
    expect(await page.getByLabel('Order number').inputValue()).toBe(orderNumber);
    expect(await page.getByLabel('E-mail').inputValue()).toBe(email);
    await expect.poll(() => page.url()).toBe(`${server.baseUrl}/claim?shop=${venue.client_id}`);
    // No key and no shop id shown: not as a field, not as text.
    expect(await page.locator('input').evaluateAll((inputs) => inputs.map((input) => input.id))).not.toContain('public-key');
    const text = await page.evaluate(() => document.body.innerText);
    expect(text).not.toContain(venue.client_id);
    expect(text).not.toMatch(/public key|pk_test/i);
    expect(await page.locator('#no-shop').isHidden()).toBe(true);
    await atBothWidths('claim-link');
  });

  it('files a claim from it by keyboard, for that shop’s order', async () => {
    await page.getByLabel('E-mail').focus();
    await page.keyboard.press('Tab'); // Find my order
    expect(await focusedId()).toBe('find-order');
    await page.keyboard.press('Enter');
    const seat = page.getByRole('checkbox', { name: /^Seat A1, Spring Concert on 2027-04-10 at 19:30 \(covered up to \$80\.00\)$/ });
    await seat.waitFor();
    await seat.check();
    await page.getByLabel('Reason').selectOption('illness');
    await page.getByLabel('What happened?').fill('Fever the night before the concert.');
    await page.getByRole('button', { name: 'Submit claim' }).press('Enter');
    await expect.poll(() => page.locator('#claim-status').textContent()).toBe('Submitted');
    expect(await page.locator('#announce').textContent()).toBe('Your claim was submitted. Status: Submitted.');
    expect(await accessibilityViolations(page)).toEqual([]);
    // The claim is that shop's: its own API lists it under the order.
    const orders = await http('GET', `${server.baseUrl}/api/v2/orders?limit=5`, {
      headers: { authorization: `JWT ${await accessToken(server.baseUrl, venue)}` },
    });
    expect(orders.json.data.map((o: { order_number: string }) => o.order_number)).toContain(orderNumber);
  });

  it('speaks German in the browser’s own checks and its errors, and takes an error away once the customer has put it right', async () => {
    await page.goto(claimLink(server.baseUrl, venue.client_id, { orderNumber: germanOrderNumber, email }).replace('#', '&lang=de#'));
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('de');
    const validation = (id: string) => page.locator('#' + id).evaluate((field: HTMLInputElement) => (field.checkValidity(), field.validationMessage));
    // The browser's own check of the e-mail's form, in the page's language (not the browser's English).
    await page.locator('#email').fill('claire.example.org');
    expect(await validation('email')).toBe(german['claim.emailInvalid']);
    await page.locator('#email').fill('');
    expect(await validation('email')).toBe(german['claim.fillIn']);
    // An error of no one field (no order matches) goes once the customer types again.
    await page.locator('#email').fill('nobody@example.org');
    await page.locator('#find-order').click();
    await expect.poll(() => page.locator('#error').textContent()).toBe(german['claim.error.order_not_found']);
    await page.locator('#email').fill(email);
    expect(await page.locator('#error').textContent()).toBe('');
    expect(await validation('email')).toBe('');
    await page.locator('#find-order').click();
    const box = page.locator('#policy-list input[type=checkbox]');
    await box.waitFor();
    expect(await validation('reason')).toBe(german['claim.chooseReason']);

    // No ticket ticked: the error names it; ticking one takes the error away (and its mark), before anything is sent.
    await page.locator('#reason').selectOption('illness');
    await page.locator('#description').fill('   ');
    await page.locator('#submit-claim').click();
    await expect.poll(() => page.locator('#error').textContent()).toContain(german['claim.chooseTicket']);
    expect(await box.getAttribute('aria-invalid')).toBe('true');
    await box.press('Space');
    expect(await page.locator('#error').textContent()).toBe('');
    expect(await box.getAttribute('aria-invalid')).toBeNull();

    // A description of spaces only is no description: said in German, with the focus on it.
    await page.locator('#submit-claim').click();
    await expect.poll(() => page.locator('#error').textContent()).toContain(german['claim.describe']);
    expect(await focusedId()).toBe('description');
    // A hidden direction mark (pasted text can bring one) is refused by the API: said for what it is.
    await page.locator('#description').fill('Fieber \u202Eam Abend vor dem Konzert.');
    expect(await page.locator('#error').textContent()).toBe(''); // typing put the last error right
    await page.locator('#submit-claim').click();
    await expect.poll(() => page.locator('#error').textContent()).toContain(german['claim.hiddenCharacters']);
    expect(await focusedId()).toBe('description');
    expect(await page.locator('#description').getAttribute('dir')).toBe('auto'); // the customer's text in its own direction, whatever the page's
    // Said again in French with the language switch, its field still marked.
    await page.locator('#language').selectOption('fr');
    const french = JSON.parse(readFileSync('widget/locales/fr.json', 'utf8')) as Record<string, string>;
    await expect.poll(() => page.locator('#error').textContent()).toContain(french['claim.hiddenCharacters']);
    expect(await page.locator('#description').getAttribute('aria-invalid')).toBe('true');
    await atBothWidths('claim-error-fr');
  });

  it('says to use the shop’s claim link when the page knows no shop (the deployed page, opened bare)', async () => {
    // The deployed page has no demo shop: served here from claimPage() with none, on the server's origin (its script and CSP are the server's).
    await page.route(`${server.baseUrl}/claim-as-deployed?*`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: claimPage() }),
    );
    await page.goto(`${server.baseUrl}/claim-as-deployed?order=${encodeURIComponent(orderNumber)}`);
    await page.locator('#no-shop').waitFor();
    expect(await page.locator('#no-shop').textContent()).toContain("This page needs your shop's claim link");
    expect(await page.getByRole('button', { name: 'Find my order' }).isDisabled()).toBe(true);
    expect(await page.getByRole('link', { name: 'Demo checkout' }).count()).toBe(0);
    expect(page.url()).toBe(`${server.baseUrl}/claim-as-deployed`);
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('ran the page’s script under its Content-Security-Policy, which refused nothing', () => {
    expect(refused).toEqual([]);
  });
});
