import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import axe from 'axe-core';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { CHROMIUM } from '../../scripts/ensure-test-tools.js';

/**
 * The browser suites' Chromium: Debian's headless shell (the engine without the desktop browser
 * around it; CHROMIUM_PATH may name a full Chromium instead), without the background services that would
 * try the (closed) network; Playwright gives each launch a fresh, empty profile.
 */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });

/** axe-core's findings on the page as it is now (rule ids and what they hit); none is the goal. */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  // Evaluated, not added as a <script>: the pages' Content-Security-Policy (script-src 'self') refuses every inline script.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source); // once per document
  // Every violation with every node it hits; the other kinds of result (passes, incomplete, inapplicable)
  // keep one node each instead of a selector built for each, which is most of axe's time on a large page.
  const results = await page.evaluate(async () => (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] }));
  return results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/**
 * A picture of the page (or of one element) for a person to look at, never compared: written to
 * `$SCREENSHOTS/<name>.png` when SCREENSHOTS names a directory (`SCREENSHOTS=/tmp/shots npm test --
 * test/browser`), and skipped otherwise, since drawing whole pages to PNG is a tenth of a browser
 * file's time in Chromium (docs/performance.md, "Fewer CPU-seconds per file").
 */
export async function screenshot(target: Page | Locator, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  const dir = process.env.SCREENSHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await ('goto' in target ? target.screenshot({ path, fullPage: options.fullPage ?? false }) : target.screenshot({ path }));
}

/** What the page's Content-Security-Policy refused, as Chromium reports it on the console; collected from now on. */
export function cspViolations(page: Page): string[] {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  return refused;
}

/**
 * What the page or the browser asked for that was not there (its favicon, say): every 404 but the
 * API's own answers (a claim page shows the API's 404 `order_not_found` on purpose). Chromium's
 * console error "Failed to load resource … 404" names the URL in its location; collected from now on.
 */
export function notFound(page: Page): string[] {
  const missing: string[] = [];
  const ours = (url: string) => !new URL(url, 'http://x').pathname.startsWith('/api/');
  page.on('response', (response) => {
    if (response.status() === 404 && ours(response.url())) missing.push(response.url());
  });
  page.on('console', (message) => {
    const url = message.location().url;
    if (message.type() === 'error' && /Failed to load resource: .*404/.test(message.text()) && (!url || ours(url))) missing.push(`${message.text()} ${url}`);
  });
  return missing;
}

/**
 * Signs a person in as they would: opens `path` of the pages (the console `/admin/`, the portal
 * `/portal/`), which sends the browser to the sign-in's login form (npm start's OpenID Provider);
 * fills it by keyboard (the e-mail field has the focus; Tab; Enter) and waits until the page is back
 * on `baseUrl` with the person's e-mail on it (`#who-email`).
 */
export async function signInThroughForm(page: Page, baseUrl: string, person: { email: string; password: string }, path = '/admin/'): Promise<void> {
  await page.goto(`${baseUrl}${path}`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  if ((await page.evaluate(() => document.activeElement?.id)) !== 'email') await page.getByLabel('E-mail').focus();
  await page.keyboard.type(person.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(person.password);
  await page.keyboard.press('Enter');
  await page.locator('#who-email').filter({ hasText: person.email }).waitFor();
}

/** The demo user of a group in npm start's staff file (`server.staff`). */
export const staffUser = <U extends { groups: readonly string[] }>(staff: { users: U[] }, group: string): U => {
  const user = staff.users.find((candidate) => candidate.groups.includes(group));
  if (!user) throw new Error(`no demo user in the ${group} group`);
  return user;
};

/**
 * The visible tables of the page that are wider than the box they sit in (their container's
 * scrollWidth over its clientWidth) or than their section: each as "<table's label or id>: <width> > <room>". Empty when every table fits.
 */
export async function overflowingTables(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('table'))
      .filter((table) => table.getClientRects().length > 0)
      .flatMap((table) => {
        const name = table.getAttribute('aria-label') || table.id || table.getAttribute('aria-labelledby') || 'table';
        const box = table.parentElement!;
        const section = table.closest('section') ?? document.body;
        const room = Math.min(box.clientWidth, section.clientWidth);
        const width = Math.max(box.scrollWidth, Math.ceil(table.getBoundingClientRect().width));
        return width > room ? [`${name}: ${width} > ${room}`] : [];
      }),
  );
}
