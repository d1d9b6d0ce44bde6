import { $, badge, cell, copyField, el, fieldErrorLines, pause, PageError, type Fields, type Method, type Ok, type Schemas } from './kit.js';

/**
 * The portal's Webhooks section (its markup: portal-page.ts, section #webhooks): the shop's
 * endpoints, each with what it takes and its actions (send a test event, enable one a 410 or
 * failures disabled, rotate its secret, delete it: the last two asked in the page's modal
 * `<dialog>`), the form that adds one, and the delivery log (each event's attempts, and "Send
 * again"). A secret the API shows once (a new endpoint's, a rotated one) stays in a panel, one entry
 * per endpoint, until the person says it is stored. What an action says appears beside it (its
 * row, its form, its attempts) as well as in the page's live region, so it is seen where the person
 * acted on a phone's long page. A test event is watched without holding the page's one-action lock,
 * so the other actions work while it is on its way.
 */
type Endpoints = Ok<'listWebhookEndpoints'>;
type Endpoint = Schemas['WebhookEndpoint'];
type EndpointWithSecret = Schemas['WebhookEndpointWithSecret'];
type EventType = Schemas['EventType'];
type Events = Ok<'listEvents'>;
type EventDetail = Schemas['WebhookEventDetail'];

/** What the portal's script lends this section. */
export interface WebhooksKit {
  api: <T>(method: Method, path: string, body?: unknown) => Promise<T>;
  /** One action at a time, its error in the alert and on the field it names. */
  run: (action: () => unknown, fields?: Fields) => Promise<void>;
  /** A read that may run beside an action, its error in the alert. */
  load: (action: () => Promise<void> | void) => Promise<void>;
  /** The portal's words for an ended sign-in or a refused role. */
  explained: (action: () => Promise<void> | void) => () => Promise<void>;
  announce: (text: string) => void;
  /** "Nov 27, 2026, 16:47 UTC". */
  shortWhen: (at: string) => string;
}

/** The delivery log's length shown. */
const EVENTS_SHOWN = 10;
/** After a test event, the log is read again until it has ended one way or the other: at most this many reads, this far apart. */
const TEST_READS = 30;
const TEST_READ_PAUSE_MS = 500;

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
/** The form's fields an API error may name (its `param`) → the element; each has its error line `<id>-error`. */
const FIELDS: Record<string, string> = { url: 'endpoint-url', description: 'endpoint-description', events: 'endpoint-events' };

/** An endpoint's event types in a few words: every one, every one but a few, or the few it takes. */
export function eventsSummary(events: readonly string[]): string {
  const missing = EVENT_TYPES.filter((type) => !events.includes(type));
  if (missing.length === 0) return 'Every event type';
  if (missing.length <= 3) return 'Every event type but ' + missing.join(', ');
  return 'Only ' + events.join(', ');
}
/** An endpoint as a person tells it from the others: its description, then its URL. */
export const endpointName = (endpoint: Pick<Endpoint, 'url' | 'description'>): string =>
  endpoint.description ? endpoint.description + ' (' + endpoint.url + ')' : endpoint.url;

export function webhooks({ api, run, load, explained, announce, shortWhen }: WebhooksKit) {
  /** The endpoints last listed, by id: the attempts and the dialogs name them. */
  const known = new Map<string, Endpoint>();
  /** Secrets shown and not yet said to be stored, by endpoint id (a second rotation replaces the first). */
  const secrets = new Map<string, { name: string; secret: string; what: string }>();
  /** Endpoints whose test event is being watched: a row drawn again meanwhile (another action redrew the list) says so too. */
  const watching = new Set<string>();
  const WATCHING = 'Sending a test event…';

  // ---- The form's event types: every one ticked to start with (and after each reset).
  $('event-choices').replaceChildren(
    ...EVENT_TYPES.map((type) => {
      const box = el('input');
      box.type = 'checkbox';
      box.name = 'events';
      box.value = type;
      box.defaultChecked = true;
      const words = el('span');
      words.append(Object.assign(el('code', type), { className: 'mono' }), ' ', el('span', EVENT_LABELS[type]));
      const label = el('label');
      label.append(box, words);
      return label;
    }),
  );

  // ---- The delivery log.
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
        // One read at a time per button: a double click opens the row once.
        let reading = false;
        details.addEventListener('click', () => {
          if (reading) return;
          reading = true;
          void load(() => toggleAttempts(event.id, row, details)).finally(() => (reading = false));
        });
        state.append(deliveredBadge(event.delivery_success), el('br'), details);
        row.append(name, cell(shortWhen(event.created)), state);
        return row;
      }),
    );
    $('events-status').textContent = page.data.length ? 'The ' + page.data.length + ' latest events, newest first.' : 'No events yet.';
    $('events-table').hidden = page.data.length === 0; // no header row over nothing
    return page;
  }
  const attemptLine = (a: EventDetail['attempts'][number]): string => {
    const to = known.get(a.endpoint_id);
    return (
      shortWhen(a.at) +
      ' · ' +
      (a.status_code !== undefined ? 'HTTP ' + a.status_code : (a.error ?? 'no answer')) +
      ' · ' +
      a.duration_ms +
      ' ms · ' +
      (to ? endpointName(to) : a.endpoint_id + ' (deleted)')
    );
  };
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
    list.append(...(detail.attempts.length ? detail.attempts.map((a) => el('li', attemptLine(a))) : [el('li', 'No attempt yet.')]));
    const cellAll = el('td');
    cellAll.colSpan = 3;
    cellAll.append(list);
    // A test event goes to its one endpoint only when asked (the test button); any other is sent again to every enabled endpoint that takes it.
    if (detail.type !== 'webhook_endpoint.test') {
      const again = el('button', 'Send again');
      again.type = 'button';
      again.className = 'secondary';
      again.setAttribute('aria-describedby', 'event-' + eventId);
      const said = Object.assign(el('p'), { className: 'row-status' });
      said.setAttribute('role', 'status');
      again.addEventListener('click', () => void run(explained(() => redeliver(eventId, said))));
      cellAll.append(again, said);
    }
    const attempts = el('tr');
    attempts.className = 'attempts';
    attempts.id = 'attempts-' + eventId;
    attempts.append(cellAll);
    row.after(attempts);
    button.setAttribute('aria-controls', attempts.id);
    button.setAttribute('aria-expanded', 'true');
  }
  async function redeliver(eventId: string, said: HTMLElement): Promise<void> {
    said.textContent = '';
    const queued = await api<{ id: string; endpoints: number }>('POST', '/events/' + encodeURIComponent(eventId) + '/redeliver');
    said.textContent =
      queued.endpoints === 0
        ? 'No enabled endpoint takes this event type, so it was not sent again.'
        : 'Queued again for ' +
          (queued.endpoints === 1 ? '1 endpoint' : queued.endpoints + ' endpoints') +
          ': sent within a minute, one more attempt each in the log.';
  }

  // ---- The endpoints.
  function actionButton(text: string, endpoint: Endpoint, action: () => Promise<void>, className = 'secondary'): HTMLButtonElement {
    const button = el('button', text);
    button.type = 'button';
    button.className = className;
    button.dataset.action = text;
    button.setAttribute('aria-describedby', 'url-' + endpoint.id);
    // A refusal is said in the row too, and the focus comes back to the button: the page's alert is a screen away on a phone.
    button.addEventListener('click', () => {
      let refused = false;
      void run(async () => {
        try {
          await explained(action)();
        } catch (err) {
          refused = true;
          say(endpoint.id, err instanceof Error ? err.message : '');
          throw err;
        }
      }).then(() => {
        if (refused && button.isConnected) button.focus();
      });
    });
    return button;
  }
  const rowOf = (endpointId: string) => document.getElementById('endpoint-' + endpointId);
  const rowButton = (endpointId: string, action: string) => rowOf(endpointId)?.querySelector<HTMLButtonElement>(`button[data-action="${action}"]`) ?? null;
  /** Says what happened in the endpoint's row (if it is still listed). */
  const say = (endpointId: string, text: string) => {
    const line = document.getElementById('row-status-' + endpointId);
    if (line) line.textContent = text;
  };

  function endpointRow(endpoint: Endpoint): HTMLTableRowElement {
    const row = el('tr');
    row.id = 'endpoint-' + endpoint.id;
    const where = el('td');
    where.className = 'endpoint';
    const url = el('div', endpoint.url);
    url.className = 'mono';
    url.id = 'url-' + endpoint.id;
    where.append(url);
    if (endpoint.description) where.append(el('div', endpoint.description));
    where.append(Object.assign(el('div', eventsSummary(endpoint.events)), { className: 'hint' }));
    const said = Object.assign(el('p', watching.has(endpoint.id) ? WATCHING : ''), { className: 'row-status', id: 'row-status-' + endpoint.id });
    said.setAttribute('role', 'status');
    where.append(said);
    const state = el('td');
    state.append(badge(endpoint.status === 'enabled' ? 'Enabled' : 'Disabled', endpoint.status === 'enabled' ? 'ok' : 'bad'));
    const actions = el('div');
    actions.className = 'row-actions';
    actions.append(
      endpoint.status === 'enabled'
        ? Object.assign(
            actionButton('Send test event', endpoint, () => sendTest(endpoint)),
            { disabled: watching.has(endpoint.id) },
          )
        : actionButton('Enable', endpoint, () => enableEndpoint(endpoint)),
      actionButton('Rotate secret', endpoint, () => rotateSecret(endpoint)),
      actionButton('Delete', endpoint, () => deleteEndpoint(endpoint), 'danger'),
    );
    const actionCell = el('td');
    actionCell.append(actions);
    row.append(where, state, actionCell);
    return row;
  }
  async function loadEndpoints(): Promise<void> {
    const list = await api<Endpoints>('GET', '/webhook_endpoints');
    known.clear();
    for (const endpoint of list.data) known.set(endpoint.id, endpoint);
    $('endpoint-rows').replaceChildren(...list.data.map(endpointRow));
    $('endpoints-status').textContent = list.data.length
      ? (list.data.length === 1 ? '1 endpoint' : list.data.length + ' endpoints') + ', oldest first.'
      : 'No endpoint yet: add one below, and events start going to it.';
    $('endpoints-table').hidden = list.data.length === 0;
  }

  /** Asks in the page's dialog (Escape or Cancel says no, and the focus goes back where it was). */
  function confirmed(title: string, text: string, yes: string, tone: 'danger' | 'plain'): Promise<boolean> {
    const dialog = $<HTMLDialogElement>('confirm');
    if (dialog.open) return Promise.resolve(false);
    $('confirm-title').textContent = title;
    $('confirm-text').textContent = text;
    $('confirm-yes').textContent = yes;
    $('confirm-yes').className = tone === 'danger' ? 'danger' : '';
    dialog.returnValue = '';
    // Answered as the button is pressed (the form's submit) or Escape is (cancel), not on `close`, which the
    // browser fires a task later: an action pressed right after must not find this one still running.
    const form = dialog.querySelector('form')!;
    return new Promise((resolve) => {
      const answer = (yes: boolean) => {
        form.removeEventListener('submit', submitted);
        dialog.removeEventListener('cancel', canceled);
        dialog.removeEventListener('close', closed);
        resolve(yes);
      };
      const submitted = (event: SubmitEvent) => answer((event.submitter as HTMLButtonElement | null)?.value === 'yes');
      const canceled = () => answer(false);
      // The close event of the question before is queued as a task, and the browser may run the next click's task
      // first: arriving while this question is open, it is not this question's answer.
      const closed = () => {
        if (!dialog.open) answer(dialog.returnValue === 'yes');
      };
      form.addEventListener('submit', submitted);
      dialog.addEventListener('cancel', canceled);
      dialog.addEventListener('close', closed);
      dialog.showModal();
      $('confirm-no').focus(); // the safe choice first: Enter on the dialog changes nothing
    });
  }

  // ---- Secrets shown once: an entry per endpoint, until the person says they are stored.
  function drawSecrets(): void {
    $('secret-list').replaceChildren(
      ...Array.from(secrets, ([endpointId, entry]) => {
        const box = el('div');
        box.className = 'secret-entry';
        const what = Object.assign(el('p', entry.what), { id: 'secret-what-' + endpointId });
        const label = el('label', 'Signing secret for ');
        label.htmlFor = 'secret-' + endpointId;
        label.append(Object.assign(el('span', entry.name), { className: 'mono' }));
        const field = el('input');
        Object.assign(field, { type: 'text', id: 'secret-' + endpointId, readOnly: true, spellcheck: false, autocomplete: 'off', value: entry.secret });
        field.setAttribute('aria-describedby', what.id);
        const copy = el('button', 'Copy secret');
        copy.type = 'button';
        copy.setAttribute('aria-describedby', label.htmlFor);
        copy.addEventListener('click', () => void copySecret(field, copy));
        const row = el('div');
        row.className = 'copy';
        row.append(field, copy);
        box.append(what, label, row);
        return box;
      }),
    );
    const many = secrets.size > 1;
    $('secret-title').textContent = many ? secrets.size + ' signing secrets to store' : 'Signing secret to store';
    $('secret-done').textContent = many ? 'I have stored them' : 'I have stored it';
    $('secret-panel').hidden = secrets.size === 0;
  }
  function showSecret(endpoint: EndpointWithSecret, what: string): void {
    secrets.set(endpoint.id, { name: endpointName(endpoint), secret: endpoint.secret, what });
    drawSecrets();
    $('secret-title').focus();
  }
  async function copySecret(field: HTMLInputElement, button: HTMLButtonElement): Promise<void> {
    if (!(await copyField(field))) {
      announce('It is selected: copy it with Ctrl+C (⌘C on a Mac).');
      return;
    }
    button.textContent = 'Copied';
    announce('Signing secret copied.');
    setTimeout(() => (button.textContent = 'Copy secret'), 2000);
  }

  // ---- The form.
  const form = $<HTMLFormElement>('endpoint-form');
  /** An error beside the field it names, or at the form's foot (a 409 at 16 endpoints): seen where the person is, on a phone too. */
  const errorLines = fieldErrorLines(FIELDS, 'endpoint-form');
  async function addEndpoint(): Promise<void> {
    const url = $<HTMLInputElement>('endpoint-url').value.trim();
    const description = $<HTMLInputElement>('endpoint-description').value.trim();
    const events = Array.from(form.querySelectorAll<HTMLInputElement>('#event-choices input:checked'), (box) => box.value as EventType);
    if (!url) throw new PageError('url: enter the address your server takes deliveries on.', { param: 'url' });
    // The API reads an empty list as every type; a person who unticked every box meant none, which is no endpoint.
    if (events.length === 0) throw new PageError('events: tick at least one event type.', { param: 'events' });
    const body: { url: string; description?: string; events?: EventType[] } = { url };
    if (description) body.description = description;
    if (events.length < EVENT_TYPES.length) body.events = events;
    const created = await api<EndpointWithSecret>('POST', '/webhook_endpoints', body);
    form.reset();
    await loadEndpoints();
    showSecret(created, 'Endpoint added: events from now on go to it. Its signing secret, to check each delivery’s signature:');
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    errorLines.clear();
    void run(
      async () => {
        try {
          await explained(addEndpoint)();
        } catch (err) {
          errorLines.show(err);
          throw err;
        }
      },
      {
        url: () => $('endpoint-url'),
        description: () => $('endpoint-description'),
        events: () => form.querySelector<HTMLInputElement>('#event-choices input') ?? undefined,
      },
    ).then(() => {
      // A refusal of no field (16 endpoints already) is read at the form's foot, where the person is, not in the alert a screen up.
      if (!$('endpoint-form-error').hidden) $('endpoint-form-error').focus();
    });
  });

  // ---- What a row's buttons do.
  async function rotateSecret(endpoint: Endpoint): Promise<void> {
    const text =
      'Deliveries to ' +
      endpointName(endpoint) +
      ' get a new secret. The current one keeps signing beside it for 24 hours, so your receiver can switch without missing one.';
    if (!(await confirmed('Rotate the signing secret?', text, 'Rotate secret', 'plain'))) return;
    const rotated = await api<EndpointWithSecret>('POST', '/webhook_endpoints/' + encodeURIComponent(endpoint.id) + '/rotate_secret');
    showSecret(rotated, 'A new signing secret. Deliveries carry a signature by each secret for 24 hours; switch your receiver to this one before then.');
  }
  async function deleteEndpoint(endpoint: Endpoint): Promise<void> {
    const text = 'Nothing more is sent to ' + endpointName(endpoint) + '; its pending deliveries are canceled. This cannot be undone.';
    if (!(await confirmed('Delete this endpoint?', text, 'Delete endpoint', 'danger'))) return;
    await api<null>('DELETE', '/webhook_endpoints/' + encodeURIComponent(endpoint.id));
    if (secrets.delete(endpoint.id)) drawSecrets(); // its secret no longer signs anything
    await loadEndpoints();
    $('endpoints-title').focus(); // its row, and the button pressed, are gone
    announce('Endpoint deleted: ' + endpointName(endpoint) + '.');
  }
  async function enableEndpoint(endpoint: Endpoint): Promise<void> {
    await api<Endpoint>('POST', '/webhook_endpoints/' + encodeURIComponent(endpoint.id) + '/enable');
    await loadEndpoints();
    const said = 'Enabled: events from now on go to it. Events raised while it was disabled were not kept for it; send one again from the delivery log.';
    say(endpoint.id, said);
    rowButton(endpoint.id, 'Send test event')?.focus(); // where "Enable" was
    announce('Endpoint enabled: ' + endpointName(endpoint) + '.');
  }

  /** Sends a test event, then watches the log for it beside the page's actions (the lock is held only while it is sent). */
  async function sendTest(endpoint: Endpoint): Promise<void> {
    say(endpoint.id, WATCHING);
    let sent: { id: string };
    try {
      sent = await api<{ id: string }>('POST', '/webhook_endpoints/' + encodeURIComponent(endpoint.id) + '/test');
    } catch (err) {
      say(endpoint.id, '');
      throw err;
    }
    void load(() => watchTest(endpoint, sent.id));
  }
  async function watchTest(endpoint: Endpoint, eventId: string): Promise<void> {
    const testButton = () => rowButton(endpoint.id, 'Send test event');
    const hadFocus = document.activeElement === testButton();
    watching.add(endpoint.id);
    const pressed = testButton();
    if (pressed) pressed.disabled = true;
    // Back to the row's button when the person has not moved on (a disabled button drops the focus to the page).
    const done = (text: string, next: () => HTMLButtonElement | null) => {
      watching.delete(endpoint.id);
      say(endpoint.id, text);
      const button = testButton();
      if (button) button.disabled = false;
      const target = next();
      if (target && hadFocus && (document.activeElement === document.body || document.activeElement === pressed)) target.focus();
    };
    try {
      for (let read = 0; read < TEST_READS; read++) {
        const page = await loadEvents();
        const listed = page.data.find((event) => event.id === eventId);
        if (listed && listed.delivery_success !== null) {
          const detail = await api<EventDetail>('GET', '/events/' + encodeURIComponent(eventId));
          const last = detail.attempts[detail.attempts.length - 1];
          const answer = last ? (last.status_code !== undefined ? 'HTTP ' + last.status_code : (last.error ?? 'no answer')) : 'no attempt';
          const gone = last?.status_code === 410;
          if (gone) await loadEndpoints(); // its row now offers "Enable"; the button pressed is gone
          done(
            listed.delivery_success
              ? 'Test event delivered (' + answer + '). It is at the top of the delivery log.'
              : gone
                ? 'Test event refused (HTTP 410: gone), so the endpoint is disabled. Enable it once your server takes deliveries again.'
                : 'Test event failed (' + answer + '); it will be retried. See the delivery log.',
            gone ? () => rowButton(endpoint.id, 'Enable') : testButton,
          );
          return;
        }
        await pause(TEST_READ_PAUSE_MS);
      }
      done('Test event accepted; not delivered yet. Refresh the log in a moment.', testButton);
    } finally {
      if (watching.delete(endpoint.id)) {
        // A read failed on the way (its error is in the alert): the button works again.
        say(endpoint.id, '');
        const button = testButton();
        if (button) button.disabled = false;
      }
    }
  }

  $('secret-done').addEventListener('click', () => {
    secrets.clear();
    drawSecrets();
    announce(''); // "Signing secret copied." was about a secret no longer shown
    $('endpoints-title').focus();
  });
  $('events-refresh').addEventListener('click', () => void load(async () => void (await loadEvents())));

  return {
    /** The section's data, read again each time it is shown. */
    load: async () => {
      await Promise.all([loadEndpoints(), loadEvents()]);
    },
  };
}
