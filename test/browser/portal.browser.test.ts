import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffUser } from '../../scripts/local/local-oidc.js';
import { demoSiteRoutes } from '../../scripts/local/demo-site.js';
import { createClient } from '#shared/clients/manage-clients.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { createDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { accessibilityViolations, cspViolations, launchChromium, notFound, screenshot } from '../support/browser.js';
import { testEndpoint } from '../support/dynamo.js';
import { accessToken, http } from '../support/http.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The merchant portal at /portal/ in a real browser (Debian's Chromium): the demo merchant user
 * signs in THROUGH npm start's login form, by keyboard, and uses the portal by keyboard (switches
 * sections, pages the ledger, sends a test event, adds an endpoint and rotates, enables and deletes
 * it, sends an event again, copies the claim link); it sees its own client's
 * data only (another shop's order never shows); a staff user without the merchant group is
 * refused before any API call; sign-out ends at the login form. axe finds nothing on each section
 * at 1280×800 and 390×844, and the pages' CSP refuses nothing.
 */
let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let refused: string[];
let missing: string[];
/** Every API path the page asked for. */
const apiCalls: string[] = [];
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const stamp = Date.now().toString(36).toUpperCase();
const ownOrder = `PRT-${stamp}`;
const otherOrder = `OTH-${stamp}`;
/** Tickets of the demo shop's order: one premium_written entry each, more than a ledger page (10). */
const TICKETS = 12;
let otherPolicies: string[] = [];
/** The shop's second webhook receiver, added through the portal. */
let receiver: Receiver;

const user = (group: string): StaffUser => server.staff.users.find((candidate) => candidate.groups.includes(group as StaffUser['groups'][number]))!;
const focusedId = () => page.evaluate(() => document.activeElement?.id ?? '');
const shown = (section: string) => page.locator(`#${section}`).isVisible();

beforeAll(async () => {
  server = await startTestServer({ staticRoutes: demoSiteRoutes });
  browser = await launchChromium();
  context = await browser.newContext({ viewport: DESKTOP });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
  receiver = await startReceiver();
  page = await context.newPage();
  refused = cspViolations(page);
  missing = notFound(page);
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) apiCalls.push(url.pathname);
  });

  const item = (i: number) => ({ name: `Seat ${i}`, reference_number: `seat-${i}`, cost: '40.00' });
  const place = async (keys: { public_key: string; secret_key: string }, order_number: string, count: number) => {
    const res = await http('POST', `${server.baseUrl}/api/v2/orders`, {
      headers: { authorization: `JWT ${await accessToken(server.baseUrl, keys)}` },
      body: { order_number, currency: 'USD', items: Array.from({ length: count }, (_, i) => item(i + 1)), customer: { email: 'claire.mant@example.org' } },
    });
    expect(res.status, res.text).toBe(201);
    return (res.json.policies as { policy_number: string }[]).map((p) => p.policy_number);
  };
  // The demo shop (the merchant user's client) sells 12 protected tickets; another shop sells 2.
  await place(server.demo, ownOrder, TICKETS);
  const doc = createDocumentClient(testEndpoint(), 'us-east-1');
  const other = await createClient(new DynamoClientStore(doc, process.env.TABLE_NAME!), { name: 'Other Venue' });
  doc.destroy();
  otherPolicies = await place(other, otherOrder, 2);
  // The ledger is written from the stream: wait (bounded) until the demo shop's entries are there.
  const auth = { authorization: `JWT ${await accessToken(server.baseUrl, server.demo)}` };
  for (let read = 0; read < 60; read++) {
    const ledger = await http('GET', `${server.baseUrl}/api/v2/ledger?limit=100`, { headers: auth });
    if ((ledger.json.data as unknown[]).length >= TICKETS) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await receiver?.stop();
});

/** Opens /portal/, is sent to the provider's login form, fills it by keyboard; back on the portal once it shows who signed in. */
async function signIn(person: StaffUser): Promise<void> {
  await page.goto(`${server.baseUrl}/portal/`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  expect(new URL(page.url()).origin).toBe(new URL(server.staff.issuer).origin);
  expect(await focusedId()).toBe('email');
  await page.keyboard.type(person.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(person.password);
  await page.keyboard.press('Enter');
  await expect.poll(() => page.locator('#who-email').textContent()).toBe(person.email);
  expect(new URL(page.url()).origin).toBe(server.baseUrl);
  expect(new URL(page.url()).search).toBe(''); // the code and state left the address bar
  expect(await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie])).toEqual([0, 0, '']);
}

/** Goes to a section by keyboard: focus its link in the navigation, Enter; the focus lands on the section's heading. */
async function openSection(name: string, section: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Portal sections' }).getByRole('link', { name }).focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => focusedId()).toBe(`${section}-title`);
  expect(await shown(section)).toBe(true);
  expect(await page.getByRole('link', { name, exact: true }).getAttribute('aria-current')).toBe('page');
}

/** axe at the desktop and the phone width (no sideways scroll on the phone), with a screenshot of each. */
async function accessible(name: string): Promise<void> {
  expect(await accessibilityViolations(page)).toEqual([]);
  await screenshot(page, `portal-${name}-1280`, { fullPage: true });
  await page.setViewportSize(PHONE);
  expect(await accessibilityViolations(page)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await screenshot(page, `portal-${name}-390`, { fullPage: true });
  await page.setViewportSize(DESKTOP);
}

describe('the merchant portal', () => {
  it('signs the merchant user in through the login form and opens on conversion: totals and only the days with checkouts', async () => {
    await signIn(user('merchant'));
    expect(await shown('conversion')).toBe(true);
    await expect.poll(() => page.locator('#conversion-status').textContent()).toBe('1 of the last 30 days had checkouts, newest first.');
    expect(await page.locator('#total-in').textContent()).toBe('1');
    expect(await page.locator('#days tr').count()).toBe(1); // not a row per empty day
    expect(await page.getByRole('navigation', { name: 'Portal sections' }).getByRole('link').allTextContents()).toEqual([
      'Conversion',
      'Statements',
      'Ledger',
      'Webhooks',
      'Claim link',
    ]);
    await accessible('conversion');
  });

  it('pages the ledger by keyboard, its own client’s entries only', async () => {
    await openSection('Ledger', 'ledger');
    await expect.poll(() => page.locator('#ledger-status').textContent()).toMatch(/: entries 1–10, more older ones\.$/);
    expect(await page.locator('#ledger-rows tr').count()).toBe(10);
    expect(await page.getByRole('button', { name: 'Newer entries' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Older entries' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#ledger-status').textContent()).toMatch(/: entries 11–12\.$/);
    expect(await page.locator('#ledger-rows tr').count()).toBe(TICKETS - 10);
    expect(await focusedId()).toBe('ledger-newer'); // no older page: the focus moved to the other pager button
    const text = await page.locator('#ledger').textContent();
    for (const policy of otherPolicies) expect(text).not.toContain(policy);
    await accessible('ledger');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#ledger-status').textContent()).toMatch(/: entries 1–10, more older ones\.$/);

    // A month with nothing in it: its line, no header over no rows, no pager leading nowhere.
    await page.locator('#ledger-period').selectOption({ index: 1 });
    await expect.poll(() => page.locator('#ledger-status').textContent()).toMatch(/: no entries\.$/);
    expect(await page.locator('#ledger-table').isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Older entries' }).isVisible()).toBe(false);
    await page.locator('#ledger-period').selectOption({ index: 0 });
    await expect.poll(() => page.locator('#ledger-status').textContent()).toMatch(/: entries 1–10, more older ones\.$/);
    expect(await page.locator('#ledger-table').isVisible()).toBe(true);
  });

  it('shows the month’s statement per currency, and the months before', async () => {
    await openSection('Statements', 'statements');
    await expect.poll(() => page.locator('#statement-status').textContent()).toMatch(/: open \(it may still change\), due on \d{4}-\d{2}-15\.$/);
    const usd = page.getByRole('region', { name: / in USD$/ });
    await usd.waitFor();
    expect(await usd.textContent()).toContain('Policies issued' + String(TICKETS));
    expect(await usd.textContent()).toMatch(/Your commission\$?0\.00Amount due/); // the demo shop's terms give it none
    expect(await page.locator('#statement-period option').count()).toBe(12);
    await accessible('statements');
    // The month before: nothing was sold then.
    await page.locator('#statement-period').focus();
    await page.keyboard.press('ArrowDown');
    // (Closed, unless today is between the 1st and the 5th, when the month before is still open.)
    await expect
      .poll(() => page.locator('#statement-status').textContent())
      .toMatch(/^\w+ \d{4}: (closed, with no premium or claim: nothing was due|open \(it may still change\), due on [\d-]+, with no premium or claim)\.$/);
  });

  it('sends a test event to its endpoint by keyboard and shows it delivered in its row and the log', async () => {
    await openSection('Webhooks', 'webhooks');
    const demo = page.locator('#endpoint-rows > tr').first();
    const send = demo.getByRole('button', { name: 'Send test event' });
    await send.waitFor();
    await send.focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => demo.locator('.row-status').textContent(), { timeout: 20_000 })
      .toBe('Test event delivered (HTTP 200). It is at the top of the delivery log.');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Send test event'); // back on the button
    expect(await page.locator('#event-rows tr').first().textContent()).toContain('webhook_endpoint.test');
    // Its attempts, by keyboard: a row under it with the endpoint's answer, the endpoint named as the list names it.
    const attempts = page.locator('#event-rows tr').first().getByRole('button', { name: 'Attempts' });
    await attempts.press('Enter');
    await expect.poll(() => attempts.getAttribute('aria-expanded')).toBe('true');
    expect(await page.locator('#event-rows tr.attempts li').first().textContent()).toMatch(
      / · HTTP 200 · \d+ ms · npm start demo receiver \(http:\/\/127\.0\.0\.1:\d+\/demo\/webhooks\)$/,
    );
    await attempts.press('Enter');
    expect(await page.locator('#event-rows tr.attempts').count()).toBe(0);
    await attempts.dblclick(); // one read at a time: opened once
    await page.locator('#event-rows tr.attempts').waitFor();
    await page.waitForTimeout(300);
    expect(await page.locator('#event-rows tr.attempts').count()).toBe(1);
    await accessible('webhooks');
  });

  it('adds endpoints by keyboard, keeps each new secret until stored, rotates one, enables it after a 410, and deletes after asking', async () => {
    const rows = page.locator('#endpoint-rows > tr');
    expect(await rows.count()).toBe(1);
    const secrets = page.locator('#secret-list input');

    // A URL the API refuses: its message in the alert and beside the field, the focus on the field.
    await page.getByLabel('URL').fill('ftp://example.com/hooks');
    await page.getByLabel('URL').press('Enter');
    await expect.poll(() => page.locator('#error').textContent()).toBe('The webhook URL must be https:// (or http://localhost locally).');
    expect(await page.locator('#endpoint-url-error').textContent()).toBe('The webhook URL must be https:// (or http://localhost locally).');
    expect(await focusedId()).toBe('endpoint-url');
    expect(await page.locator('#endpoint-url').getAttribute('aria-invalid')).toBe('true');
    // A description the API refuses is named by its label, without "(optional)".
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByLabel(/^Description/).fill('Box\u202Eoffice');
    await page.getByRole('button', { name: 'Add endpoint' }).press('Enter');
    await expect.poll(() => page.locator('#error').textContent()).toMatch(/^Description: /);
    expect(await page.locator('#endpoint-url-error').isHidden()).toBe(true); // the last error's line went
    expect(await page.locator('#endpoint-description-error').isVisible()).toBe(true);
    await page.getByLabel(/^Description/).fill('');

    // No event type ticked is refused by the page (the API would read an empty list as every type).
    for (const box of await page.locator('#event-choices input').all()) await box.uncheck();
    await page.getByRole('button', { name: 'Add endpoint' }).press('Enter');
    await expect.poll(() => page.locator('#error').textContent()).toBe('Events to send: tick at least one event type.');
    expect(await page.locator('#endpoint-events-error').textContent()).toBe('Tick at least one event type.');
    expect(await rows.count()).toBe(1);

    // An old endpoint, then its replacement at the same URL (two event types, by keyboard): both secrets stay until stored.
    for (const box of await page.locator('#event-choices input').all()) await box.check();
    await page.getByLabel(/^Description/).fill('Old box office');
    await page.getByRole('button', { name: 'Add endpoint' }).press('Enter');
    await expect.poll(() => focusedId()).toBe('secret-title');
    expect(await secrets.count()).toBe(1);
    await page.getByLabel('URL').fill(receiver.url);
    for (const box of await page.locator('#event-choices input').all()) await box.uncheck();
    await page.getByLabel('order.created').check();
    await page.getByLabel('claim.paid').check();
    await page.getByLabel(/^Description/).focus();
    await page.keyboard.type('Box office');
    await page.keyboard.press('Enter');
    await expect.poll(() => secrets.count()).toBe(2);
    expect(await page.locator('#secret-title').textContent()).toBe('2 signing secrets to store');
    expect(await rows.count()).toBe(3);
    const added = rows.filter({ hasText: /^http\S+Box officeOnly/ });
    const old = rows.filter({ hasText: 'Old box office' });
    expect(await added.textContent()).toContain('Only order.created, claim.paid');
    expect(await old.textContent()).toContain('Every event type');
    expect(await page.getByLabel('URL').inputValue()).toBe(''); // the form starts again, every type ticked
    expect(await page.locator('#event-choices input:checked').count()).toBe(15);

    // Deleting the old one (asked, naming it by its description) takes its secret away, and only its.
    await old.getByRole('button', { name: 'Delete' }).press('Enter');
    const asked = page.getByRole('dialog', { name: 'Delete this endpoint?' });
    expect(await asked.textContent()).toContain(`Nothing more is sent to Old box office (${receiver.url})`);
    await asked.getByRole('button', { name: 'Delete endpoint' }).press('Enter');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await focusedId()).toBe('endpoints-title');
    expect(await page.locator('#announce').textContent()).toBe(`Endpoint deleted: Old box office (${receiver.url}).`);
    expect(await secrets.count()).toBe(1);
    const secret = page.getByLabel(`Signing secret for Box office (${receiver.url})`);
    const first = await secret.inputValue();
    expect(first).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Copy secret' }).press('Enter');
    await expect.poll(() => page.locator('#announce').textContent()).toBe('Signing secret copied.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first);
    await accessible('webhooks-secret');
    await page.getByRole('button', { name: 'I have stored it' }).press('Enter');
    expect(await page.locator('#secret-panel').isHidden()).toBe(true);
    expect(await secrets.count()).toBe(0); // not left in the page
    const created = (
      await http('GET', `${server.baseUrl}/api/v2/webhook_endpoints`, { headers: { authorization: `JWT ${await accessToken(server.baseUrl, server.demo)}` } })
    ).json.data as { url: string; events: string[] }[];
    expect(created.filter((e) => e.url === receiver.url).map((e) => e.events)).toEqual([['order.created', 'claim.paid']]);

    // Rotate: asked first (Escape keeps the secret), then a new secret, shown once.
    await added.getByRole('button', { name: 'Rotate secret' }).press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await accessible('webhooks-rotate');
    await page.keyboard.press('Escape');
    expect(await dialog.isHidden()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Rotate secret');
    expect(await page.locator('#secret-panel').isHidden()).toBe(true);
    await added.getByRole('button', { name: 'Rotate secret' }).press('Enter');
    await dialog.getByRole('button', { name: 'Rotate secret' }).press('Enter');
    await expect.poll(() => focusedId()).toBe('secret-title');
    const second = await secret.inputValue();
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(first);
    await page.getByRole('button', { name: 'I have stored it' }).press('Enter');
    // Again within the 24 hours: refused, the time it names said as the portal's other dates.
    await added.getByRole('button', { name: 'Rotate secret' }).press('Enter');
    await dialog.getByRole('button', { name: 'Rotate secret' }).press('Enter');
    await expect
      .poll(() => page.locator('#error').textContent())
      .toMatch(
        /^The previous secret still signs beside the current one until [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2} UTC; the secret can be rotated again from then\.$/,
      );
    expect(await page.locator('#secret-panel').isHidden()).toBe(true);
    // Said in the row too, the focus back on the button pressed (the alert is a screen away on a phone).
    expect(await added.locator('.row-status').textContent()).toMatch(/^The previous secret still signs beside the current one until /);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Rotate secret');

    // The receiver answers 410: the endpoint is disabled, its row says so and offers "Enable" (which has the focus) instead of a test.
    receiver.answers.push(410);
    await added.getByRole('button', { name: 'Send test event' }).press('Enter');
    await expect
      .poll(() => added.locator('.row-status').textContent(), { timeout: 20_000 })
      .toBe('Test event refused (HTTP 410: gone), so the endpoint is disabled. Enable it once your server takes deliveries again.');
    expect(await added.textContent()).toContain('Disabled');
    expect(await added.getByRole('button', { name: 'Send test event' }).count()).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Enable');
    await page.keyboard.press('Enter');
    await expect.poll(() => added.locator('.row-status').textContent()).toMatch(/^Enabled: events from now on go to it\./);
    expect(await page.locator('#announce').textContent()).toBe(`Endpoint enabled: Box office (${receiver.url}).`);
    expect(await added.textContent()).toContain('Enabled');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Send test event');

    // Delete: asked, Cancel keeps it; then deleted, the focus on the list's heading.
    await added.getByRole('button', { name: 'Delete' }).press('Enter');
    await asked.getByRole('button', { name: 'Cancel' }).press('Enter');
    expect(await rows.count()).toBe(2);
    await added.getByRole('button', { name: 'Delete' }).press('Enter');
    await asked.getByRole('button', { name: 'Delete endpoint' }).press('Enter');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await focusedId()).toBe('endpoints-title');
    expect(await page.locator('#endpoints-status').textContent()).toBe('1 endpoint, oldest first.');

    // At 16 endpoints the 17th is refused at the form's foot, which takes the focus (not the alert a screen up).
    const auth = { authorization: `JWT ${await accessToken(server.baseUrl, server.demo)}` };
    const made: string[] = [];
    for (let i = 0; i < 15; i++) {
      const res = await http('POST', `${server.baseUrl}/api/v2/webhook_endpoints`, { headers: auth, body: { url: `${receiver.url}/${i}` } });
      expect(res.status, res.text).toBe(201);
      made.push(res.json.id as string);
    }
    try {
      await page.getByLabel('URL').fill(receiver.url);
      await page.getByRole('button', { name: 'Add endpoint' }).press('Enter');
      await expect.poll(() => focusedId()).toBe('endpoint-form-error');
      expect(await page.locator('#endpoint-form-error').textContent()).toBe(await page.locator('#error').textContent());
      expect(await page.locator('#endpoint-form-error').textContent()).toMatch(/16/);
    } finally {
      for (const id of made) await http('DELETE', `${server.baseUrl}/api/v2/webhook_endpoints/${id}`, { headers: auth });
    }
  });

  it('sends an event again from its attempts, and says so there', async () => {
    const order = page.locator('#event-rows > tr').filter({ hasText: 'order.created' }).first();
    await order.getByRole('button', { name: 'Attempts' }).press('Enter');
    const again = page.locator('#event-rows tr.attempts').getByRole('button', { name: 'Send again' });
    await again.press('Enter');
    await expect
      .poll(() => page.locator('#event-rows tr.attempts .row-status').textContent())
      .toBe('Queued again for 1 endpoint: sent within a minute, one more attempt each in the log.');
    // A test event is sent again only by its own button: its attempts offer no "Send again".
    const test = page.locator('#event-rows > tr').filter({ hasText: 'webhook_endpoint.test' }).first();
    const testId = (await test.locator('.mono').textContent())!;
    await test.getByRole('button', { name: 'Attempts' }).press('Enter');
    await page.locator(`#attempts-${testId}`).waitFor();
    expect(await page.locator(`#attempts-${testId}`).getByRole('button').count()).toBe(0);
  });

  it('shows the shop’s claim link and copies it', async () => {
    await openSection('Claim link', 'claim-link');
    const link = `${server.baseUrl}/claim?shop=${server.demo.client_id}`;
    expect(await page.getByLabel('Your claim link').inputValue()).toBe(link);
    await page.getByRole('button', { name: 'Copy link' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#announce').textContent()).toBe('Claim link copied.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await accessible('claim-link');
  });

  it('offers to sign in again when the API refuses its token, and comes back to the same section', async () => {
    // The API's own 401: the page's requests reach it without their token, as an expired one would be refused.
    await page.route('**/api/v2/**', (route) => {
      const { authorization: _dropped, ...headers } = route.request().headers();
      return route.continue({ headers });
    });
    await page.getByRole('navigation', { name: 'Portal sections' }).getByRole('link', { name: 'Statements' }).press('Enter');
    await expect.poll(() => page.locator('#error').textContent()).toBe('Your sign-in has ended. Sign in again to go on.');
    expect(await focusedId()).toBe('error'); // the alert has the focus, the button right after it
    await page.unroute('**/api/v2/**');
    await page.getByRole('button', { name: 'Sign in again' }).press('Enter'); // the provider still knows the person: a redirect, no form
    await expect.poll(() => page.locator('#statement-status').textContent()).toMatch(/: open \(it may still change\), due on \d{4}-\d{2}-15\.$/);
    expect(new URL(page.url()).hash).toBe('#statements');
    expect(await page.getByRole('button', { name: 'Sign in again' }).isHidden()).toBe(true);
  });

  it('never sent a client id: every API call it made is a portal route', () => {
    expect(apiCalls.length).toBeGreaterThan(0);
    for (const path of apiCalls)
      expect(path).toMatch(
        /^\/api\/v2\/(metrics\/conversion|ledger|statements\/\d{4}-\d{2}|webhook_endpoints(\/we_\w+(\/(test|rotate_secret|enable))?)?|events(\/evt_[\w-]+(\/redeliver)?)?)$/,
      );
    expect(apiCalls.join(' ')).not.toContain(server.demo.client_id);
  });

  it('signs out through the provider, back to the login form', async () => {
    await page.getByRole('button', { name: 'Sign out' }).press('Enter');
    await page.getByRole('heading', { name: 'Sign out of Order Protection?' }).waitFor();
    await page.keyboard.press('Enter'); // its "Sign out" has the focus
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.getByLabel('E-mail').inputValue()).toBe('');
  });

  it('refuses a staff user without the merchant group, plainly and before any API call', async () => {
    const before = apiCalls.length;
    await signIn(user('claims'));
    await page.getByRole('heading', { name: 'This portal is for merchant accounts' }).waitFor();
    expect(await focusedId()).toBe('refused-title');
    expect(await page.locator('#refused-text').textContent()).toContain(`signed in as ${user('claims').email}, whose groups (claims)`);
    expect(await page.locator('#nav').isHidden()).toBe(true);
    expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
    expect(apiCalls.length).toBe(before);
    await accessible('refused');
  });

  it('ran under the pages’ Content-Security-Policy, which refused nothing, and asked for nothing missing', () => {
    expect(refused).toEqual([]);
    // The local provider's login page names no icon, so Chromium asks its origin for /favicon.ico: that 404 is not the portal's.
    const provider = new URL(server.staff.issuer).origin;
    expect(missing.filter((miss) => !miss.includes(`${provider}/favicon.ico`))).toEqual([]);
  });
});
