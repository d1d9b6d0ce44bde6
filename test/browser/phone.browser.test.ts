import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoSiteRoutes } from '../../scripts/local/demo-site.js';
import { accessibilityViolations, launchChromium, screenshot } from '../support/browser.js';
import { accessToken, http } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The pages on a phone (390 CSS pixels wide, mobile viewport) and on a desktop, measured in Debian's
 * Chromium: the dashboard chart's labels keep a legible size and do not overlap, dates stay on one
 * line, /docs' menu button covers no text, the cart's Price header sits over its amounts, and axe
 * finds nothing at either width. Screenshots (with SCREENSHOTS set) as phone-*.png and desktop-*.png.
 */
let server: TestServer;
let browser: Browser;
let phone: BrowserContext;
let desktop: BrowserContext;
/** The smallest text size we call legible on a phone, in CSS pixels. */
const LEGIBLE_PX = 11;

beforeAll(async () => {
  server = await startTestServer({ staticRoutes: demoSiteRoutes });
  // An order, so that the dashboard's orders table has a date to show.
  const order = await http('POST', `${server.baseUrl}/api/v2/orders`, {
    headers: { authorization: `JWT ${await accessToken(server.baseUrl, server.demo)}` },
    body: { order_number: `PHONE-${Date.now().toString(36)}`, currency: 'USD', items: [{ name: 'Seat A1', reference_number: 'a1', cost: '80.00' }] },
  });
  expect(order.status, order.text).toBe(201);
  browser = await launchChromium();
  phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  desktop = await browser.newContext({ viewport: { width: 1280, height: 800 } });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

type Box = { x: number; y: number; width: number; height: number };
const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Each element's text as laid out: its line boxes (a Range's client rects), and its computed line height. */
const textLines = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((elements) =>
    elements.map((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      const style = getComputedStyle(element);
      return {
        text: element.textContent ?? '',
        box: range.getBoundingClientRect().toJSON() as Box,
        lineHeight: style.lineHeight === 'normal' ? Number.parseFloat(style.fontSize) * 1.2 : Number.parseFloat(style.lineHeight),
      };
    }),
  );

async function open(context: BrowserContext, path: string): Promise<Page> {
  for (const other of context.pages()) await other.close(); // one page at a time: a background tab draws no frames
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}${path}`);
  return page;
}

describe('the dashboard', () => {
  it('on a phone: chart labels at a legible size, not overlapping; dates on one line; nothing wider than the screen', async () => {
    const page = await open(phone, '/dashboard');
    await expect.poll(() => page.locator('#orders tbody tr').count()).toBeGreaterThan(0);
    await expect.poll(() => page.locator('#chart .x-axis text').count()).toBeGreaterThan(3);
    const labels = await page.locator('#chart text').evaluateAll((texts) => {
      const svg = document.getElementById('chart') as unknown as SVGSVGElement;
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      return texts.map((text) => ({
        text: text.textContent ?? '',
        axis: text.parentElement?.getAttribute('class') ?? '',
        px: Number.parseFloat(getComputedStyle(text).fontSize) * scale,
        box: text.getBoundingClientRect().toJSON() as Box,
      }));
    });
    for (const label of labels) expect(label.px, label.text).toBeGreaterThanOrEqual(LEGIBLE_PX);
    const days = labels.filter((label) => label.axis.includes('x-axis') && /^\d{2}-\d{2}$/.test(label.text));
    expect(days.at(-1)!.text).toBe(new Date().toISOString().slice(5, 10)); // today is labelled
    for (let i = 1; i < days.length; i++) expect(intersects(days[i - 1]!.box, days[i]!.box), `${days[i - 1]!.text} and ${days[i]!.text}`).toBe(false);
    for (const label of labels) expect(label.box.x + label.box.width, label.text).toBeLessThanOrEqual(390);

    const dates = [...(await textLines(page, '#rows td:first-child')), ...(await textLines(page, '#orders tbody td:nth-child(2)'))];
    expect(dates.length).toBeGreaterThan(14);
    for (const date of dates) expect(date.box.height, date.text).toBeLessThanOrEqual(date.lineHeight);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390); // the page itself never scrolls sideways
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'phone-dashboard', { fullPage: true });
  });

  it('on a desktop: every day labelled, and axe finds nothing', async () => {
    const page = await open(desktop, '/dashboard');
    await expect.poll(() => page.locator('#chart .x-axis text').count()).toBe(15);
    await expect.poll(() => page.locator('#orders tbody tr').count()).toBeGreaterThan(0);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'desktop-dashboard', { fullPage: true });
  });
});

describe('the checkout', () => {
  for (const [name, context] of [
    ['phone', () => phone],
    ['desktop', () => desktop],
  ] as const)
    it(`on a ${name}: the Price header is aligned with its amounts, and axe finds nothing`, async () => {
      const page = await open(context(), '/');
      await page.locator('#cart td.cost').first().waitFor();
      const header = (await textLines(page, 'table[aria-label="Cart"] th:nth-child(2)'))[0]!;
      const amounts = await textLines(page, '#cart td.cost');
      for (const amount of amounts) expect(Math.abs(header.box.x + header.box.width - (amount.box.x + amount.box.width)), amount.text).toBeLessThanOrEqual(1);
      await page.locator('#protection input').first().waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `${name}-checkout`, { fullPage: true });
    });
});

// Every line of text the reference draws: its headings, paragraphs, list items and the spans that hold labels and values.
const DOCS_TEXT = 'main h1, main h2, main h3, main p, main li, main span';

describe('npm start’s sign-in (the local OpenID Provider’s form)', () => {
  it('on a phone: the form fits the screen (its card no wider than the page), and axe finds nothing', async () => {
    const page = await open(phone, '/admin/');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'phone-sign-in');
  });
});

describe('the API reference', () => {
  it('on a phone: the menu button covers none of the text', async () => {
    const page = await open(phone, '/docs');
    const button = page.getByRole('button', { name: 'Open navigation menu' });
    await button.waitFor();
    const buttonBox = (await button.boundingBox())!;
    const texts = await textLines(page, DOCS_TEXT);
    const onScreen = texts.filter((text) => text.box.height > 0 && text.box.y < 844);
    expect(onScreen.length).toBeGreaterThan(2);
    for (const text of onScreen) expect(intersects(buttonBox, text.box), text.text.slice(0, 40)).toBe(false);
    // Scrolled on: the text passes under an opaque bar that holds the button, never over the button or through the bar.
    await page.evaluate(() => window.scrollTo(0, 1200));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    const bar = await button.evaluate((element) => {
      let holder: Element = element;
      while (holder.parentElement && holder.getBoundingClientRect().width < window.innerWidth - 1) holder = holder.parentElement;
      const box = holder.getBoundingClientRect();
      const { x, y, width, height } = element.getBoundingClientRect();
      const points = [0.1, 0.5, 0.9].flatMap((across) => [0.1, 0.5, 0.9].map((down) => [x + width * across, y + height * down] as const));
      return {
        bottom: box.bottom,
        background: getComputedStyle(holder).backgroundColor,
        buttonOnTop: points.every(([px, py]) => element.contains(document.elementFromPoint(px, py))),
      };
    });
    expect(bar.buttonOnTop).toBe(true);
    expect(bar.background).toMatch(/^rgb\(/); // rgb(), not rgba(): nothing shows through
    const below = (await textLines(page, DOCS_TEXT)).filter((text) => text.box.height > 0 && text.box.y >= bar.bottom && text.box.y < 844);
    expect(below.length).toBeGreaterThan(2);
    await screenshot(page, 'phone-docs');
    await button.click(); // it still opens the menu
    await expect.poll(() => page.locator('[data-testid="floating-button"]').getAttribute('aria-expanded')).toBe('true');
    await screenshot(page, 'phone-docs-menu');
  }, 150_000); // the reference is built on the first /docs (Redocly, tens of seconds on a busy machine)
});
