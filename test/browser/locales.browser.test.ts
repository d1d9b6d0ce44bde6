import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoSiteRoutes } from '../../scripts/local/demo-site.js';
import { localeBuild, readCatalogue, surfaceOf, type Surface } from '../../widget/locale-files.js';
import { LOCALES, isRightToLeft, type Catalogue, type Locale } from '../../widget/src/i18n.js';
import { accessibilityViolations, cspViolations, launchChromium } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * Every locale in a real browser (Debian's Chromium), one page reused: the demo checkout's widget
 * (`/?locale=<tag>`) shows no English text but names, says its lang and dir (Arabic laid out right
 * to left), passes axe at desktop and phone widths, and fetched only its own locale file; a locale
 * file that cannot load means English, and the loading text is the customer's while it loads; the
 * merchant's texts and terms link. Screenshots to /tmp/locale-shots/<page>-<tag>.png.
 */
let server: TestServer;
let browser: Browser;
let page: Page;
let refused: string[];
const shots = '/tmp/locale-shots';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const english = readCatalogue('en');

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  server = await startTestServer({ staticRoutes: demoSiteRoutes });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: DESKTOP });
  refused = cspViolations(page);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/**
 * The English texts of a surface that must not show in `locale`: each English value that differs
 * from the locale's own, cut at its placeholders into the pieces that hold a word (4 letters or more).
 */
function englishLeftovers(locale: Locale, surface: Surface, shown: string): string[] {
  const ours = surfaceOf(readCatalogue(locale), surface);
  const theirs: Catalogue = surfaceOf(english, surface);
  const own = new Set(Object.values(ours));
  const pieces = Object.entries(theirs)
    .filter(([key, text]) => ours[key] !== text && !own.has(text))
    .flatMap(([, text]) => text.split(/\{\w+\}/).map((piece) => piece.trim()))
    .filter((piece) => /\p{L}{4,}/u.test(piece));
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return [...new Set(pieces)].filter((piece) => new RegExp(`(^|[^\\p{L}])${escape(piece)}($|[^\\p{L}])`, 'u').test(shown));
}

/** Where the radio sits in its label: right to left it is on the right. */
const radioSide = () =>
  page
    .locator('#protection label')
    .first()
    .evaluate((label) => {
      const input = label.querySelector('input')!.getBoundingClientRect();
      const box = label.getBoundingClientRect();
      return input.left + input.width / 2 > box.left + box.width / 2 ? 'right' : 'left';
    });

describe('the widget in every locale', () => {
  it.each(LOCALES)('%s: the offer in its language, its lang and dir, axe clean at both widths, its file only', async (locale) => {
    const fetched: string[] = [];
    const listen = (request: { url(): string }) => {
      if (request.url().includes('/locales/')) fetched.push(new URL(request.url()).pathname);
    };
    page.on('request', listen);
    await page.setViewportSize(DESKTOP);
    await page.goto(`${server.baseUrl}/?locale=${locale}`);
    const offer = page.locator('#protection fieldset.op-offer');
    await offer.waitFor();
    page.off('request', listen);

    expect(await offer.getAttribute('lang')).toBe(locale);
    expect(await offer.getAttribute('dir')).toBe(isRightToLeft(locale) ? 'rtl' : 'ltr');
    const shown = await page.locator('#protection').innerText();
    expect(englishLeftovers(locale, 'widget', shown)).toEqual([]);
    const ours = surfaceOf(readCatalogue(locale), 'widget');
    expect(await page.locator('#protection legend').textContent()).toBe(ours.legend);
    expect(await page.getByRole('radio').count()).toBe(2);
    expect(await radioSide()).toBe(isRightToLeft(locale) ? 'right' : 'left');
    // Only the locale's own file, once; English is built in.
    expect(fetched).toEqual(locale === 'en' ? [] : [`/${localeBuild().widget.files[locale]}`]);
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.locator('#protection').screenshot({ path: `${shots}/widget-${locale}.png` });
    await page.setViewportSize(PHONE);
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  });

  it('writes the premium with Intl in the locale: yen in Japanese, dinars in Arabic (one left-to-right run)', async () => {
    await page.setViewportSize(DESKTOP);
    await page.goto(`${server.baseUrl}/?locale=ja&currency=JPY`);
    await expect.poll(() => page.getByRole('radio', { name: 'はい、￥1,658で注文を保護します' }).count()).toBe(1);
    await page.goto(`${server.baseUrl}/?locale=ar&currency=KWD`);
    await page.locator('#protection fieldset').waitFor();
    const dinars = new Intl.NumberFormat('ar', { style: 'currency', currency: 'KWD', minimumFractionDigits: 3 }).format(4.017);
    expect(await page.locator('#protection').innerText()).toContain(`\u2066${dinars}\u2069`);
  });

  it('shows the loading text in the customer’s language while the file loads, and English when it cannot load', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/locales/widget.sv.*', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${server.baseUrl}/?locale=sv`);
    const loading = page.locator('#protection .op-loading');
    await expect.poll(() => loading.textContent()).toBe(readCatalogue('sv')['widget.loading']);
    expect(await loading.getAttribute('lang')).toBe('sv');
    release();
    await expect.poll(() => page.locator('#protection legend').textContent()).toBe(readCatalogue('sv')['widget.legend']);
    await page.unroute('**/locales/widget.sv.*');

    await page.route('**/locales/widget.de.*', (route) => route.fulfill({ status: 503, body: '' }));
    await page.goto(`${server.baseUrl}/?locale=de-AT`);
    await expect.poll(() => page.locator('#protection legend').textContent()).toBe('Refund protection');
    expect(await page.locator('#protection fieldset').getAttribute('lang')).toBe('en');
    expect(await page.getByRole('radio', { name: /^Yes, protect my order for \$13\.22$/ }).count()).toBe(1);
    await page.unroute('**/locales/widget.de.*');
  });

  it('takes the browser’s languages when the merchant names none', async () => {
    const context = await browser.newContext({ locale: 'pt-PT' });
    const portuguese = await context.newPage();
    await portuguese.goto(`${server.baseUrl}/`);
    await portuguese.locator('#protection fieldset').waitFor();
    expect(await portuguese.locator('#protection fieldset').getAttribute('lang')).toBe('pt-BR');
    await context.close();
  });

  it('uses the merchant’s texts and https terms link for the locale, and ignores a terms link that is not https', async () => {
    await page.goto(`${server.baseUrl}/`);
    await page.locator('#protection fieldset').waitFor();
    const configure = (locale: string) =>
      page.evaluate(async (tag) => {
        const widget = (window as unknown as { OrderProtection: { configure(c: unknown): Promise<void> } }).OrderProtection;
        await widget.configure({
          apiKey: (JSON.parse(document.getElementById('page-data')!.textContent ?? '{}') as { public_key: string }).public_key,
          baseUrl: location.origin,
          currency: 'USD',
          container: '#protection',
          items: [{ reference_number: 'x1', cost: '100.00', name: 'Seat X1' }],
          locale: tag,
          texts: { de: { legend: 'Ticketschutz', yes: 'Ja, für {premium} schützen' } },
          termsUrl: { de: 'https://shop.example/agb', en: 'javascript:alert(1)' },
        });
      }, locale);
    await configure('de');
    expect(await page.locator('#protection legend').textContent()).toBe('Ticketschutz');
    expect(await page.getByRole('radio', { name: 'Ja, für 8,50\u00a0$ schützen' }).count()).toBe(1);
    expect(await page.getByRole('radio', { name: 'Nein, ich möchte keinen Schutz' }).count()).toBe(1); // the rest: the catalogue's
    const terms = page.getByRole('link', { name: readCatalogue('de')['widget.terms']! });
    expect(await terms.getAttribute('href')).toBe('https://shop.example/agb');
    expect(await terms.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await accessibilityViolations(page)).toEqual([]);
    await configure('en-US');
    expect(await page.locator('#protection legend').textContent()).toBe('Refund protection');
    expect(await page.locator('#protection a').count()).toBe(0); // javascript: is no terms link
    expect(refused).toEqual([]);
  });
});
