import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoSiteRoutes } from '../../scripts/local/demo-site.js';
import { localeBuild, readCatalogue, surfaceOf, type Surface } from '../../widget/locale-files.js';
import { LOCALES, isRightToLeft, type Catalogue, type Locale } from '../../widget/src/i18n.js';
import { accessibilityViolations, cspViolations, launchChromium, notFound, screenshot } from '../support/browser.js';
import { accessToken, http } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * Every locale in a real browser (Debian's Chromium), one page reused: the demo checkout's widget
 * (`/?locale=<tag>`) shows no English text but names, says its lang and dir (Arabic laid out right
 * to left), passes axe at desktop and phone widths, and fetched only its own locale file; a locale
 * file that cannot load means English, and the loading text is the customer's while it loads; the
 * merchant's texts and terms link. The claim page (`/claim?lang=<tag>`) likewise, found order and
 * open claim, its dates and amounts by Intl; the API's errors by their code; the language switch
 * by keyboard, keeping the customer's place. Screenshots (with SCREENSHOTS set) as <page>-<tag>.png.
 */
let server: TestServer;
let browser: Browser;
let page: Page;
let refused: string[];
let missing: string[];
const email = 'lena.locale@example.org';
const orderNumber = `LOC-${Date.now().toString(36).toUpperCase()}`;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const english = readCatalogue('en');

beforeAll(async () => {
  server = await startTestServer({ staticRoutes: demoSiteRoutes });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: DESKTOP });
  refused = cspViolations(page);
  missing = notFound(page);
  // An order of the demo shop with two tickets, one of them already claimed (the page then shows a claim to open).
  const token = await accessToken(server.baseUrl, server.demo);
  const ticket = (name: string, reference_number: string, cost: string) => ({
    name,
    reference_number,
    cost,
    event: { name: 'Spring Concert', start_date: '2027-04-10', start_time: '19:30' },
  });
  const order = await http('POST', `${server.baseUrl}/api/v2/orders`, {
    headers: { authorization: `JWT ${token}` },
    body: {
      order_number: orderNumber,
      currency: 'EUR',
      items: [ticket('Seat A1', `${orderNumber}-a`, '80.00'), ticket('Seat B2', `${orderNumber}-b`, '45.00')],
      customer: { first_name: 'Lena', last_name: 'Locale', email },
    },
  });
  expect(order.status, order.text).toBe(201);
  const session = await http('POST', `${server.baseUrl}/api/v2/claims/sessions`, {
    body: { order_number: orderNumber, email, client_id: server.demo.client_id },
  });
  expect(session.status, session.text).toBe(201);
  const claim = await http('POST', `${server.baseUrl}/api/v2/claims`, {
    headers: { authorization: `Bearer ${session.json.claim_token}` },
    body: { policy_numbers: [order.json.policies[0].policy_number], reason: 'illness', description: 'Fever.' },
  });
  expect(claim.status, claim.text).toBe(201);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/**
 * The English texts of a surface that must not show in `locale`: each English value that differs
 * from the locale's own, cut at its placeholders into the pieces that hold a word (4 letters or
 * more) and that no text of the locale's own holds too.
 */
function englishLeftovers(locale: Locale, surface: Surface, shown: string): string[] {
  const ours = surfaceOf(readCatalogue(locale), surface);
  const theirs: Catalogue = surfaceOf(english, surface);
  const own = new Set(Object.values(ours));
  const pieces = Object.entries(theirs)
    .filter(([key, text]) => ours[key] !== text && !own.has(text))
    .flatMap(([, text]) => text.split(/\{\w+\}/).map((piece) => piece.trim()))
    .filter((piece) => /\p{L}{4,}/u.test(piece))
    .filter((piece) => !Object.values(ours).some((text) => text.includes(piece))); // a word both languages write alike (nl: "ticket")
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
    await screenshot(page.locator('#protection'), `widget-${locale}`);
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

/** Where a block's text sits in it: right to left it ends at the block's right edge. */
const textSide = (selector: string) =>
  page.locator(selector).evaluate((block) => {
    const range = document.createRange();
    range.selectNodeContents(block);
    const text = range.getBoundingClientRect();
    const box = block.getBoundingClientRect();
    return Math.abs(box.right - text.right) < 2 && text.left - box.left > 20 ? 'right' : Math.abs(text.left - box.left) < 2 ? 'left' : 'centre';
  });

async function checkClaimPage(locale: Locale, name: string): Promise<void> {
  expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([locale, isRightToLeft(locale) ? 'rtl' : 'ltr']);
  const shown = await page.evaluate(() => document.body.innerText);
  expect(englishLeftovers(locale, 'claim', shown), name).toEqual([]);
  expect(await page.evaluate(() => document.title)).toBe(readCatalogue(locale)['claim.title']);
  expect(await textSide('h1')).toBe(isRightToLeft(locale) ? 'right' : 'left');
  expect(await accessibilityViolations(page), name).toEqual([]);
  await screenshot(page, `${name}-${locale}`, { fullPage: true });
  await page.setViewportSize(PHONE);
  expect(await accessibilityViolations(page), `${name} on a phone`).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await page.setViewportSize(DESKTOP);
}

describe('the claim page in every locale', () => {
  it.each(LOCALES)('%s: the order and its claim in its language, dates and amounts by Intl, lang and dir, axe clean at both widths', async (locale) => {
    const fetched: string[] = [];
    const listen = (request: { url(): string }) => {
      if (request.url().includes('/locales/')) fetched.push(new URL(request.url()).pathname);
    };
    page.on('request', listen);
    await page.setViewportSize(DESKTOP);
    await page.goto(`${server.baseUrl}/claim?lang=${locale}#${new URLSearchParams({ order: orderNumber, email }).toString()}`);
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(locale);
    expect(await page.locator('main').isVisible()).toBe(true);
    expect(fetched).toEqual(locale === 'en' ? [] : [`/${localeBuild().claim.files[locale]}`]);
    page.off('request', listen);
    expect(page.url()).toBe(`${server.baseUrl}/claim?lang=${locale}`); // the order and e-mail dropped, the language kept
    const t = surfaceOf(readCatalogue(locale), 'claim');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(t.heading);
    await checkClaimPage(locale, 'claim-find');

    await page.locator('#find-order').click();
    await page.locator('#policy-list input').first().waitFor();
    const label = (await page.locator('#policy-list label').first().textContent()) ?? '';
    const euros = new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' }).format(45);
    expect(label).toContain(isRightToLeft(locale) ? `\u2066${euros}\u2069` : euros);
    if (locale === 'en') expect(label).toBe(`Seat B2, Spring Concert on 2027-04-10 at 19:30 (covered up to ${euros})`);
    else expect(label).toContain(new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(Date.UTC(2027, 3, 10)));
    if (locale === 'en-GB') expect(label).toContain('10 Apr 2027');
    const one = (key: string) => (t[`${key}#one`] ?? t[`${key}#other`]!).replace('{count}', new Intl.NumberFormat(locale).format(1));
    expect(await page.locator('#announce').textContent()).toBe(t.twoSentences!.replace('{first}', one('orderFound')).replace('{second}', one('claimsOnFile')));
    await screenshot(page.locator('#policy-list'), `claim-ticket-${locale}`);
    await checkClaimPage(locale, 'claim-order');

    await page.locator('#claim-list button').click();
    await page.locator('#claim-status:not(:empty)').waitFor();
    expect(await page.locator('#claim-status').textContent()).toBe(t['status.Submitted']);
    expect(await page.locator('#claim-reason').textContent()).toBe(t['reason.illness']);
    await checkClaimPage(locale, 'claim-detail');
    // The file picker speaks the page's language, not the browser's: two files chosen, by Intl.PluralRules (Arabic's dual).
    expect(await page.locator('#files-chosen').textContent()).toBe(t.noFileChosen);
    const pdf = (name: string) => ({ name, mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n') });
    await page.getByLabel(t.addDocuments!, { exact: true }).setInputFiles([pdf('a.pdf'), pdf('b.pdf')]);
    const two = t['filesChosen#two'] ?? (t['filesChosen#other'] ?? '').replace('{count}', new Intl.NumberFormat(locale).format(2));
    expect(await page.locator('#files-chosen').textContent()).toBe(two);
    await page.getByLabel(t.addDocuments!, { exact: true }).setInputFiles([]);
  });

  it('says the API’s errors by their code in the customer’s language', async () => {
    await page.goto(`${server.baseUrl}/claim?lang=de#${new URLSearchParams({ order: orderNumber, email: 'someone.else@example.org' }).toString()}`);
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('de');
    await page.getByRole('button', { name: 'Bestellung suchen' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(readCatalogue('de')['claim.error.order_not_found']);
    // Switched to Japanese, the alert says it again in Japanese.
    await page.getByLabel('Sprache').selectOption('ja');
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(readCatalogue('ja')['claim.error.order_not_found']);
  });

  it('switches language by keyboard in place: the step, the ticked ticket, the reason and the text stay', async () => {
    await page.goto(`${server.baseUrl}/claim#${new URLSearchParams({ order: orderNumber, email }).toString()}`);
    await page.getByRole('button', { name: 'Find my order', exact: true }).click();
    await page.getByRole('checkbox').first().check();
    await page.getByLabel('Reason').selectOption('injury');
    await page.getByLabel('What happened?').fill('Broke my wrist.');
    await page.getByLabel('Language').focus();
    await page.keyboard.type('Sv'); // type-ahead to Svenska, as a keyboard user picks it
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('sv');
    const sv = surfaceOf(readCatalogue('sv'), 'claim');
    expect(await page.getByRole('heading', { level: 2, name: sv.orderTitle }).isVisible()).toBe(true);
    expect(await page.getByRole('checkbox').first().isChecked()).toBe(true);
    expect(await page.getByLabel(sv.reason!, { exact: true }).inputValue()).toBe('injury');
    expect(await page.locator('#reason option:checked').textContent()).toBe(sv['reason.injury']);
    expect(await page.getByLabel(sv.whatHappened!).inputValue()).toBe('Broke my wrist.');
    expect(await page.locator('#description-count').textContent()).toBe('15 av 2000 tecken');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('language');
    expect(page.url()).toBe(`${server.baseUrl}/claim?lang=sv`);
    expect(await page.getByRole('link', { name: sv.demoCheckout }).getAttribute('href')).toBe('/?locale=sv');
    // And back to Arabic, right to left.
    await page.getByLabel(sv.language!, { exact: true }).selectOption('ar');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await page.getByRole('checkbox').first().isChecked()).toBe(true);
    expect(await textSide('#order-title')).toBe('right');
    expect(refused).toEqual([]);
    expect(missing).toEqual([]);
  });
});
