import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffUser } from '../../scripts/local/local-oidc.js';
import { demoSiteRoutes } from '../../scripts/local/demo-site.js';
import {
  accessibilityViolations,
  cspViolations,
  launchChromium,
  notFound,
  overflowingTables,
  screenshot,
  signInThroughForm,
  staffUser,
} from '../support/browser.js';
import { accessToken, http } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The operator console at /admin/ in a real browser (Debian's Chromium): each demo user signs in
 * THROUGH npm start's login form (its OpenID Provider), by keyboard; the claims user decides a
 * claim, the finance user starts an export, the admin pages the audit log; each sees only their
 * sections in the navigation and the API's refusal (403 forbidden_role) in a section reached by its
 * address; the merchant user is told the console is not theirs; sign-out forgets the token. axe
 * finds nothing on the login form, the console and each section at a desktop and a phone width.
 */
let server: TestServer;
let browser: Browser;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const orderNumber = `CON-${Date.now().toString(36).toUpperCase()}`;
const email = 'claire.mant@example.org';
/** What each person's page had refused by its CSP or found missing, filled as the pages run. */
const watched: { refused: string[]; missing: string[] }[] = [];
/** Bordereau exports the operator key (the scripts' way in) starts before the admin looks: the audit log then has more than one page. */
const SCRIPT_EXPORTS = 10;

const user = (group: string): StaffUser => staffUser(server.staff, group);
const focused = (page: Page) => page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent?.trim() || '');

/** Tab (at most 40 times) until the focus is on an element matching `selector`. */
async function tabTo(page: Page, selector: string): Promise<void> {
  for (let stops = 0; stops < 40; stops++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

/** A browser of its own for one person (its own cookies: the provider's session), watching for CSP refusals and 404s. */
async function personPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  watched.push({ refused: cspViolations(page), missing: notFound(page) });
  return { context, page };
}

/** Opens /admin/, is sent to the provider's login form, fills it by keyboard; back on the console once it shows who signed in. */
async function signIn(page: Page, person: StaffUser, { checkLoginForm = false } = {}): Promise<void> {
  if (checkLoginForm) {
    await page.goto(`${server.baseUrl}/admin/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).origin).toBe(new URL(server.staff.issuer).origin);
    expect(await focused(page)).toBe('email'); // the form's first field has the focus
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'console-login');
    await page.setViewportSize(PHONE);
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.setViewportSize(DESKTOP);
  }
  await signInThroughForm(page, server.baseUrl, person);
  expect(new URL(page.url()).origin).toBe(server.baseUrl);
  expect(new URL(page.url()).search).toBe(''); // the code and state left the address bar
  // The token is in the page's memory only: nothing in the storages (the sign-in's round trip data is gone too) nor in a cookie of the pages.
  expect(await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie])).toEqual([0, 0, '']);
}

const navLinks = (page: Page) => page.getByRole('navigation', { name: 'Console' }).getByRole('link').allTextContents();
const alertText = (page: Page) => page.getByRole('alert').first().textContent();

/** axe at the desktop and the phone width, every table within its section at both (no Review button cut off); a screenshot of each. */
async function accessible(page: Page, name: string): Promise<void> {
  expect(await accessibilityViolations(page)).toEqual([]);
  expect(await overflowingTables(page)).toEqual([]);
  await screenshot(page, `console-${name}`, { fullPage: true });
  await page.setViewportSize(PHONE);
  expect(await accessibilityViolations(page)).toEqual([]);
  expect(await overflowingTables(page)).toEqual([]); // a table's rows stack into cards on a phone
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(PHONE.width); // nor does the page scroll sideways
  await screenshot(page, `console-${name}-phone`, { fullPage: true });
  await page.setViewportSize(DESKTOP);
}

beforeAll(async () => {
  server = await startTestServer({ staticRoutes: demoSiteRoutes });
  browser = await launchChromium();

  // A claim in the queue: an order of the demo shop, its customer's claim on one ticket.
  const order = await http('POST', `${server.baseUrl}/api/v2/orders`, {
    headers: { authorization: `JWT ${await accessToken(server.baseUrl, server.demo)}` },
    body: {
      order_number: orderNumber,
      currency: 'USD',
      items: [{ name: 'Seat A1', reference_number: `${orderNumber}-a`, cost: '80.00' }],
      customer: { first_name: 'Claire', last_name: 'Mant', email },
    },
  });
  expect(order.status, order.text).toBe(201);
  const session = await http('POST', `${server.baseUrl}/api/v2/claims/sessions`, {
    body: { order_number: orderNumber, email, public_key: server.demo.public_key },
  });
  expect(session.status, session.text).toBe(201);
  const claim = await http('POST', `${server.baseUrl}/api/v2/claims`, {
    headers: { authorization: `Bearer ${session.json.claim_token}` },
    body: { policy_numbers: [order.json.policies[0].policy_number], reason: 'illness', description: 'Fever the night before.' },
  });
  expect(claim.status, claim.text).toBe(201);
  // Staff actions by a script (the operator key): the audit log's older pages.
  for (let i = 0; i < SCRIPT_EXPORTS; i++) {
    const started = await http('POST', `${server.baseUrl}/api/v2/admin/bordereaux`, {
      headers: { authorization: `Operator ${server.operatorKey}` },
      body: { period: new Date().toISOString().slice(0, 7), kind: i % 2 ? 'claims' : 'premium' },
    });
    expect(started.status, started.text).toBe(202);
  }
}, 120_000); // a server, a claim and ten exports: on a busy machine it takes a while
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the operator console', () => {
  it('serves /config.json from the local provider, uncached, and sends the old operator pages to its sections', async () => {
    const config = await http('GET', `${server.baseUrl}/config.json`);
    expect(config.status).toBe(200);
    expect(config.headers.get('cache-control')).toBe('no-store');
    expect(config.json).toEqual({
      issuer: server.staff.issuer,
      client_id: server.staff.client_id,
      authorization_endpoint: expect.stringMatching(`^${server.staff.issuer}/`),
      token_endpoint: expect.stringMatching(`^${server.staff.issuer}/`),
      end_session_endpoint: expect.stringMatching(`^${server.staff.issuer}/`),
      redirect_uris: { console: server.staff.redirect_uri, portal: server.staff.portal_redirect_uri },
      scope: 'openid email',
      api_base: '/api/v2',
    });
    const page = await fetch(`${server.baseUrl}/admin/`);
    // The pages may fetch from their origin and the provider's (the code exchange), nothing else.
    // The sign-in's token endpoint, and the local S3 the claim page posts evidence to.
    expect(page.headers.get('content-security-policy')).toContain(
      `connect-src 'self' ${new URL(server.staff.issuer).origin} ${new URL(process.env.S3_ENDPOINT!).origin};`,
    );
    for (const [from, to] of [
      ['/admin/claims', '/admin/#claims'],
      ['/admin/bordereaux', '/admin/#bordereaux'],
      ['/admin', '/admin/'],
    ]) {
      const res = await fetch(`${server.baseUrl}${from}`, { redirect: 'manual' });
      expect([from, res.status, res.headers.get('location')]).toEqual([from, 302, to]);
    }
  });

  it('the claims user signs in through the login form, sees only the claim queue and the merchants, and decides a claim by keyboard', async () => {
    const { page } = await personPage();
    await signIn(page, user('claims'), { checkLoginForm: true });
    expect(await navLinks(page)).toEqual(['Claim queue', 'Merchants']);
    expect(await page.locator('#who-roles').textContent()).toBe('Claims');
    expect(await page.title()).toBe('Claim queue · Console · Order Protection');
    const review = page.getByRole('button', { name: `Review the claim on order ${orderNumber}` });
    await review.waitFor(); // the queue loads as the section opens
    const row = page.getByRole('row').filter({ has: review });
    expect(await row.locator('.age').textContent()).toMatch(/^(just now|\d+ min)$/);
    await accessible(page, 'claims');

    // By keyboard: Tab to Review, Enter; Tab to the first decision, Space; Tab on past the amount and the note to Submit, Enter.
    await page.locator('#status-filter').focus();
    await tabTo(page, `#rows button`);
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('review-title');
    await tabTo(page, 'input[name=decision][value=approve]');
    await page.keyboard.press('Space');
    await tabTo(page, '#decision-form button[type=submit]');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#review-status').textContent()).toBe('Approved');
    expect(await page.locator('#review-decided-by').textContent()).toMatch(/.+/);
    expect(await page.locator('#announce').textContent()).toMatch(/ approved\. Status: Approved\.$/);
    // The row stays in the Submitted list, with its new status and why it will leave the list.
    expect(await row.locator('.status').textContent()).toBe('Approved');
    expect(await row.locator('.moved').textContent()).toBe('No longer submitted: leaves this list at the next Load.');
    expect(await page.locator('#queue-title').textContent()).toBe('Submitted claims');
    expect(await page.locator('#queue-count').textContent()).toMatch(/^\d+ shown, oldest first(; more to load)?\. 1 decided since\.$/);
    await accessible(page, 'claims-decided');

    // The search by order number, by keyboard: the merchant (the list of clients), the number, Enter;
    // the order's claim in the same table whatever its status (Approved now), then an order without one, then Clear.
    const merchant = page.getByRole('search').getByLabel('Merchant');
    await expect.poll(() => merchant.locator('option').allTextContents()).toContain('Demo Shop (test client)');
    await merchant.selectOption({ label: 'Demo Shop (test client)' });
    await page.getByRole('search').getByLabel('Order number').fill(orderNumber);
    await page.getByRole('search').getByLabel('Order number').press('Enter');
    await expect.poll(() => page.locator('#queue-title').textContent()).toBe(`Claims on order ${orderNumber} at Demo Shop (test client)`);
    expect(await focused(page)).toBe('queue-title');
    const found = page.locator('#rows tr');
    expect(await found.count()).toBe(1);
    expect(await found.locator('.status').textContent()).toBe('Approved');
    expect(await page.locator('#queue-count').textContent()).toBe('1 claim on this order, oldest first, in every status.');
    await accessible(page, 'claims-search');
    await page.getByRole('search').getByLabel('Order number').fill('N-1');
    await page.getByRole('search').getByLabel('Order number').press('Enter');
    await expect.poll(() => page.locator('#queue-count').textContent()).toBe('No claim for order N-1 at Demo Shop (test client).');
    expect(await found.count()).toBe(0);
    await tabTo(page, '#search-clear');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#queue-title').textContent()).toBe('Submitted claims');
    expect(await page.getByRole('search').getByLabel('Order number').inputValue()).toBe('');

    // Another section by its address: shown, with the API's own refusal.
    await page.evaluate(() => (location.hash = '#audit'));
    await expect.poll(() => alertText(page)).toBe('This needs the admin role, which your account does not have.');
    expect(await page.locator('#audit-role-note').isVisible()).toBe(true);
    expect(await navLinks(page)).toEqual(['Claim queue', 'Merchants']);
    await accessible(page, 'claims-refused');
    await page.evaluate(() => (location.hash = '#bordereaux'));
    await page.getByRole('heading', { name: 'Bordereaux', level: 1 }).waitFor();
    // Its past exports, which it reads on opening, the API refuses; its form is not offered.
    await expect.poll(() => alertText(page)).toBe('This needs the finance role, which your account does not have.');
    expect(await page.getByRole('button', { name: 'Start export' }).isVisible()).toBe(false);
  });

  it('the finance user sees bordereaux, accounts and the merchants, starts an export by keyboard, finds it listed, and reads the merchants', async () => {
    const { page } = await personPage();
    await signIn(page, user('finance'));
    expect(await navLinks(page)).toEqual(['Bordereaux', 'Accounts', 'Merchants']);
    expect(await page.locator('#bordereaux').isVisible()).toBe(true);
    await page.locator('#bordereaux').getByLabel('Month').focus();
    for (let stops = 0; stops < 4 && (await focused(page)) === 'period'; stops++) await page.keyboard.press('Tab'); // the month field's own stops
    expect(await focused(page)).toBe('kind');
    await page.keyboard.press('Tab'); // Start export
    await page.keyboard.press('Enter');
    const month = new Date().toISOString().slice(0, 7);
    await page.getByRole('link', { name: `Download the premium bordereau ${month} (CSV)` }).waitFor();
    // The past exports, newest first: this one on top, by the finance user, then the script's ten started before.
    const listed = page.getByRole('table', { name: 'Past exports' }).locator('tbody tr');
    expect(await listed.count()).toBe(SCRIPT_EXPORTS + 1);
    await expect
      .poll(() => listed.first().locator('td').allTextContents())
      .toEqual([
        month,
        'Premium',
        'Done',
        '0',
        expect.stringMatching(new RegExp(` UTC${user('finance').email.replace(/[.+]/g, '\\$&')}$`)),
        expect.stringMatching(/^Get link/),
      ]);
    expect(await listed.nth(1).locator('td').nth(4).textContent()).toMatch(/ UTC.+/); // who started it (the operator key's name)
    // A link to an earlier export (the script's second, a claims bordereau), by keyboard: its button, Enter.
    const earlier = listed.nth(SCRIPT_EXPORTS - 1);
    expect(await earlier.locator('td').nth(1).textContent()).toBe('Claims');
    await earlier.getByRole('button').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: `Download the claims bordereau ${month} (CSV)` }).waitFor();
    expect(await focused(page)).toBe('result-title');
    await accessible(page, 'bordereaux');

    await page.evaluate(() => (location.hash = '#claims'));
    await expect.poll(() => alertText(page)).toBe('This needs the claims role, which your account does not have.');
    expect(await page.locator('#claims-role-note').isVisible()).toBe(true);

    // The merchants, read-only, by the navigation's link (Enter): the demo shop with its terms, no key.
    await page.getByRole('link', { name: 'Merchants' }).focus();
    await page.keyboard.press('Enter');
    const demo = page.getByRole('row').filter({ hasText: server.demo.client_id });
    await demo.waitFor();
    expect(await demo.getByRole('cell').allTextContents()).toEqual([
      `Demo Shop${server.demo.client_id}`,
      'Test',
      expect.stringMatching(/^\d+(\.\d+)?%(no commission|commission \d+(\.\d+)?%)$/), // its bands (one here) and its commission
      expect.stringMatching(/^\d+ days?$/),
      expect.stringMatching(/^\$[\d,]+\.\d{2}$/), // what it owes now
      'Active',
      expect.stringMatching(/ UTC$/),
    ]);
    expect(await page.locator('#merchants').textContent()).not.toContain(server.demo.public_key);
    expect(await focused(page)).toBe('merchants-title');
    await accessible(page, 'merchants');
  });

  it('the admin user pages the audit log by keyboard, sees who did what, signs in again when the token is refused, then signs out: the page, and the console in another tab, can no longer call the API', async () => {
    const { context, page } = await personPage();
    await signIn(page, user('admin'));
    expect(await navLinks(page)).toEqual(['Audit log', 'Staff', 'Merchants']);
    const rows = page.locator('#audit-rows tr');
    await expect.poll(() => rows.count()).toBe(10);
    const firstPage = await rows.allTextContents();
    expect(firstPage[0]).toContain(user('finance').email); // newest first: the finance user's export
    expect(firstPage[0]).toContain('Bordereau export started');
    expect(firstPage[1]).toContain(user('claims').email);
    expect(firstPage[1]).toContain('Claim decided');
    expect(await page.locator('#audit-range').textContent()).toBe('Entries 1–10, newest first');
    await accessible(page, 'audit');

    await page.getByRole('button', { name: 'Refresh' }).focus();
    await page.keyboard.press('Shift+Tab'); // Older
    expect(await focused(page)).toBe('audit-older');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#audit-range').textContent()).toBe(`Entries 11–${SCRIPT_EXPORTS + 2}, newest first`);
    expect(await page.getByRole('button', { name: 'Older' }).isDisabled()).toBe(true);
    expect(await focused(page)).toBe('audit-newer'); // the pressed button is disabled now: the focus went to its pair
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#audit-range').textContent()).toBe('Entries 1–10, newest first');
    expect(await rows.allTextContents()).toEqual(firstPage);

    await page.evaluate(() => (location.hash = '#claims'));
    await expect.poll(() => alertText(page)).toBe('This needs the claims role, which your account does not have.');
    await page.evaluate(() => (location.hash = '#audit'));

    // A token the API no longer takes (it expired: an hour) offers to sign in again; the issuer still knows the person, so
    // that is a redirect and no form, back to the same section.
    await page.route('**/api/v2/admin/audit*', (route) =>
      route.fulfill({
        status: 401,
        contentType: 'application/json',
        body: JSON.stringify({ error: { type: 'invalid_request_error', code: 'operator_credentials_required', message: 'The sign-in has expired.' } }),
      }),
    );
    await page.getByRole('button', { name: 'Refresh' }).press('Enter');
    await expect.poll(() => alertText(page)).toBe('The sign-in has expired.');
    await page.unroute('**/api/v2/admin/audit*');
    await page.getByRole('button', { name: 'Sign in again' }).press('Enter');
    await page.waitForURL(`${server.baseUrl}/admin/#audit`);
    await expect.poll(() => page.locator('#audit-range').textContent()).toBe('Entries 1–10, newest first');
    expect(await page.getByRole('button', { name: 'Sign in again' }).isVisible()).toBe(false);

    // The console open in a second tab too (the issuer still knows the person: no login form).
    const other = await context.newPage();
    await other.goto(`${server.baseUrl}/admin/#audit`);
    await expect.poll(() => other.locator('#audit-range').textContent()).toBe('Entries 1–10, newest first');

    // Sign out, with the provider's end-session page held back: the page has forgotten its token, so the API is out of its reach.
    const endSession = (await (await fetch(`${server.baseUrl}/config.json`)).json()) as { end_session_endpoint: string };
    let logout: URL | undefined;
    await page.route(`${endSession.end_session_endpoint}*`, async (route) => {
      logout = new URL(route.request().url());
      await route.fulfill({ status: 204 }); // a navigation answered 204 leaves the page where it is
    });
    await page.getByRole('button', { name: 'Sign out' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => logout?.searchParams.get('client_id')).toBe(server.staff.client_id);
    expect(logout!.searchParams.get('post_logout_redirect_uri')).toBe(server.staff.redirect_uri);
    expect(logout!.searchParams.get('logout_uri')).toBe(server.staff.redirect_uri); // Cognito's name for it
    await page.evaluate(() => document.getElementById('audit-reload')!.focus());
    await page.keyboard.press('Enter');
    await expect.poll(() => alertText(page)).toBe('You are signed out.');
    // So has the other tab: a sign-out is the browser's, not one tab's.
    await other.getByRole('button', { name: 'Refresh' }).press('Enter');
    await expect.poll(() => alertText(other)).toBe('You are signed out.');
    await other.close();
    await page.unroute(`${endSession.end_session_endpoint}*`);

    // Now through the provider: it ends its session, sends the person back, and the console asks for the login form again.
    await page.getByRole('button', { name: 'Sign out' }).press('Enter');
    await page.getByRole('heading', { name: 'Sign out of Order Protection?' }).waitFor();
    await page.keyboard.press('Enter'); // its "Sign out" has the focus
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.getByLabel('E-mail').inputValue()).toBe('');
  });

  it('the merchant user is told the console is not theirs, and where the portal is', async () => {
    const { page } = await personPage();
    await signIn(page, user('merchant'));
    await page.getByRole('heading', { name: 'No access to the console' }).waitFor();
    expect(await page.locator('#no-access').textContent()).toContain(`Your account (${user('merchant').email}) has no access to the console`);
    expect(await page.getByRole('link', { name: 'merchant portal' }).getAttribute('href')).toBe('/portal/');
    expect(await page.locator('#sections').isVisible()).toBe(false);
    await accessible(page, 'no-access');
  });

  it('the claims user loads the queue’s last page by keyboard, and the focus goes to the first claim it loaded', async () => {
    // 21 more submitted claims: a first page of 20, and Load more brings the rest.
    const authorization = `JWT ${await accessToken(server.baseUrl, server.demo)}`;
    await Promise.all(
      Array.from({ length: 21 }, async (_, i) => {
        const number = `${orderNumber}-P${i}`;
        const order = await http('POST', `${server.baseUrl}/api/v2/orders`, {
          headers: { authorization },
          body: { order_number: number, currency: 'USD', items: [{ name: 'Seat B1', reference_number: `${number}-a`, cost: '20.00' }], customer: { email } },
        });
        const session = await http('POST', `${server.baseUrl}/api/v2/claims/sessions`, {
          body: { order_number: number, email, public_key: server.demo.public_key },
        });
        const claim = await http('POST', `${server.baseUrl}/api/v2/claims`, {
          headers: { authorization: `Bearer ${session.json.claim_token}` },
          body: { policy_numbers: [order.json.policies[0].policy_number], reason: 'illness', description: 'Unwell.' },
        });
        expect(claim.status, claim.text).toBe(201);
      }),
    );
    const { page } = await personPage();
    await signIn(page, user('claims'));
    const more = page.getByRole('button', { name: 'Load more' });
    await more.waitFor();
    expect(await page.locator('#rows tr').count()).toBe(20);

    await more.focus();
    await page.keyboard.press('Enter');

    await expect.poll(() => more.isVisible()).toBe(false);
    const focusedRow = () => page.evaluate(() => Array.from(document.querySelectorAll('#rows tr')).indexOf(document.activeElement?.closest('tr') as Element));
    expect(await focusedRow()).toBe(20);
    expect(await focused(page)).toMatch(/^Review the claim on order /);
    expect(await page.locator('#announce').textContent()).toBe('More claims loaded.');

    // A search after it: the status line no longer speaks of the list it replaced.
    const search = page.getByRole('search');
    await expect.poll(() => search.getByLabel('Merchant').locator('option').allTextContents()).toContain('Demo Shop (test client)');
    await search.getByLabel('Merchant').selectOption({ label: 'Demo Shop (test client)' });
    await search.getByLabel('Order number').fill('NOPE-1');
    await search.getByLabel('Order number').press('Enter');
    await expect.poll(() => page.locator('#queue-count').textContent()).toBe('No claim for order NOPE-1 at Demo Shop (test client).');
    expect(await page.locator('#announce').textContent()).toBe('');
  });

  it('ran every page under its Content-Security-Policy, which refused nothing, and asked for nothing missing', () => {
    expect(watched).toHaveLength(5);
    expect(watched.flatMap((page) => page.refused)).toEqual([]);
    expect(watched.flatMap((page) => page.missing)).toEqual([]);
  });
  it('the finance user reads a merchant’s account, publishes terms by keyboard after reading their preview, records a remittance, sees the balance and reverses it', async () => {
    const { page } = await personPage();
    await signIn(page, user('finance'));
    await page.getByRole('link', { name: 'Accounts' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Accounts', level: 1 }).waitFor();
    const section = page.locator('#accounts');
    const merchant = section.getByLabel('Merchant', { exact: true });
    await expect.poll(() => merchant.locator('option').count()).toBeGreaterThan(1);
    await merchant.selectOption(server.demo.client_id);
    await merchant.focus();
    await tabTo(page, '#account-form button[type=submit]');
    await page.keyboard.press('Enter');
    await page.getByRole('table', { name: 'Statement' }).waitFor();
    expect(await focused(page)).toBe('statement-title');
    const shop = `Demo Shop · ${server.demo.client_id}`;
    expect(await page.locator('#account-merchant').textContent()).toBe(shop); // whose account the forms act on
    const usd = page.getByRole('table', { name: 'Statement' }).getByRole('row').filter({ hasText: 'USD' });
    // The demo shop sold this month (the claim's order); its terms give it no commission: all it sold is due.
    const cells = await usd.getByRole('cell').allTextContents();
    expect(cells[0]).toBe('USD');
    expect(cells[2]).toBe('$0.00'); // commission
    expect(cells[3]).toBe(cells[1]); // amount due = net premium
    expect(cells[6]).toBe(cells[3]); // closing balance: nothing paid yet
    expect(await page.locator('#statement-summary').textContent()).toMatch(/: Open · due \d{4}-\d{2}-15$/);

    // Terms: the form starts from the version in force; by keyboard, a band for events within 7 days and a 10% commission.
    const versions = page.getByRole('table', { name: 'Terms' }).locator('tbody tr');
    const before = await versions.count();
    // Bands out of order first: the API's refusal names the band, and the page says its line.
    await section.getByLabel('Rate bands', { exact: true }).focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('30 0.12\n7 0.1\n0.085');
    await page.locator('#terms-preview').click();
    await expect.poll(() => alertText(page)).toBe("Rate bands, line 2: must be above the previous band's (30)");
    expect(await focused(page)).toBe('terms-bands');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('7 0.12\n0.085');
    await section.getByLabel('Commission rate', { exact: true }).focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('0.1');
    expect(await page.getByRole('button', { name: 'Publish version' }).isDisabled()).toBe(true); // not before a preview
    await tabTo(page, '#terms-preview');
    await page.keyboard.press('Enter');
    await page.getByRole('table', { name: /^Preview/ }).waitFor();
    expect(await focused(page)).toBe('preview-title');
    const first = await page
      .getByRole('table', { name: /^Preview/ })
      .locator('tbody tr')
      .first()
      .getByRole('cell')
      .allTextContents();
    expect(first).toEqual(['1 day away', '$8.50 (8.5%)', '$12.00 (12%)', '$0.00', '$1.20']);
    // The first Publish reaches the API, but its answer is lost on the way back: the page says it may
    // have been published, and Publish pressed again (the same Idempotency-Key) publishes it once.
    const keys: string[] = [];
    await page.route('**/api/v2/admin/clients/*/terms', async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      await route.fetch();
      await route.abort('connectionreset');
    });
    await tabTo(page, '#terms-publish');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#error').textContent()).toMatch(/may or may not be published\. Press Publish again: it publishes it at most once\.$/);
    await page.unroute('**/api/v2/admin/clients/*/terms');
    const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/terms'));
    await page.locator('#terms-publish').focus();
    await page.keyboard.press('Enter');
    expect((await sent).headers()['idempotency-key']).toBe(keys[0]);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    await expect.poll(() => page.locator('#announce').textContent()).toMatch(new RegExp(`^${shop}: version \\d+ published, in force from .+ UTC\\.$`));
    expect(await versions.count()).toBe(before + 1);
    expect(await versions.first().getByRole('cell').first().textContent()).toMatch(/^v\d+ In force$/);
    expect(await versions.first().getByRole('cell').nth(4).textContent()).toBe('10%');

    // A remittance by keyboard: booked in this month, the statement shows it (read again until the ledger has it) and the balance left.
    const reference = 'BANK-' + Date.now().toString(36);
    await section.getByLabel('Amount', { exact: true }).focus();
    await page.keyboard.type('1.00');
    await section.getByLabel('Bank reference', { exact: true }).focus();
    await page.keyboard.type(reference);
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.locator('#announce').textContent())
      .toMatch(new RegExp(`^Remittance recorded for ${shop}: \\$1\\.00, booked in .+\\. Closing balance so far: \\$[\\d,.]+\\.$`));
    await page.getByRole('table', { name: 'Remittances' }).getByRole('row').filter({ hasText: reference }).waitFor();
    const after = await usd.getByRole('cell').allTextContents();
    expect(after[4]).toBe('$1.00');
    expect(Number(after[6]!.replace(/[$,]/g, ''))).toBeCloseTo(Number(after[3]!.replace(/[$,]/g, '')) - 1, 2);
    expect(await page.locator('#announce').textContent()).toContain(after[6]!);
    // The same reference again records nothing, and says so.
    await section.getByLabel('Amount', { exact: true }).focus();
    await page.keyboard.type('1.00');
    await section.getByLabel('Bank reference', { exact: true }).focus();
    await page.keyboard.type(reference);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#announce').textContent()).toMatch(/^This reference was already recorded on .+; nothing new was recorded\.$/);

    // The payment bounced: reversed by keyboard, the row says so and this month owes the dollar again.
    await section.getByLabel('Payment', { exact: true }).selectOption(reference);
    await section.getByLabel('Reason', { exact: true }).focus();
    await page.keyboard.type('returned by the bank');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.locator('#announce').textContent())
      .toMatch(new RegExp(`^${shop}: payment ${reference} reversed: \\$1\\.00 is owed again\\. Closing balance so far: \\$[\\d,.]+\\.$`));
    const reversedRow = page.getByRole('table', { name: 'Remittances' }).getByRole('row').filter({ hasText: reference });
    expect(await reversedRow.getByRole('cell').last().textContent()).toMatch(/^Reversed .+: returned by the bank$/);
    const owed = await usd.getByRole('cell').allTextContents();
    expect(owed[4]).toBe('$0.00');
    expect(Number(owed[6]!.replace(/[$,]/g, ''))).toBeCloseTo(Number(after[6]!.replace(/[$,]/g, '')) + 1, 2);
    expect(await section.getByLabel('Payment', { exact: true }).locator('option', { hasText: reference }).count()).toBe(0);
    await accessible(page, 'accounts');

    // Quotes suspended and offered again, by keyboard.
    await section.getByLabel('Reason (optional)', { exact: true }).focus();
    await page.keyboard.type('testing the switch');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#standing-text').textContent()).toMatch(/^Quotes are suspended since .+ \(testing the switch\)/);
    expect(await focused(page)).toBe('resume-button');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#standing-text').textContent()).toBe('Quotes are offered.');

    // Another merchant chosen in the list: the account on screen, and the forms that act on it, go
    // until Show account loads the one chosen (a remittance went to the merchant shown before).
    await merchant.selectOption('');
    expect(await page.locator('#account-detail').isHidden()).toBe(true);
    expect(await page.getByRole('button', { name: 'Record remittance' }).count()).toBe(0);
  });

  it('another role reaching a section by its address is told so and offered none of its forms; what the section reads, the API refuses (403 forbidden_role)', async () => {
    const { page } = await personPage();
    await signIn(page, user('claims'));
    await page.evaluate(() => (location.hash = '#accounts'));
    await page.getByRole('heading', { name: 'Accounts', level: 1 }).waitFor();
    expect(await page.locator('#accounts-role-note').isVisible()).toBe(true);
    expect(await page.locator('#account-form').isVisible()).toBe(false);
    expect(await page.locator('#account-detail').isHidden()).toBe(true);
    await accessible(page, 'accounts-refused');

    const finance = (await personPage()).page;
    // The section first opened (Bordereaux) still reading when the person moves on: the next one is read after it, not dropped.
    await finance.route('**/api/v2/admin/bordereaux?*', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
    });
    await signIn(finance, user('finance'));
    await finance.evaluate(() => (location.hash = '#claims'));
    await finance.getByRole('heading', { name: 'Claim queue', level: 1 }).waitFor();
    expect(await finance.locator('#claims-role-note').isVisible()).toBe(true);
    await expect.poll(() => alertText(finance)).toBe('This needs the claims role, which your account does not have.');
    expect(await finance.getByRole('search').isVisible()).toBe(false);
    expect(await finance.locator('#queue').isHidden()).toBe(true);
  });
});
