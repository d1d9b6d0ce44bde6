import axe from 'axe-core';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM } from '../../scripts/ensure-chromium.js';

/**
 * The browser suites' Chromium: Debian's, headless, without the background services that would
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
  const results = await page.evaluate(async () => (window as unknown as { axe: typeof axe }).axe.run(document));
  return results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
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
