import { claimLink } from '../../../shared/claims/claim-link.js';
import { badge, cell, $, claimPagesKit, el, money, pause, PageError, type Method, type Ok, type Schemas } from './kit.js';
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
type Endpoints = Ok<'listWebhookEndpoints'>;
type Endpoint = Schemas['WebhookEndpoint'];
type EndpointWithSecret = Schemas['WebhookEndpointWithSecret'];
type EventType = Schemas['EventType'];
type Events = Ok<'listEvents'>;
type EventDetail = Schemas['WebhookEventDetail'];

const SECTIONS = ['conversion', 'statements', 'ledger', 'webhooks', 'claim-link'] as const;
type Section = (typeof SECTIONS)[number];
/** The ledger's page size (the API takes 1 to 100). */
const LEDGER_PAGE = 10;
/** Months offered for statements and the ledger: this one and the 11 before it. */
const MONTHS_SHOWN = 12;
/** The delivery log's length shown. */
const EVENTS_SHOWN = 10;
/** After a test event, the log is read again until it has ended one way or the other: at most this many reads, this far apart. */
const TEST_READS = 30;
const TEST_READ_PAUSE_MS = 500;

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

// ---- Webhooks: the endpoints (add, test, enable, rotate the secret, delete) and the delivery log.
/**
 * What each event type an endpoint may take says, in the order the form offers them. A Record of
 * the contract's EventType: a type added to openapi.yaml fails the type check until it is here.
 */
const EVENT_LABELS: Record<EventType, string> = {
  'order.created': 'An order is protected',
  'order.opted_out': 'A customer declines protection',
  'order.canceled': 'A protected order is canceled',
  'policy.upgraded': 'A ticket is upgraded',
  'policy.downgraded': 'A ticket is downgraded',
  'policy.exchanged': 'A ticket is exchanged',
  'policy.canceled': 'A policy is canceled',
  'policy.voided': 'A policy is voided',
  'claim.submitted': 'A customer files a claim',
  'claim.approved': 'A claim is approved',
  'claim.denied': 'A claim is denied',
  'claim.paid': 'A claim is paid',
  'claim.withdrawn': 'A customer withdraws a claim',
  'statement.closed': 'A month’s statement closes',
  'statement.overdue': 'A statement is overdue',
};
const EVENT_TYPES = Object.keys(EVENT_LABELS) as EventType[];
/** An endpoint's event types in a few words: every one, every one but a few, or the few it takes. */
function eventsSummary(events: readonly string[]): string {
  const missing = EVENT_TYPES.filter((type) => !events.includes(type));
  if (missing.length === 0) return 'Every event type';
  if (missing.length <= 3) return 'Every event type but ' + missing.join(', ');
  return events.length === 1 ? 'Only ' + events[0] : 'Only ' + events.join(', ');
}
function fillEventChoices(): void {
  $('event-choices').replaceChildren(
    ...EVENT_TYPES.map((type) => {
      const box = el('input');
      box.type = 'checkbox';
      box.name = 'events';
      box.value = type;
      box.defaultChecked = true; // the form's reset ticks every type again
      const label = el('label');
      const words = el('span');
      words.append(Object.assign(el('code', type), { className: 'mono' }), ' ', el('span', EVENT_LABELS[type]));
      label.append(box, words);
      return label;
    }),
  );
}

function deliveredBadge(success: boolean | null) {
  // Failed: an attempt failed; its attempts say whether it is retried (not after a 410, nor to a deleted endpoint).
  return success === true ? badge('Delivered', 'ok') : success === false ? badge('Failed', 'bad') : badge('Pending');
}
async function loadEvents(): Promise<Events> {
  const page = await api<Events>('GET', '/events?limit=' + EVENTS_SHOWN);
  $('event-rows').replaceChildren(
    ...page.data.map((event) => {
      const row = el('tr');
      const name = el('td');
      const id = Object.assign(el('div', event.id), { className: 'mono', id: 'event-' + event.id });
      name.append(el('div', event.type), id);
      const state = el('td');
      const details = el('button', 'Attempts');
      details.type = 'button';
      details.className = 'link';
      details.setAttribute('aria-expanded', 'false');
      details.setAttribute('aria-describedby', id.id);
      details.addEventListener('click', () => void load(() => toggleAttempts(event.id, row, details)));
      state.append(deliveredBadge(event.delivery_success), el('br'), details);
      row.append(name, cell(shortWhen(event.created)), state);
      return row;
    }),
  );
  $('events-status').textContent = page.data.length ? 'The ' + page.data.length + ' latest events, newest first.' : 'No events yet.';
  $('events-table').hidden = page.data.length === 0; // no header row over nothing
  return page;
}
/** An event's attempts (GET /events/{id}) in a row under it, with "Send again"; pressed again, the row goes. */
async function toggleAttempts(eventId: string, row: HTMLTableRowElement, button: HTMLButtonElement): Promise<void> {
  const shown = row.nextElementSibling?.classList.contains('attempts') ? row.nextElementSibling : null;
  if (shown) {
    shown.remove();
    button.setAttribute('aria-expanded', 'false');
    return;
  }
  const detail = await api<EventDetail>('GET', '/events/' + encodeURIComponent(eventId));
  const list = el('ul');
  list.append(
    ...(detail.attempts.length
      ? detail.attempts.map((a) =>
          el(
            'li',
            shortWhen(a.at) +
              ' · ' +
              (a.status_code !== undefined ? 'HTTP ' + a.status_code : (a.error ?? 'no answer')) +
              ' · ' +
              a.duration_ms +
              ' ms · ' +
              a.endpoint_id,
          ),
        )
      : [el('li', 'No attempt yet.')]),
  );
  const cellAll = el('td');
  cellAll.colSpan = 3;
  cellAll.append(list);
  // A test event goes to its one endpoint only when asked (the test button); any other is sent again to every enabled endpoint that takes it.
  if (detail.type !== 'webhook_endpoint.test') {
    const again = el('button', 'Send again');
    again.type = 'button';
    again.className = 'secondary';
    again.setAttribute('aria-describedby', 'event-' + eventId);
    again.addEventListener('click', () => void run(explained(() => redeliver(eventId))));
    cellAll.append(again);
  }
  const attempts = el('tr');
  attempts.className = 'attempts';
  attempts.id = 'attempts-' + eventId;
  attempts.append(cellAll);
  row.after(attempts);
  button.setAttribute('aria-controls', attempts.id);
  button.setAttribute('aria-expanded', 'true');
}
async function redeliver(eventId: string): Promise<void> {
  const queued = await api<{ id: string; endpoints: number }>('POST', '/events/' + encodeURIComponent(eventId) + '/redeliver');
  announce(
    queued.endpoints === 0
      ? 'No enabled endpoint takes this event type, so it was not sent again.'
      : 'Queued again for ' +
          (queued.endpoints === 1 ? '1 endpoint' : queued.endpoints + ' endpoints') +
          ': sent within a minute, one more attempt each in the log.',
  );
}

function actionButton(text: string, describedBy: string, action: () => Promise<void>, className = 'secondary'): HTMLButtonElement {
  const button = el('button', text);
  button.type = 'button';
  button.className = className;
  button.setAttribute('aria-describedby', describedBy);
  button.addEventListener('click', () => void run(explained(action)));
  return button;
}
function endpointRow(endpoint: Endpoint): HTMLTableRowElement {
  const row = el('tr');
  const where = el('td');
  const url = el('div', endpoint.url);
  url.className = 'mono';
  url.id = 'url-' + endpoint.id;
  where.append(url);
  if (endpoint.description) where.append(el('div', endpoint.description));
  where.append(Object.assign(el('div', eventsSummary(endpoint.events)), { className: 'hint' }));
  const state = el('td');
  state.append(badge(endpoint.status === 'enabled' ? 'Enabled' : 'Disabled', endpoint.status === 'enabled' ? 'ok' : 'bad'));
  const actions = el('div');
  actions.className = 'row-actions';
  if (endpoint.status === 'enabled') {
    const test = actionButton('Send test event', url.id, () => sendTest(endpoint.id, test));
    actions.append(test);
  } else {
    actions.append(actionButton('Enable', url.id, () => enableEndpoint(endpoint)));
  }
  actions.append(
    actionButton('Rotate secret', url.id, () => rotateSecret(endpoint)),
    actionButton('Delete', url.id, () => deleteEndpoint(endpoint), 'danger'),
  );
  const actionCell = el('td');
  actionCell.append(actions);
  row.append(where, state, actionCell);
  return row;
}
async function loadEndpoints(): Promise<void> {
  const list = await api<Endpoints>('GET', '/webhook_endpoints');
  $('endpoint-rows').replaceChildren(...list.data.map(endpointRow));
  $('endpoints-status').textContent = list.data.length
    ? (list.data.length === 1 ? '1 endpoint' : list.data.length + ' endpoints') + ', oldest first.'
    : 'No endpoint yet: add one below, and events start going to it.';
  $('endpoints-table').hidden = list.data.length === 0;
}
async function loadWebhooks(): Promise<void> {
  await Promise.all([loadEndpoints(), loadEvents()]);
}

/** Asks in the page's dialog (Escape or Cancel says no); the focus goes back where it was. */
function confirmed(title: string, text: string, yes: string): Promise<boolean> {
  const dialog = $<HTMLDialogElement>('confirm');
  $('confirm-title').textContent = title;
  $('confirm-text').textContent = text;
  $('confirm-yes').textContent = yes;
  $('confirm-yes').className = yes.startsWith('Delete') ? 'danger' : '';
  dialog.returnValue = '';
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'yes'), { once: true });
    dialog.showModal();
    $('confirm-no').focus(); // the safe choice first: Enter on the dialog changes nothing
  });
}

/** A secret the API shows once (a new endpoint's, or a rotated one), until the person says it is stored. */
function showSecret(endpoint: EndpointWithSecret, what: string): void {
  $('secret-what').textContent = what;
  $('secret-url').textContent = endpoint.url;
  $<HTMLInputElement>('secret-value').value = endpoint.secret;
  $('secret-panel').hidden = false;
  $('secret-title').focus();
}
function hideSecret(): void {
  $<HTMLInputElement>('secret-value').value = '';
  $('secret-panel').hidden = true;
}

async function addEndpoint(): Promise<void> {
  const url = $<HTMLInputElement>('endpoint-url').value.trim();
  const description = $<HTMLInputElement>('endpoint-description').value.trim();
  const events = Array.from(document.querySelectorAll<HTMLInputElement>('#event-choices input:checked'), (box) => box.value as EventType);
  if (!url) throw new PageError('url: enter the address your server takes deliveries on.', { param: 'url' });
  // The API reads an empty list as every type; a person who unticked every box meant none, which is no endpoint.
  if (events.length === 0) throw new PageError('events: tick at least one event type.', { param: 'events' });
  const body: { url: string; description?: string; events?: EventType[] } = { url };
  if (description) body.description = description;
  if (events.length < EVENT_TYPES.length) body.events = events;
  const created = await api<EndpointWithSecret>('POST', '/webhook_endpoints', body);
  $<HTMLFormElement>('endpoint-form').reset();
  await loadEndpoints();
  showSecret(created, 'Endpoint added: events from now on go to it. Its signing secret, to check each delivery’s signature:');
}
async function rotateSecret(endpoint: Endpoint): Promise<void> {
  const text =
    'Deliveries to ' +
    endpoint.url +
    ' get a new secret. The current one keeps signing beside it for 24 hours, so your receiver can switch without missing one.';
  if (!(await confirmed('Rotate the signing secret?', text, 'Rotate secret'))) return;
  const rotated = await api<EndpointWithSecret>('POST', '/webhook_endpoints/' + encodeURIComponent(endpoint.id) + '/rotate_secret');
  showSecret(rotated, 'A new signing secret. Deliveries carry a signature by each secret for 24 hours; switch your receiver to this one before then.');
}
async function deleteEndpoint(endpoint: Endpoint): Promise<void> {
  const text = 'Nothing more is sent to ' + endpoint.url + '; its pending deliveries are canceled. This cannot be undone.';
  if (!(await confirmed('Delete this endpoint?', text, 'Delete endpoint'))) return;
  await api<null>('DELETE', '/webhook_endpoints/' + encodeURIComponent(endpoint.id));
  if ($('secret-url').textContent === endpoint.url) hideSecret();
  await loadEndpoints();
  $('endpoints-title').focus(); // its row, and the button pressed, are gone
  announce('Endpoint deleted: ' + endpoint.url + '.');
}
async function enableEndpoint(endpoint: Endpoint): Promise<void> {
  await api<Endpoint>('POST', '/webhook_endpoints/' + encodeURIComponent(endpoint.id) + '/enable');
  await loadEndpoints();
  $('endpoints-title').focus(); // the row is drawn again, with "Send test event" where "Enable" was
  announce(
    'Endpoint enabled: events from now on go to ' +
      endpoint.url +
      '. Events raised while it was disabled were not kept for it; send one again from the delivery log.',
  );
}

async function sendTest(endpointId: string, button: HTMLButtonElement): Promise<void> {
  const status = $('test-status');
  button.disabled = true;
  try {
    status.textContent = 'Sending a test event…';
    const sent = await api<{ id: string }>('POST', '/webhook_endpoints/' + encodeURIComponent(endpointId) + '/test');
    for (let read = 0; read < TEST_READS; read++) {
      const page = await loadEvents();
      const listed = page.data.find((event) => event.id === sent.id);
      if (listed && listed.delivery_success !== null) {
        const detail = await api<EventDetail>('GET', '/events/' + encodeURIComponent(sent.id));
        const last = detail.attempts[detail.attempts.length - 1];
        const answer = last ? (last.status_code !== undefined ? 'HTTP ' + last.status_code : (last.error ?? 'no answer')) : 'no attempt';
        status.textContent = listed.delivery_success
          ? 'Test event delivered (' + answer + '). It is at the top of the delivery log.'
          : last?.status_code === 410
            ? 'Test event refused (HTTP 410: gone), so the endpoint is disabled. Enable it once your server takes deliveries again.'
            : 'Test event failed (' + answer + '); it will be retried. See the delivery log.';
        if (last?.status_code === 410) await loadEndpoints(); // its row now offers "Enable"; the button pressed is gone
        return;
      }
      await pause(TEST_READ_PAUSE_MS);
    }
    status.textContent = 'Test event accepted; not delivered yet. Refresh the log in a moment.';
  } catch (err) {
    status.textContent = '';
    throw err;
  } finally {
    button.disabled = false;
    if (button.isConnected) button.focus();
    else $('endpoints-title').focus();
  }
}

// ---- Claim link: the shop's own, from the client the token names.
function showClaimLink(): void {
  $<HTMLInputElement>('claim-link-url').value = claimLink(location.origin, session!.user.merchant_client_id ?? '');
}
/** Copies a read-only field's text; where the clipboard is refused, leaves it selected and says how. */
async function copyField(id: string, copied: string): Promise<void> {
  const field = $<HTMLInputElement>(id);
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
    announce(copied);
  } catch {
    announce('It is selected: copy it with Ctrl+C (⌘C on a Mac).');
  }
}

// ---- Navigation: the hash names the section; each is read again when shown.
const LOADERS: Record<Section, () => Promise<void> | void> = {
  conversion: loadConversion,
  statements: loadStatement,
  ledger: loadLedger,
  webhooks: loadWebhooks,
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
  fillEventChoices();
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
$('events-refresh').addEventListener('click', () => void load(async () => void (await loadEvents())));
$('endpoint-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void run(explained(addEndpoint), {
    url: () => $('endpoint-url'),
    description: () => $('endpoint-description'),
    events: () => document.querySelector<HTMLInputElement>('#event-choices input') ?? undefined,
  });
});
$('copy-secret').addEventListener('click', () => void copyField('secret-value', 'Signing secret copied.'));
$('secret-done').addEventListener('click', () => {
  hideSecret();
  $('endpoints-title').focus();
});
$('copy-link').addEventListener('click', () => void copyField('claim-link-url', 'Claim link copied.'));
void start();
