import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoSiteRoutes } from '../../scripts/local/demo-site.js';
import { accessibilityViolations, cspViolations, launchChromium, notFound, screenshot, signInThroughForm, staffUser } from '../support/browser.js';
import { accessToken, http } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { DOCTOR_NOTE, onePixelPng } from '../support/evidence-files.js';

/**
 * The claim pages in a real browser (Debian's Chromium): a customer finds their order on /claim
 * (by keyboard) and files a claim; the claims user, signed in to the console's claim queue
 * (/admin/#claims), asks for documents (then only the 14-day deny is offered), the customer answers, the operator approves, the customer sees it
 * approved; a session that ended and a refused payout are shown plainly; the demo receiver got the
 * webhook events, verified. The customer uploads two documents (straight to the local S3, scanned by
 * ClamAV); the operator sees the claim's signals and opens a clean document.
 */
let server: TestServer;
let browser: Browser;
let customer: Page;
let operator: Page;
const email = 'claire.mant@example.org';
const orderNumber = `CLM-${Date.now().toString(36).toUpperCase()}`;
const note = 'Please send the doctor’s note.';
const answer = 'Attached: the doctor’s note of 9 April. 🩺';
let claimId = '';
let refusedByCsp: { customer: string[]; operator: string[] };
let missing: { customer: string[]; operator: string[] };

beforeAll(async () => {
  server = await startTestServer({ staticRoutes: demoSiteRoutes });
  browser = await launchChromium();
  customer = await browser.newPage();
  operator = await browser.newPage();
  refusedByCsp = { customer: cspViolations(customer), operator: cspViolations(operator) };
  missing = { customer: notFound(customer), operator: notFound(operator) };

  // An order with a customer e-mail, placed by the demo client's back-end.
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
      currency: 'USD',
      items: [ticket('Seat A1', `${orderNumber}-a`, '80.00'), ticket('Seat B2 <b>VIP</b>', `${orderNumber}-b`, '45.00')],
      customer: { first_name: 'Claire', last_name: 'Mant', email },
    },
  });
  expect(order.status, order.text).toBe(201);
  expect(order.json.policies).toHaveLength(2);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id);
/** The operator's queue row of the claim. */
const queueRow = () => operator.getByRole('row').filter({ has: operator.getByRole('button', { name: `Review the claim on order ${orderNumber}` }) });

describe('claims', () => {
  it('the customer finds the order by keyboard and files a claim for one ticket', async () => {
    await customer.goto(`${server.baseUrl}/claim`); // npm start's page: the demo shop when the link names none

    // Step 1 by keyboard only: Tab past the nav link to the order number, type, Tab, type, Enter.
    await customer.locator('body').click({ position: { x: 1, y: 1 } });
    await customer.keyboard.press('Tab'); // the link to the demo checkout
    await customer.keyboard.press('Tab'); // Order number
    expect(await focusedId(customer)).toBe('order-number');
    await customer.keyboard.type(orderNumber);
    await customer.keyboard.press('Tab');
    await customer.keyboard.type(email);
    await customer.keyboard.press('Enter');

    const seatA = customer.getByRole('checkbox', { name: /^Seat A1, Spring Concert on 2027-04-10 at 19:30 \(covered up to \$80\.00\)$/ });
    await seatA.waitFor();
    expect(await focusedId(customer)).toBe('order-title'); // focus moved to the new step
    expect(await customer.getByRole('group', { name: 'Tickets to claim for' }).getByRole('checkbox').count()).toBe(2);
    expect(await customer.getByRole('checkbox', { name: /^Seat B2 <b>VIP<\/b>, / }).count()).toBe(1); // the API's text, as text
    expect(await customer.locator('#policy-list b').count()).toBe(0);
    expect(await customer.locator('#announce').textContent()).toBe('Order found. 2 tickets can be claimed.');
    expect(await customer.locator('#no-claims').isVisible()).toBe(true);
    expect(await accessibilityViolations(customer)).toEqual([]);
    await screenshot(customer, 'claim-order-found', { fullPage: true });

    // Step 2 by keyboard too: Space on the first ticket, type-ahead in the reason, type the description, Enter on Submit.
    expect(await focusedId(customer)).toBe('order-title');
    await customer.keyboard.press('Tab'); // Seat A1
    await customer.keyboard.press('Space');
    expect(await seatA.isChecked()).toBe(true);
    await customer.keyboard.press('Tab'); // Seat B2
    await customer.keyboard.press('Tab'); // Reason
    expect(await focusedId(customer)).toBe('reason');
    await customer.keyboard.press('i'); // type-ahead: "Illness"
    expect(await customer.getByLabel('Reason').inputValue()).toBe('illness');
    await customer.keyboard.press('Tab');
    const description = 'Fever the night before the concert; doctor’s note available.';
    await customer.keyboard.type(description);
    expect(await customer.locator('#description-count').textContent()).toBe(`${description.length} of 2000 characters`);
    await customer.keyboard.press('Tab'); // Submit claim
    await customer.keyboard.press('Enter');

    await expect.poll(() => customer.locator('#claim-status').textContent()).toBe('Submitted');
    expect(await focusedId(customer)).toBe('claim-title');
    claimId = (await customer.locator('#claim-id').textContent()) ?? '';
    expect(claimId).toMatch(/^clm_[0-9A-Za-z]{24}$/);
    expect(await customer.locator('#announce').textContent()).toBe('Your claim was submitted. Status: Submitted.');
    expect(await customer.locator('#claim-amount').textContent()).toBe('$80.00');
    expect(await customer.locator('#claim-reason').textContent()).toBe('Illness');
    expect(await customer.locator('#claim-description').textContent()).toBe(description);
    // The ticket as the order showed it, and a heading of words (the claim's number in its own row).
    expect(await customer.locator('#claim-title').textContent()).toBe('Your claim');
    expect(await customer.locator('#claim-policies li').allTextContents()).toEqual([expect.stringMatching(/^Seat A1, .+ \(covered up to \$80\.00\)$/)]);
    expect(await customer.getByRole('button', { name: 'Withdraw claim' }).isVisible()).toBe(true);
    expect(await customer.evaluate(() => [localStorage.length, sessionStorage.length])).toEqual([0, 0]); // the claim token stays in memory
    expect(await accessibilityViolations(customer)).toEqual([]);
    await screenshot(customer, 'claim-submitted', { fullPage: true });
  });

  it('the customer uploads two documents by keyboard, each with its progress bar, and sees them checked and received', async () => {
    expect(await customer.locator('#no-files').textContent()).toBe('No documents yet.');
    const picker = customer.getByLabel('Add documents');
    await picker.focus();
    await picker.setInputFiles([
      { name: 'doctor-note.pdf', mimeType: 'application/pdf', buffer: DOCTOR_NOTE },
      { name: 'ticket.png', mimeType: 'image/png', buffer: onePixelPng(false) },
    ]);
    await customer.keyboard.press('Tab'); // Upload documents
    expect(await focusedId(customer)).toBe('upload');
    await customer.keyboard.press('Enter');
    await expect.poll(() => customer.locator('#announce').textContent(), { timeout: 30_000 }).toBe('Your documents were received.');
    const rows = customer.locator('#file-list li');
    expect(await rows.evaluateAll((items) => items.map((item) => [item.children[0]!.textContent, item.children[1]!.textContent]))).toEqual([
      ['doctor-note.pdf', 'Received'],
      ['ticket.png', 'Received'],
    ]);
    // Each upload's bar, full.
    expect(
      await customer.getByRole('progressbar').evaluateAll((bars) => bars.map((bar) => [bar.getAttribute('aria-label'), (bar as HTMLProgressElement).value])),
    ).toEqual([
      ['Upload of doctor-note.pdf', 100],
      ['Upload of ticket.png', 100],
    ]);
    expect(await accessibilityViolations(customer)).toEqual([]);
    await screenshot(customer, 'claim-documents', { fullPage: true });
    await customer.setViewportSize({ width: 390, height: 844 });
    expect(await accessibilityViolations(customer)).toEqual([]);
    await screenshot(customer, 'claim-documents-phone', { fullPage: true });
    await customer.setViewportSize({ width: 1280, height: 800 });
  });

  it("shows the API's errors in the alert, with focus on the field they name or on the alert", async () => {
    await customer.getByRole('button', { name: 'Back to your order' }).click();
    await customer.getByRole('button', { name: `View claim ${claimId}` }).waitFor();
    expect(await customer.getByRole('checkbox').count()).toBe(1); // Seat A1 is under the open claim
    await customer.getByRole('checkbox', { name: /^Seat B2/ }).check();
    await customer.getByLabel('Reason').selectOption('other');
    // Characters are counted as the API counts them: an emoji is one. Over 2000 the form says so and cannot be sent.
    const count = customer.locator('#description-count');
    const submit = customer.getByRole('button', { name: 'Submit claim' });
    await customer.getByLabel('What happened?').fill('😀'.repeat(1500));
    expect(await count.textContent()).toBe('1500 of 2000 characters');
    expect(await submit.isEnabled()).toBe(true);
    await customer.getByLabel('What happened?').fill('😀'.repeat(1999) + 'xx');
    expect(await count.textContent()).toBe('2001 of 2000 characters — too long');
    expect(await count.getAttribute('class')).toContain('too-long');
    expect(await submit.isEnabled()).toBe(false);
    await customer.getByLabel('What happened?').fill('x'.repeat(10));
    expect(await submit.isEnabled()).toBe(true);
    // A policy number the order does not have (as if the page were stale): the API's 404 is shown, and focus goes to the ticket it names.
    await customer.evaluate(() => {
      (document.querySelector('#policy-list input') as HTMLInputElement).value = 'OP-0000-0000-0000';
    });
    await customer.getByRole('button', { name: 'Submit claim' }).click();
    const alert = customer.getByRole('alert');
    await expect.poll(() => alert.textContent()).toBe('No policy with this number in this order.');
    expect(await focusedId(customer)).toBe('policy-0');
    expect(await customer.locator('#policy-0').getAttribute('aria-invalid')).toBe('true');

    // Another order: a wrong e-mail is the API's 404, shown in the alert, which takes the focus.
    await customer.getByRole('button', { name: 'Find another order' }).click();
    expect(await alert.textContent()).toBe('');
    await customer.getByLabel('E-mail').fill('someone.else@example.org');
    await customer.getByRole('button', { name: 'Find my order' }).click();
    await expect
      .poll(() => alert.textContent())
      .toBe('No order matches this order number, e-mail address and shop. Check them against your order confirmation.');
    expect(await focusedId(customer)).toBe('error');
    await customer.getByLabel('E-mail').fill(email);
    await customer.getByRole('button', { name: 'Find my order' }).click();
    await customer.getByRole('button', { name: `View claim ${claimId}` }).click();
    await expect.poll(() => customer.locator('#claim-status').textContent()).toBe('Submitted');
    expect(await alert.textContent()).toBe('');
  });

  it('the operator reviews the claim and asks for documents; then only the 14-day deny is offered', async () => {
    // The claims user signs in through the login form; the console opens on the claim queue, Submitted claims loaded.
    await signInThroughForm(operator, server.baseUrl, staffUser(server.staff, 'claims'));
    expect(await operator.getByLabel('Status').inputValue()).toBe('Submitted');
    const review = operator.getByRole('button', { name: `Review the claim on order ${orderNumber}` });
    await review.waitFor(); // the queue loads as the section opens
    // Loading it again (one action at a time: only once the first load is done) puts the focus on its title.
    await operator.getByRole('button', { name: 'Load', exact: true }).click();
    await expect.poll(() => focusedId(operator)).toBe('queue-title');
    expect(await operator.locator('#queue-count').textContent()).toBe('1 shown, oldest first.');
    expect(await operator.getByRole('button', { name: 'Load more' }).isVisible()).toBe(false);
    // Each row, Review first (the row's link), says which order, whose shop (under it), which tickets for which
    // event, its age (its date under it), its status (its reason under it), and who decided (nobody yet).
    expect(await queueRow().getByRole('cell').allTextContents()).toEqual([
      `Review the claim on order ${orderNumber}`,
      `${orderNumber}Demo Shop (test client)${claimId}`, // the demo client is a test client: its claims move no real money
      'Seat A1 · Spring Concert, 2027-04-10 19:30',
      expect.stringMatching(/^(just now|\d+ min)\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/),
      'SubmittedIllness',
      '$80.00',
      '–',
    ]);
    expect(await queueRow().locator('.age').textContent()).toMatch(/^(just now|\d+ min)$/);
    expect(await queueRow().locator('.merchant').textContent()).toBe('Demo Shop (test client)');
    expect(await queueRow().locator('code').textContent()).toBe(claimId);
    // By keyboard: the queue's title has the focus after loading; Tab reaches the row's Review button, Enter opens it.
    expect(await focusedId(operator)).toBe('queue-title');
    await operator.keyboard.press('Tab');
    expect(await operator.evaluate(() => document.activeElement?.textContent)).toBe(`Review the claim on order ${orderNumber}`);
    await operator.keyboard.press('Enter');
    await expect.poll(() => operator.locator('#review-title').textContent()).toBe(`Claim on order ${orderNumber} (${claimId})`);
    expect(await operator.locator('#review-order').textContent()).toBe(orderNumber);
    expect(await operator.locator('#review-client').textContent()).toBe(`Demo Shop (test client) · ${server.demo.client_id}`);
    expect(await operator.locator('#review-decided-by').textContent()).toBe('–');
    expect(await operator.evaluate(() => document.activeElement?.id)).toBe('review-title');
    expect(await operator.locator('#review-description').textContent()).toBe('Fever the night before the concert; doctor’s note available.');
    expect(await operator.getByRole('table', { name: 'Policies of the claim' }).locator('tbody tr td').allTextContents()).toEqual([
      expect.stringMatching(/^OP-/),
      'Seat A1',
      'Spring Concert, 2027-04-10 19:30',
      `${orderNumber}-a`,
      '$80.00',
    ]);
    expect(await operator.getByLabel('Amount to approve').inputValue()).toBe('80.00');
    // The signals, with their reasons: bought minutes ago.
    await expect
      .poll(() => operator.locator('#review-signals li').allTextContents())
      .toEqual([expect.stringMatching(/^Filed soon after purchase Filed less than an hour after the protection was bought \(within 24 hours\)\.$/)]);
    // The customer's documents, scanned clean; one opens by keyboard as a download.
    const files = operator.getByRole('table', { name: 'Documents' });
    await files.waitFor();
    expect(await files.locator('tbody tr').evaluateAll((rows) => rows.map((row) => Array.from(row.querySelectorAll('td'), (td) => td.textContent)))).toEqual([
      ['doctor-note.pdf', 'PDF', `${DOCTOR_NOTE.length} B`, 'Clean', expect.stringMatching(/UTC$/), 'Open'],
      ['ticket.png', 'PNG', expect.stringMatching(/ B$/), 'Clean', expect.stringMatching(/UTC$/), 'Open'],
    ]);
    await operator.getByRole('button', { name: 'Open doctor-note.pdf' }).focus();
    const [download] = await Promise.all([operator.waitForEvent('download'), operator.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toBe('doctor-note.pdf');
    expect(Buffer.from(await (await fetch(download.url())).arrayBuffer())).toEqual(DOCTOR_NOTE);
    await expect.poll(() => operator.locator('#announce').textContent()).toMatch(/^doctor-note\.pdf is downloading \(the link works until .+ UTC\)\.$/);
    expect(await accessibilityViolations(operator)).toEqual([]);
    await screenshot(operator, 'console-claims-review', { fullPage: true });
    await operator.setViewportSize({ width: 390, height: 844 });
    expect(await accessibilityViolations(operator)).toEqual([]);
    await screenshot(operator, 'console-claims-evidence-phone', { fullPage: true });
    await operator.setViewportSize({ width: 1280, height: 800 });

    await operator.getByRole('radio', { name: 'Request documents' }).check();
    await operator.getByLabel('Note to the customer').fill(note);
    await operator.getByRole('button', { name: 'Submit decision' }).click();
    await expect.poll(() => operator.locator('#review-status').textContent()).toBe('Documents requested');
    expect(await operator.locator('#announce').textContent()).toBe(`Claim ${claimId} sent back to the customer for documents. Status: Documents requested.`);
    expect(await queueRow().locator('.status').textContent()).toBe('Documents requested');
    // The request records who made it, the signed-in person's e-mail, said as what it is (not yet a decision).
    expect(await queueRow().locator('.decided-by').textContent()).toBe(`Asked for documents: ${staffUser(server.staff, 'claims').email}`);
    expect(await operator.locator('#review-decided-by').textContent()).toBe(`Asked for documents: ${staffUser(server.staff, 'claims').email}`);

    // Awaiting documents: no approval, no amount; one choice, the deny of an unanswered claim, with when it becomes possible.
    const decision = operator.getByRole('group', { name: 'Decision' });
    expect(await operator.getByRole('radio', { name: 'Approve' }).count()).toBe(0);
    expect(await operator.locator('input[name=decision][value=approve]').count()).toBe(0);
    expect(await decision.getByRole('radio').count()).toBe(1);
    // A deny is never ticked for the operator: submitting without ticking it says so.
    const deny = decision.getByRole('radio', { name: 'Deny (the customer has not answered)', exact: true });
    expect(await deny.isChecked()).toBe(false);
    expect(await operator.getByLabel('Amount to approve').isVisible()).toBe(false);
    const hint =
      /^Documents were requested on (.+) UTC\. If the customer has not answered, the claim can be denied from (.+) UTC, 14 days after the request\.$/.exec(
        (await operator.locator('#decision-hint').textContent()) ?? '',
      );
    const [asked, from] = [hint?.[1] ?? '', hint?.[2] ?? ''];
    expect(await operator.locator('#review-history li').last().textContent()).toBe(`Documents requested, ${asked} UTC, by the operator`);
    expect(Date.parse(`${from}Z`) - Date.parse(`${asked}Z`)).toBe(14 * 24 * 3600 * 1000);
    expect(await accessibilityViolations(operator)).toEqual([]);
    await screenshot(operator, 'console-claims-documents-requested', { fullPage: true });

    await operator.getByRole('button', { name: 'Submit decision' }).click();
    await expect.poll(() => operator.getByRole('alert').textContent()).toBe('Tick "Deny (the customer has not answered)" to submit it.');
    // Within the 14 days the API refuses the deny: its message in the alert, with the focus.
    await deny.check();
    await operator.getByRole('button', { name: 'Submit decision' }).click();
    await expect
      .poll(() => operator.getByRole('alert').textContent())
      .toMatch(/^Documents were requested on .+; the claim can be denied without them once 14 days have passed\.$/);
    expect(await focusedId(operator)).toBe('error');
    expect(await operator.locator('#review-status').textContent()).toBe('Documents requested');
  });

  it('the customer answers on /claim, with statuses in words', async () => {
    await customer.getByRole('button', { name: 'Refresh status' }).click();
    await expect.poll(() => customer.locator('#claim-status').textContent()).toBe('Documents requested');
    expect(await customer.locator('#announce').textContent()).toBe('Your claim is now Documents requested.');
    expect(await customer.locator('#claim-messages li').allTextContents()).toEqual([
      expect.stringMatching(/^Claims team, .+ UTC: Please send the doctor’s note\.$/),
    ]);
    // The message's own text is isolated (<bdi>): in a sentence of the other direction it keeps its order.
    expect(await customer.locator('#claim-messages li bdi').allTextContents()).toEqual(['Please send the doctor’s note.']);
    expect(await customer.locator('body').innerText()).not.toMatch(/DocumentsRequested/);
    expect(await accessibilityViolations(customer)).toEqual([]);
    await customer.getByLabel('Your answer').fill(answer);
    expect(await customer.locator('#respond-count').textContent()).toBe(`${[...answer].length} of 2000 characters`);
    await customer.getByRole('button', { name: 'Send answer' }).click();
    await expect.poll(() => customer.locator('#claim-status').textContent()).toBe('Submitted');
    expect(await customer.locator('#announce').textContent()).toBe('Your answer was sent. Status: Submitted.');
    expect(await customer.getByRole('button', { name: 'Send answer' }).isVisible()).toBe(false);
  });

  it('the operator, still seeing the claim await documents, is told it was answered, and approves it', async () => {
    // The page reads the claim before denying an unanswered one: answered, it is shown again and nothing is decided.
    await operator.getByRole('button', { name: 'Submit decision' }).click();
    await expect.poll(() => operator.getByRole('alert').textContent()).toBe('The claim changed: it is now Submitted. Nothing was decided; review it again.');
    expect(await focusedId(operator)).toBe('error');
    expect(await operator.locator('#review-status').textContent()).toBe('Submitted');
    expect(await queueRow().locator('.status').textContent()).toBe('Submitted');
    const messages = await operator.locator('#review-messages li').allTextContents();
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatch(/^Operator, .+ UTC: Please send the doctor’s note\.$/);
    expect(messages[1]).toMatch(/^Customer, \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC: /);
    expect(messages[1]?.endsWith(`UTC: ${answer}`)).toBe(true);

    await operator.getByRole('radio', { name: 'Approve' }).check();
    expect(await operator.getByLabel('Amount to approve').inputValue()).toBe('80.00');
    await operator.getByRole('button', { name: 'Submit decision' }).click();

    await expect.poll(() => operator.locator('#review-status').textContent()).toBe('Approved');
    expect(await operator.getByRole('alert').textContent()).toBe('');
    expect(await operator.locator('#review-approved').textContent()).toBe('$80.00');
    expect(await operator.locator('#announce').textContent()).toBe(`Claim ${claimId} approved. Status: Approved.`);
    expect(await queueRow().locator('.status').textContent()).toBe('Approved');
    expect(await operator.getByRole('button', { name: 'Record payout' }).isVisible()).toBe(true);
    expect(await operator.locator('#decision-form').isVisible()).toBe(false);
  });

  it('the customer refreshes and sees the claim approved', async () => {
    await customer.getByRole('button', { name: 'Refresh status' }).click();
    await expect.poll(() => customer.locator('#claim-status').textContent()).toBe('Approved');
    expect(await customer.locator('#announce').textContent()).toBe('Your claim is now Approved.');
    expect(await customer.locator('#claim-approved').textContent()).toBe('$80.00');
    expect(await customer.locator('#claim-history li').allTextContents()).toEqual([
      expect.stringMatching(/^Submitted, .+ UTC, by you$/),
      expect.stringMatching(/^Documents requested, .+ UTC, by the claims team$/),
      expect.stringMatching(/^Submitted, .+ UTC, by you$/),
      expect.stringMatching(/^Approved, .+ UTC, by the claims team$/),
    ]);
    expect(await customer.getByRole('button', { name: 'Withdraw claim' }).isVisible()).toBe(false);
    expect(await accessibilityViolations(customer)).toEqual([]);
    await screenshot(customer, 'claim-approved', { fullPage: true });
  });

  it('an ended session is said plainly, and the order can be found again with the fields kept', async () => {
    // The API refuses the claim token (as it does 30 minutes on): a token it cannot take, on the next request.
    await customer.route(
      `**/api/v2/claims/${claimId}`,
      (route) => route.continue({ headers: { ...route.request().headers(), authorization: 'Bearer not.a.token' } }),
      { times: 1 },
    );
    await customer.getByRole('button', { name: 'Refresh status' }).click();
    const alert = customer.getByRole('alert');
    await expect.poll(() => alert.textContent()).toBe('Your session has ended. Find your order again to continue.');
    expect(await focusedId(customer)).toBe('error');
    expect(await customer.locator('body').innerText()).not.toMatch(/POST|\/api\//);
    expect(await accessibilityViolations(customer)).toEqual([]);
    await customer.getByRole('button', { name: 'Find my order again' }).click();
    expect(await focusedId(customer)).toBe('find-title');
    expect(await alert.textContent()).toBe('');
    expect(await customer.getByRole('button', { name: 'Find my order again' }).isVisible()).toBe(false);
    expect(await customer.getByLabel('Order number').inputValue()).toBe(orderNumber);
    expect(await customer.getByLabel('E-mail').inputValue()).toBe(email);
    await customer.getByRole('button', { name: 'Find my order', exact: true }).click();
    // Coming back, the claimed ticket is no longer one to claim: the claim still names it as the order does, not by its numbers.
    await expect.poll(() => customer.locator('#claim-list li').first().textContent()).toMatch(/^Seat A1: Approved, \$80\.00 claimed on .+ UTC View claim$/);
    await customer.getByRole('button', { name: `View claim ${claimId}` }).click();
    await expect
      .poll(() => customer.locator('#claim-policies li').allTextContents())
      .toEqual([expect.stringMatching(/^Seat A1, .+ \(covered up to \$80\.00\)$/)]);
  });

  it('after a refused payout the operator sees the claim as it is now', async () => {
    // A colleague records the payout first (through the API); this page still offers "Record payout".
    const paid = await http('POST', `${server.baseUrl}/api/v2/admin/claims/${claimId}/paid`, {
      headers: { authorization: `Operator ${server.operatorKey}` },
      body: { payout_reference: 'PAY-COLLEAGUE-1' },
    });
    expect(paid.status, paid.text).toBe(200);
    await operator.getByLabel('Payout reference').fill('PAY-2');
    await operator.getByRole('button', { name: 'Record payout' }).click();
    await expect.poll(() => operator.locator('#review-status').textContent()).toBe('Paid');
    expect(await operator.getByRole('alert').textContent()).toBe('The claim is Paid; only an Approved claim can be paid.');
    expect(await focusedId(operator)).toBe('error');
    expect(await operator.locator('#review-payout').textContent()).toBe('PAY-COLLEAGUE-1');
    expect(await operator.locator('#review-paid-by').textContent()).toBe('operator-key'); // a script's way in: npm start's operator key
    expect(await queueRow().locator('.status').textContent()).toBe('Paid');
    expect(await operator.locator('#paid-form').isVisible()).toBe(false);
    expect(await operator.locator('#decision-form').isVisible()).toBe(false);
  });

  it('sent claim.submitted, claim.approved and claim.paid to the demo receiver, all verified', async () => {
    const received = async () => {
      const res = await fetch(`${server.baseUrl}/demo/events`);
      return ((await res.json()) as { received: { type: string; verified: boolean }[] }).received;
    };
    await expect
      .poll(async () => (await received()).map((r) => r.type), { timeout: 15_000, interval: 250 })
      .toEqual(expect.arrayContaining(['claim.submitted', 'claim.approved', 'claim.paid']));
    const claimEvents = (await received()).filter((r) => r.type.startsWith('claim.') || !r.verified);
    expect(claimEvents.map((r) => [r.type, r.verified]).sort()).toEqual([
      ['claim.approved', true],
      ['claim.paid', true],
      ['claim.submitted', true],
    ]);
  });

  it('shows a JPY order’s coverage in whole yen and a KWD claim’s amount to the fils', async () => {
    const token = await accessToken(server.baseUrl, server.demo);
    const place = async (currency: string, cost: string) => {
      const number = `${currency}-${Date.now().toString(36).toUpperCase()}`;
      const res = await http('POST', `${server.baseUrl}/api/v2/orders`, {
        headers: { authorization: `JWT ${token}` },
        body: { order_number: number, currency, items: [{ name: 'Seat C3', reference_number: `${number}-c`, cost }], customer: { email } },
      });
      expect(res.status, res.text).toBe(201);
      return number;
    };
    const find = async (number: string) => {
      await customer.goto(`${server.baseUrl}/claim`);
      await customer.getByLabel('Order number').fill(number);
      await customer.getByLabel('E-mail').fill(email);
      await customer.keyboard.press('Enter');
    };
    await find(await place('JPY', '15000'));
    await customer.getByRole('checkbox', { name: /\(covered up to ¥15,000\)$/ }).waitFor();
    await find(await place('KWD', '36.500'));
    const seat = customer.getByRole('checkbox', { name: /\(covered up to KWD\s36\.500\)$/ }); // an accessible name turns the no-break space into a space
    await seat.waitFor();
    await seat.check();
    await customer.getByLabel('Reason').selectOption('illness');
    await customer.getByLabel('What happened?').fill('Fever.');
    await customer.getByRole('button', { name: 'Submit claim' }).click();
    await expect.poll(() => customer.locator('#claim-amount').textContent()).toBe('KWD\u00a036.500');
    expect(await accessibilityViolations(customer)).toEqual([]);
  });

  it('ran every script of both pages under their Content-Security-Policy, which refused nothing, and asked for nothing missing', () => {
    expect(refusedByCsp).toEqual({ customer: [], operator: [] });
    expect(missing).toEqual({ customer: [], operator: [] });
  });
});
