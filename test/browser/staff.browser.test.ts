import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStaffFile } from '#shared/identity/staff-file.js';
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
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The console's Staff section in a real browser (issue 37): the admin signs in through npm start's
 * login form, adds a claims user by keyboard only (an error first, shown beside its field), and is
 * told the first password is in the staff file; that new person then signs in through the same
 * login form at once (the local provider reads the file at each sign-in) and sees the claim queue;
 * a claims user who opens #staff gets the API's refusal. axe finds nothing at a desktop and a
 * phone width.
 */
let server: TestServer;
let browser: Browser;
const dir = mkdtempSync(join(tmpdir(), 'staff-browser-'));
const staffFile = join(dir, 'staff.json');
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const NEW_EMAIL = 'nina.new@insurer.example';
const watched: { refused: string[]; missing: string[] }[] = [];

beforeAll(async () => {
  server = await startTestServer({ staticRoutes: demoSiteRoutes, staffFile });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function personPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  watched.push({ refused: cspViolations(page), missing: notFound(page) });
  return page;
}
const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');
const navLinks = (page: Page) => page.getByRole('navigation', { name: 'Console' }).getByRole('link').allTextContents();
const alertText = (page: Page) => page.getByRole('alert').first().textContent();

/** Tab (at most 40 times) until the focus is on an element matching `selector`. */
async function tabTo(page: Page, selector: string): Promise<void> {
  for (let stops = 0; stops < 40; stops++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

async function accessible(page: Page, name: string): Promise<void> {
  expect(await accessibilityViolations(page)).toEqual([]);
  expect(await overflowingTables(page)).toEqual([]);
  await screenshot(page, `console-${name}`, { fullPage: true });
  await page.setViewportSize(PHONE);
  expect(await accessibilityViolations(page)).toEqual([]);
  expect(await overflowingTables(page)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(PHONE.width);
  await screenshot(page, `console-${name}-phone`, { fullPage: true });
  await page.setViewportSize(DESKTOP);
}

describe("the console's Staff section", () => {
  it('the admin adds a claims user by keyboard and is told where the password is; that person signs in through the login form at once and sees the claim queue', async () => {
    const page = await personPage();
    await signInThroughForm(page, server.baseUrl, staffUser(server.staff, 'admin'));
    expect(await navLinks(page)).toEqual(['Audit log', 'Staff', 'Merchants']);
    // To the section by keyboard: its link in the navigation, Enter.
    await page.getByRole('link', { name: 'Staff' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedId(page)).toBe('staff-title');
    const rows = page.locator('#staff-rows tr');
    await expect.poll(() => rows.count()).toBe(server.staff.users.length); // the demo users, one per group
    expect(await rows.first().textContent()).toContain('@');
    // The merchant user's merchant by its name beside its id.
    await expect.poll(() => rows.filter({ hasText: 'merchant@' }).textContent()).toContain(`Demo Shop · ${server.demo.client_id}`);
    expect(await page.locator('#staff').textContent()).not.toMatch(/password"?:/);
    await accessible(page, 'staff');

    // The merchant select shows only for a merchant user, filled with the merchants.
    const merchantBox = page.getByRole('checkbox', { name: 'Merchant', exact: true });
    expect(await page.locator('#staff-client').isVisible()).toBe(false);
    await merchantBox.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => page.locator('#staff-client option').count()).toBeGreaterThan(1);
    expect(await page.locator('#staff-client').textContent()).toContain(server.demo.client_id);
    await accessible(page, 'staff-merchant');
    await page.keyboard.press('Space');
    expect(await page.locator('#staff-client').isVisible()).toBe(false);

    // An address that is not one: the API's words in the alert and beside the field, which takes the focus.
    await page.getByLabel('E-mail').focus();
    await page.keyboard.type('not-an-address');
    await tabTo(page, '#staff-group-claims');
    await page.keyboard.press('Space');
    await tabTo(page, '#staff-form button[type=submit]');
    await page.keyboard.press('Enter');
    // The API's message, the field named by its label in the alert and left out beside it.
    await expect.poll(() => alertText(page)).toBe('E-mail: must be an e-mail address.');
    expect(await focusedId(page)).toBe('staff-email');
    expect(await page.locator('#staff-email').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#staff-email-error').textContent()).toBe('Must be an e-mail address.');
    await expect
      .poll(() => page.evaluate(() => (document.getElementById('staff-email') as HTMLInputElement).matches('[aria-describedby~=staff-email-error]')))
      .toBe(true);
    await accessible(page, 'staff-error');

    // Now right: the person is added, the admin is told (aria-live) where the first password is, and the list shows them.
    await page.keyboard.press('Control+A');
    await page.keyboard.type(NEW_EMAIL);
    await tabTo(page, '#staff-form button[type=submit]');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#announce').textContent()).toContain('.local/staff.json');
    expect(await page.locator('#announce').textContent()).toBe(
      `${NEW_EMAIL} may sign in (Claims). npm start wrote their first password to .local/staff.json (it is shown nowhere else).`,
    );
    expect(await page.locator('#staff-email-error').isVisible()).toBe(false);
    await expect.poll(() => rows.count()).toBe(server.staff.users.length + 1);
    expect(await rows.last().textContent()).toBe(`${NEW_EMAIL}Claims–Active`);
    await accessible(page, 'staff-added');

    // The new person, from the file the admin was pointed to, signs in through the login form without a restart.
    const added = (await readStaffFile(staffFile)).users.find((person) => person.email === NEW_EMAIL)!;
    expect(added.groups).toEqual(['claims']);
    const theirs = await personPage();
    await signInThroughForm(theirs, server.baseUrl, added);
    expect(await navLinks(theirs)).toEqual(['Claim queue', 'Merchants']);
    await theirs.getByRole('heading', { name: 'Claim queue', level: 1 }).waitFor();
    expect(await theirs.locator('#claims').isVisible()).toBe(true);
  });

  it("a claims user who opens #staff sees the section with the API's refusal, and no Staff link", async () => {
    const page = await personPage();
    await signInThroughForm(page, server.baseUrl, staffUser(server.staff, 'claims'));
    await page.evaluate(() => (location.hash = '#staff'));
    await expect.poll(() => alertText(page)).toBe('This needs the admin role, which your account does not have.');
    expect(await page.locator('#staff-role-note').isVisible()).toBe(true);
    expect(await navLinks(page)).not.toContain('Staff');
    expect(await page.locator('#staff-rows tr').count()).toBe(0);
    // Nothing offered that the API would refuse: no "Add a person", neither its form nor its heading.
    expect(await page.locator('#staff-form').isVisible()).toBe(false);
    expect(await page.getByRole('heading', { name: 'Add a person' }).isVisible()).toBe(false);
    await accessible(page, 'staff-refused');
  });

  it('no page had a script or a fetch refused by its CSP, nor asked for anything missing', () => {
    expect(watched.flatMap((w) => [...w.refused, ...w.missing])).toEqual([]);
  });
});
