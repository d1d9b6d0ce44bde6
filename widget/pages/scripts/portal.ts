import { claimLink } from '../../../shared/claims/claim-link.js';
import { cell, $, claimPagesKit, copyField, el, money, PageError, type Method, type Ok, type Schemas } from './kit.js';
import { webhooks } from './portal-webhooks.js';
import { loadPagesConfig, startSignIn, type Session } from './sign-in.js';

/**
 * The merchant portal's script (portal-page.ts, served at /assets/portal.js): signs the person in
 * (sign-in.ts, as `portal`; the access token in memory only), then shows the section the address's
 * hash names, reading it from the API with `Authorization: Bearer <access token>`. The API takes
 * the client from the token: no request names a client. A person without the `merchant` group (or
 * without a client) is refused before any request. Strings from the API go into the DOM as text.
 */
type Conversion = Ok<'getConversion'>;
type Statement = Schemas['Statement'];
type LedgerPage = Ok<'listLedger'>;
type LedgerEntry = Schemas['LedgerEntry'];

const SECTIONS = ['conversion', 'statements', 'ledger', 'webhooks', 'claim-link'] as const;
type Section = (typeof SECTIONS)[number];
/** The ledger's page size (the API takes 1 to 100). */
const LEDGER_PAGE = 10;
/** Months offered for statements and the ledger: this one and the 11 before it. */
const MONTHS_SHOWN = 12;

const { announce, clearError, showError, request, run } = claimPagesKit({
  unreachable: 'The service could not be reached. Check your connection and try again.',
  failed: 'The service answered {status}. Please try again.',
  answerMessage: true,
});

let session: Session | undefined;
const api = <T>(method: Method, path: string, body?: unknown): Promise<T> => {
  if (!session) throw new PageError('You are signed out.');
  return request<T>(method, session.config.api_base + path, body, 'Bearer ' + session.token());
};

// ---- Formatting
const percentFormat = new Intl.NumberFormat('en-US', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
const percent = (rate: string | null) => (rate === null ? '–' : percentFormat.format(rate as `${number}`));
const count = new Intl.NumberFormat('en-US');
const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const dayLabel = (date: string) =>
  new Date(date + 'T00:00:00Z').toLocaleDateString('en-US', { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric' });
/** A timestamp to the minute, short ("Nov 27, 2026, 16:47 UTC"): a ledger row stays narrow on a phone. */
const shortWhen = (at: string) =>
  new Date(at).toLocaleString('en-US', {
    timeZone: 'UTC',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }) + ' UTC';
const ISO_TIMES = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g;
const monthLabel = (period: string) => new Date(period + '-01T00:00:00Z').toLocaleDateString('en-US', { timeZone: 'UTC', month: 'long', year: 'numeric' });
const ENTRY_LABELS: Record<Schemas['LedgerEntryType'], string> = {
  premium_written: 'Premium written',
  premium_adjusted: 'Premium adjusted',
  premium_refunded: 'Premium refunded',
  claim_approved: 'Claim approved',
  claim_paid: 'Claim paid',
  remittance_received: 'Payment received',
  remittance_reversed: 'Payment reversed',
};

/** This month and the ones before it, newest first, as YYYY-MM (UTC). */
function recentMonths(): string[] {
  const now = new Date();
  return Array.from({ length: MONTHS_SHOWN }, (_, i) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1)).toISOString().slice(0, 7));
}
function fillMonths(select: HTMLSelectElement): void {
  select.replaceChildren(
    ...recentMonths().map((period, i) => {
      const option = el('option', monthLabel(period) + (i === 0 ? ' (this month)' : ''));
      option.value = period;
      return option;
    }),
  );
}

// ---- Conversion: totals, and only the days that had checkouts (a phone reads a short list, not a row per empty day).
async function loadConversion(): Promise<void> {
  const days = Number($<HTMLSelectElement>('conversion-days').value);
  const to = new Date();
  const from = new Date(to.getTime() - (days - 1) * 86_400_000);
  $('conversion-status').textContent = 'Loading…';
  const report = await api<Conversion>('GET', '/metrics/conversion?from=' + isoDay(from) + '&to=' + isoDay(to));
  const { opt_in, opt_out, conversion_rate } = report.totals;
  $('total-rate').textContent = percent(conversion_rate);
  $('total-in').textContent = count.format(opt_in);
  $('total-out').textContent = count.format(opt_out);
  $('total-checkouts').textContent = count.format(opt_in + opt_out);
  const busy = report.days.filter((d) => d.opt_in + d.opt_out > 0).reverse();
  $('days').replaceChildren(
    ...busy.map((d) => {
      const row = el('tr');
      row.append(cell(dayLabel(d.date)), cell(count.format(d.opt_in), 'num'), cell(count.format(d.opt_out), 'num'), cell(percent(d.conversion_rate), 'num'));
      return row;
    }),
  );
  $('days-box').hidden = busy.length === 0;
  $('conversion-status').textContent = busy.length
    ? busy.length + ' of the last ' + days + ' days had checkouts, newest first.'
    : 'No checkouts in the last ' + days + ' days.';
}

// ---- Statements: one card per currency, with the commission, what is due and the balance.
const STATEMENT_LINES: [keyof Statement['currencies'][number], string][] = [
  ['premiums_written', 'Premiums written'],
  ['premium_adjustments', 'Adjustments'],
  ['premiums_refunded', 'Refunded'],
  ['net_premium', 'Net premium'],
  ['commission', 'Your commission'],
  ['amount_due', 'Amount due'],
  ['opening_balance', 'Opening balance'],
  ['remitted', 'You paid'],
  ['closing_balance', 'Balance'],
  ['claims_approved', 'Claims approved'],
  ['claims_paid', 'Claims paid'],
];
/** What a statement's status tells the merchant. */
const STANDING: Record<Statement['status'], string> = {
  open: 'open (it may still change), due',
  closed: 'closed, due',
  paid: 'paid',
  overdue: 'overdue: it was due',
};
async function loadStatement(): Promise<void> {
  const period = $<HTMLSelectElement>('statement-period').value;
  $('statement-status').textContent = 'Loading…';
  const statement = await api<Statement>('GET', '/statements/' + encodeURIComponent(period));
  $('statement-currencies').replaceChildren(
    ...statement.currencies.map((c) => {
      const card = el('section');
      card.className = 'card currency';
      card.setAttribute('aria-label', monthLabel(statement.period) + ' in ' + c.currency);
      const list = el('dl');
      for (const [name, text] of STATEMENT_LINES) {
        const term = el('dt', text);
        const value = el('dd', money(String(c[name]), c.currency));
        if (name === 'net_premium' || name === 'closing_balance') term.className = value.className = 'total';
        list.append(term, value);
      }
      list.append(
        el('dt', 'Policies issued'),
        el('dd', count.format(c.policies_issued)),
        el('dt', 'Policies voided'),
        el('dd', count.format(c.policies_voided)),
      );
      card.append(el('h2', c.currency), list);
      return card;
    }),
  );
  // A closed month with nothing in it (before the shop sold anything) is `paid` to the API: nothing was owed, which is what it says here.
  $('statement-status').textContent =
    statement.currencies.length === 0 && statement.status !== 'open'
      ? monthLabel(statement.period) + ': closed, with no premium or claim: nothing was due.'
      : monthLabel(statement.period) +
        ': ' +
        STANDING[statement.status] +
        (statement.status === 'paid' ? '' : ' on ' + statement.due_date) +
        (statement.currencies.length ? '.' : ', with no premium or claim.');
}

// ---- Ledger: pages of LEDGER_PAGE, newest first; the cursors of the pages before are kept to go back.
let ledgerCursors: (string | undefined)[] = [undefined];
let ledgerNext: string | null = null;
async function loadLedger(): Promise<void> {
  const period = $<HTMLSelectElement>('ledger-period').value;
  const cursor = ledgerCursors[ledgerCursors.length - 1];
  $('ledger-status').textContent = 'Loading…';
  const page = await api<LedgerPage>(
    'GET',
    '/ledger?period=' + encodeURIComponent(period) + '&limit=' + LEDGER_PAGE + (cursor ? '&cursor=' + encodeURIComponent(cursor) : ''),
  );
  ledgerNext = page.has_more ? page.next_cursor : null;
  $('ledger-rows').replaceChildren(
    ...page.data.map((entry: LedgerEntry) => {
      const row = el('tr');
      row.append(
        cell(shortWhen(entry.created)),
        cell(ENTRY_LABELS[entry.type] || entry.type),
        cell(entry.claim_id ?? entry.policy_number ?? entry.service_order_id ?? entry.reference ?? '', 'mono'),
        cell(money(entry.amount, entry.currency), 'num'),
      );
      return row;
    }),
  );
  const first = (ledgerCursors.length - 1) * LEDGER_PAGE + 1;
  $('ledger-status').textContent = page.data.length
    ? monthLabel(page.period) + ': entries ' + first + '–' + (first + page.data.length - 1) + (page.has_more ? ', more older ones' : '') + '.'
    : monthLabel(page.period) + ': no entries' + (page.has_more ? ' on this page; older ones follow.' : '.');
  $<HTMLButtonElement>('ledger-newer').disabled = ledgerCursors.length === 1;
  $<HTMLButtonElement>('ledger-older').disabled = ledgerNext === null;
  // A month with nothing in it shows its line, not a header over no rows and two buttons that lead nowhere.
  $('ledger-table').hidden = page.data.length === 0;
  $('ledger-pager').hidden = page.data.length === 0 && ledgerCursors.length === 1 && ledgerNext === null;
}

// ---- Webhooks: portal-webhooks.ts (set up once the person is a merchant user).
let webhookSection: ReturnType<typeof webhooks> | undefined;

// ---- Claim link: the shop's own, from the client the token names.
function showClaimLink(): void {
  $<HTMLInputElement>('claim-link-url').value = claimLink(location.origin, session!.user.merchant_client_id ?? '');
}
async function copyLink(): Promise<void> {
  announce((await copyField($<HTMLInputElement>('claim-link-url'))) ? 'Claim link copied.' : 'The link is selected: copy it with Ctrl+C (⌘C on a Mac).');
}

// ---- Navigation: the hash names the section; each is read again when shown.
const LOADERS: Record<Section, () => Promise<void> | void> = {
  conversion: loadConversion,
  statements: loadStatement,
  ledger: loadLedger,
  webhooks: () => webhookSection?.load(),
  'claim-link': showClaimLink,
};
const sectionOf = (hash: string): Section => {
  const name = hash.replace(/^#/, '');
  return (SECTIONS as readonly string[]).includes(name) ? (name as Section) : 'conversion';
};
function show(section: Section, focus: boolean): void {
  for (const name of SECTIONS) $(name).hidden = name !== section;
  for (const link of Array.from(document.querySelectorAll<HTMLAnchorElement>('#nav a'))) {
    if (link.hash === '#' + section) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  const title = $(section + '-title');
  document.title = (title.textContent ?? '') + ' · Merchant portal · Order Protection';
  if (focus) title.focus();
  announce('');
  void load(LOADERS[section]);
}

/**
 * Reads a section's data, its error shown in the alert. Not kit's `run` (one action at a time): a
 * section shown while another still loads must load too.
 */
async function load(action: () => Promise<void> | void): Promise<void> {
  clearError();
  try {
    await explained(action)();
  } catch (err) {
    showError(err);
  }
}

/** An action whose refusals the portal explains: an ended sign-in, a role the API refuses. */
function explained(action: () => Promise<void> | void): () => Promise<void> {
  return async () => {
    try {
      await action();
    } catch (err) {
      if (err instanceof PageError && err.status === 401) {
        $('sign-in-again').hidden = false;
        throw new PageError('Your sign-in has ended. Sign in again to go on.');
      }
      if (err instanceof PageError && err.status === 403) throw new PageError('Your account may not see this: ' + err.message);
      // The API writes times as ISO 8601 ("…until 2026-11-30T22:43:32.917Z"); the portal says them as its other dates.
      const said = err instanceof PageError ? err.message.replace(ISO_TIMES, shortWhen) : undefined;
      if (err instanceof PageError && said !== err.message) throw new PageError(said!, { code: err.code, param: err.param, status: err.status });
      throw err;
    }
  };
}

function refuse(user: Session['user']): void {
  $('starting').hidden = true;
  $('refused').hidden = false;
  const groups = user.groups.length ? user.groups.join(', ') : 'none';
  $('refused-text').textContent =
    'You are signed in as ' + (user.email || user.sub) + ', whose groups (' + groups + ') do not include a merchant account bound to a shop.';
  document.title = 'Not a merchant account · Merchant portal · Order Protection';
  $('refused-title').focus();
}

async function start(): Promise<void> {
  try {
    session = await startSignIn(await loadPagesConfig(), 'portal');
  } catch (err) {
    $('starting-status').textContent = err instanceof Error ? err.message : 'The sign-in failed.';
    $('sign-in-again').hidden = false;
    return;
  }
  const { user } = session;
  $('who-email').textContent = user.email || user.sub;
  $('who').hidden = false;
  if (!user.groups.includes('merchant') || !user.merchant_client_id) {
    refuse(user);
    return;
  }
  $('starting').hidden = true;
  $('nav').hidden = false;
  $('main').classList.remove('alone');
  fillMonths($<HTMLSelectElement>('statement-period'));
  fillMonths($<HTMLSelectElement>('ledger-period'));
  webhookSection = webhooks({ api, run, load, explained, announce, shortWhen });
  show(sectionOf(location.hash), false);
  window.addEventListener('hashchange', () => show(sectionOf(location.hash), true));
}

$('sign-out').addEventListener('click', () => session?.signOut());
$('sign-in-button').addEventListener('click', () => {
  if (session) void session.renew();
  else location.reload();
});
$('conversion-days').addEventListener('change', () => void load(loadConversion));
$('statement-period').addEventListener('change', () => void load(loadStatement));
$('ledger-period').addEventListener('change', () => {
  ledgerCursors = [undefined];
  void load(loadLedger);
});
// Paging keeps the focus on a pager button: the one pressed, or the other when this one has no page left.
function pageLedger(button: HTMLButtonElement, other: HTMLButtonElement, move: () => void): void {
  void run(
    explained(async () => {
      move();
      await loadLedger();
      (button.disabled ? other : button).focus();
    }),
  );
}
$('ledger-older').addEventListener('click', () =>
  pageLedger($('ledger-older'), $('ledger-newer'), () => {
    if (ledgerNext !== null) ledgerCursors.push(ledgerNext);
  }),
);
$('ledger-newer').addEventListener('click', () =>
  pageLedger($('ledger-newer'), $('ledger-older'), () => {
    if (ledgerCursors.length > 1) ledgerCursors.pop();
  }),
);
$('copy-link').addEventListener('click', () => void copyLink());
void start();
