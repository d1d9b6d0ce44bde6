import { fetchCatalogue, formatLocale, isolate, isRightToLeft, negotiate, translator, type Catalogue, type Locale, type Translator } from '../../src/i18n.js';
import { $, claimPagesKit, el, money as moneyIn, pageData, PageError, STATUSES, when as utcMinute, type Fields, type Method, type Schemas } from './kit.js';

/**
 * The customer's claim page's script (claim-page.ts, served at /assets/claim.js): find the order,
 * file a claim for some of its policies, then follow it (refresh, withdraw, answer a request for
 * documents). The claim token lives in a variable of this script only; every string from the API
 * goes into the DOM as text. The shop comes from the merchant's claim link (`?shop=<client_id>`,
 * else the page's data block: npm start's demo shop) and is sent as `client_id`, never shown.
 *
 * Every text is the customer's language's (`?lang=`, else the browser's languages, else English):
 * English is built in (the page's HTML is written in it, each text naming its key in `data-t`);
 * another language's catalogue is fetched from the file the build named
 * (`/locales/claim.<tag>.<hash>.json`). The language switch at the page's foot re-renders it in
 * place: the step, the fields, the ticket boxes and the claim shown stay as they are. The API's
 * errors are shown by their `code` in the customer's words; its (English) message only for a code
 * this page does not know. Amounts and dates go through Intl in the locale; English keeps the
 * ISO dates the page has always shown (2027-04-10, 2026-11-28 09:30 UTC).
 */
type Claim = Schemas['Claim'];
type Session = Schemas['ClaimSession'];
type Status = Schemas['ClaimStatus'];
type EvidenceFile = Schemas['EvidenceFile'];
type EvidenceUpload = Schemas['EvidenceUpload'];

declare const __OP_CLAIM_EN__: Catalogue;
declare const __OP_CLAIM_FILES__: Partial<Record<Locale, string>>;
const ENGLISH: Catalogue = __OP_CLAIM_EN__;
const catalogues = new Map<Locale, Promise<Catalogue | undefined>>();
/** The customer's language now: its texts, and how it writes amounts and dates. */
let tr: Translator = translator('en', ENGLISH, ENGLISH);
const t = (key: string, values?: Record<string, string | number>) => tr.t(key, values);
const money = (amount: string, currency: string) => isolate(tr.locale, moneyIn(amount, currency, tr.format));
/** A timestamp to the minute, in UTC: English as the page always wrote it (2026-11-28 09:30 UTC), the others by Intl. */
const when = (at: string): string =>
  tr.locale === 'en'
    ? utcMinute(at)
    : new Intl.DateTimeFormat(tr.format, {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        timeZone: 'UTC',
        timeZoneName: 'short',
      }).format(new Date(at));
/** An event's own date and time (the merchant's, no time zone): English as given (2027-04-10, 19:30), the others by Intl. */
function eventDay(date: string, time: string): { date: string; time: string } {
  const hhmm = time.slice(0, 5);
  const [y, m, d] = date.split('-').map(Number);
  const [hh, mm] = hhmm.split(':').map(Number);
  const at = new Date(Date.UTC(y!, (m ?? 1) - 1, d, hh, mm));
  if (tr.locale === 'en' || Number.isNaN(at.getTime())) return { date, time: hhmm };
  const format = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(tr.format, { ...options, timeZone: 'UTC' }).format(at);
  return { date: format({ dateStyle: 'medium' }), time: format({ timeStyle: 'short' }) };
}
const statusLabel = (status: Status) => (Object.hasOwn(ENGLISH, 'status.' + status) ? t('status.' + status) : status);

// The helpers shared with /admin/claims (kit.ts), with this page's words for a failed request (in the customer's language: read when one fails).
const failure = { unreachable: ENGLISH.unreachable!, failed: ENGLISH.failed!, answerMessage: false };
const { announce, clearError, request, run } = claimPagesKit(failure);
const { shop: demoShop } = pageData<{ shop: string | null }>();

const OPEN: Status[] = ['Submitted', 'DocumentsRequested'];
const MAX_TEXT = 2000;
// 401s on the claim token: the session is over (30 minutes) or the token is not one.
const SESSION_ENDED = ['claim_token_expired', 'invalid_claim_token'];
// 409s that mean the claim moved on (the claims team decided, say): it is read again and shown.
const CLAIM_MOVED = ['claim_decided', 'claim_not_awaiting_documents', 'claim_changed'];
// The API's own (English) messages, shown for a code this page has no words for, name statuses by their enum (DocumentsRequested); the customer reads the labels.
const ENUM_WORDS = new RegExp((Object.keys(STATUSES) as Status[]).filter((status) => STATUSES[status] !== status).join('|'), 'g');
const plain = (text: string) => text.replace(ENUM_WORDS, (status) => '"' + STATUSES[status as Status] + '"');
const params = new URLSearchParams(location.search);
const input = (id: string) => $<HTMLInputElement>(id);
// The claim link (shared/claims/claim-link.ts): ?shop=<client_id>#order=<order number>&email=<e-mail>
// (the fragment never leaves the browser); ?order= and ?email= are read too, and the demo checkout
// links here with ?order_number=.
const fragment = new URLSearchParams(location.hash.slice(1));
const linkShop = params.get('shop')?.trim() || '';
const shop = linkShop || demoShop || '';
const orderNumber = fragment.get('order') || params.get('order') || params.get('order_number');
const linkEmail = fragment.get('email') || params.get('email');
if (orderNumber) input('order-number').value = orderNumber;
if (linkEmail) input('email').value = linkEmail;
// Read once, then gone from the address bar (history, bookmarks, a shared screen; the pages'
// Referrer-Policy sends no path anyway): only the shop stays, so a reload still knows it.
// (The language asked for stays too.)
const addressFor = (lang: string | null) => {
  const kept = new URLSearchParams();
  if (linkShop) kept.set('shop', linkShop);
  if (lang) kept.set('lang', lang);
  const query = kept.toString();
  return location.pathname + (query ? '?' + query : '');
};
if (orderNumber !== null || linkEmail !== null) history.replaceState(null, '', addressFor(params.get('lang')));
if (!shop) {
  $('no-shop').hidden = false;
  for (const id of ['order-number', 'email', 'find-order']) $<HTMLInputElement>(id).disabled = true;
}

// The claim token is kept here only: never in storage, gone with the page.
let token: string | null = null;
let current: Claim | null = null;
const api = <T>(method: Method, path: string, body?: unknown, withToken = true) =>
  request<T>(method, path, body, withToken && token ? 'Bearer ' + token : undefined);
const claimPath = (claimId: string, action = '') => '/api/v2/claims/' + encodeURIComponent(claimId) + action;

function show(section: 'find' | 'order' | 'claim'): void {
  for (const id of ['find', 'order', 'claim']) $(id).hidden = id !== section;
  $(section + '-title').focus();
}

// run (kit.ts) with this page's handling of what the API refuses: an ended session, a claim
// that moved on, the API's words for statuses.
/** An error in the customer's words, which says itself again in another language when the switch is used. */
class LocalError extends PageError {
  constructor(
    readonly say: () => string,
    details: ConstructorParameters<typeof PageError>[1] = {},
  ) {
    super(say(), details);
  }
}
/** The error in the alert now, if it can be said again in another language. */
let shownError: LocalError | null = null;
function act(action: () => unknown, fields?: Fields): Promise<void> {
  shownError = null;
  return run(async () => {
    $('session-ended').hidden = true;
    try {
      await action();
    } catch (err) {
      const explained = await explain(err);
      if (explained instanceof LocalError) shownError = explained;
      throw explained;
    }
  }, fields);
}
async function explain(err: unknown): Promise<unknown> {
  if (!(err instanceof PageError) || !err.status) return err;
  if (err.status === 401 && SESSION_ENDED.includes(err.code ?? '')) {
    token = null;
    $('session-ended').hidden = false;
    return new LocalError(() => t('sessionEnded'));
  }
  const code = err.code ?? '';
  if (err.status === 409 && CLAIM_MOVED.includes(code) && current) {
    try {
      const claim = await api<Claim>('GET', claimPath(current.claim_id));
      showClaim(claim);
      return new LocalError(() => t('moved.' + code, { status: statusLabel(claim.status) }));
    } catch (again) {
      if (again instanceof PageError && again.status === 401 && SESSION_ENDED.includes(again.code ?? '')) return explain(again);
    }
  }
  const details = { code: err.code, param: err.param, status: err.status };
  // The page has checked its texts are there and short enough: what the API still refuses in one is a hidden character.
  if (code === 'validation_failed' && (err.param === 'description' || err.param === 'message')) return new LocalError(() => t('hiddenCharacters'), details);
  // The code in the customer's words; the API's English message only for a code the catalogue does not know.
  if (Object.hasOwn(ENGLISH, 'error.' + code)) return new LocalError(() => t('error.' + code), details);
  return new PageError(plain(err.message || ''), details);
}
function startOver(): void {
  token = null;
  current = null;
  session = null;
  shownError = null;
  $('session-ended').hidden = true;
  clearError();
  announce('');
  show('find'); // the order number and e-mail are still filled in
}
$('find-again').addEventListener('click', startOver);

// Step 1: the order.
const findFields: Fields = { order_number: () => $('order-number'), email: () => $('email') };
async function openSession(): Promise<Session> {
  const session = await api<Session>(
    'POST',
    '/api/v2/claims/sessions',
    { order_number: input('order-number').value.trim(), email: input('email').value.trim(), client_id: shop },
    false,
  );
  token = session.claim_token;
  return session;
}
$('find-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void act(async () => {
    announce(t('lookingUp'));
    showOrder(await openSession());
  }, findFields);
});

// Step 2: the claimable policies and the order's claims.
/** The order shown now (its session's answer): the language switch draws it again. */
let session: Session | null = null;
function showOrder(found: Session): void {
  session = found;
  drawOrder(found, false);
  updateCount();
  show('order');
  const n = found.policies.length;
  const sentence = tr.plural('orderFound', n);
  announce(found.claims.length ? t('twoSentences', { first: sentence, second: tr.plural('claimsOnFile', found.claims.length) }) : sentence);
}
/** A ticket as the customer knows it: its name, its event and day, what it covers. */
function ticketLabel(item: { name: string }, event: { name: string; start_date: string; start_time: string } | null, amount: string): string {
  return event
    ? t('policyEvent', { item: item.name, event: event.name, ...eventDay(event.start_date, event.start_time), amount })
    : t('policy', { item: item.name, amount });
}
const policyLabel = (policy: Session['policies'][number]): string => ticketLabel(policy.item, policy.event, money(policy.coverage_amount, policy.currency));
/** The order's tickets and claims, in the language now; redrawn (`keep`), the boxes the customer ticked stay ticked. */
function drawOrder(found: Session, keep: boolean): void {
  const ticked = new Set(
    keep
      ? boxes()
          .filter((box) => box.checked)
          .map((box) => box.value)
      : [],
  );
  const list = $('policy-list');
  list.replaceChildren();
  found.policies.forEach((policy, i) => {
    const row = el('div');
    row.className = 'choice';
    const box = el('input');
    box.type = 'checkbox';
    box.id = 'policy-' + i;
    box.name = 'policy_numbers';
    box.value = policy.policy_number;
    box.checked = ticked.has(policy.policy_number);
    const text = el('label');
    text.htmlFor = box.id;
    text.textContent = policyLabel(policy);
    row.append(box, text);
    list.append(row);
  });
  const none = found.policies.length === 0;
  $('policies').hidden = none;
  $('no-policies').hidden = !none;
  for (const id of ['reason', 'description', 'submit-claim']) $<HTMLInputElement>(id).disabled = none;
  $('claim-list').replaceChildren(
    ...found.claims.map((claim) => {
      const item = el(
        'li',
        t('claimRow', {
          // The tickets as the order names them (the claim's number is on its page, and in its button's name).
          id: claim.policies.map((p) => p.item?.name ?? p.policy_number).join(', '),
          status: statusLabel(claim.status),
          amount: money(claim.amount_claimed, claim.currency),
          date: when(claim.created),
        }) + ' ',
      );
      const view = el('button', t('viewClaim'));
      view.type = 'button';
      view.className = 'secondary';
      view.setAttribute('aria-label', t('viewClaimLabel', { id: claim.claim_id }));
      view.addEventListener('click', () => void act(async () => showClaim(await api<Claim>('GET', claimPath(claim.claim_id)))));
      item.append(view);
      return item;
    }),
  );
  $('no-claims').hidden = found.claims.length > 0;
}
// A text's counter, in characters as the API counts them (code points: an emoji is one, not two);
// over the limit it says so in the error style, and its form cannot be sent.
function counter(field: HTMLTextAreaElement, count: HTMLElement, submit: HTMLButtonElement): () => void {
  let over = false;
  const update = () => {
    const n = [...field.value].length;
    const wasOver = over;
    over = n > MAX_TEXT;
    const counted = { count: tr.number(n, { useGrouping: false }), max: tr.number(MAX_TEXT, { useGrouping: false }) };
    count.textContent = t(over ? 'countOver' : 'count', counted);
    count.classList.toggle('too-long', over);
    // Its own mark only: an error the API named this field for keeps its mark through a redraw.
    if (over) field.setAttribute('aria-invalid', 'true');
    else if (wasOver) field.removeAttribute('aria-invalid');
    submit.disabled = over || field.disabled;
    if (over && !wasOver) announce(t('tooLong', { max: counted.max }));
    else if (wasOver && !over) announce('');
  };
  field.addEventListener('input', update);
  return update;
}
const updateCount = counter($<HTMLTextAreaElement>('description'), $('description-count'), $<HTMLButtonElement>('submit-claim'));
const updateAnswerCount = counter($<HTMLTextAreaElement>('respond-message'), $('respond-count'), $<HTMLButtonElement>('send-answer'));
const boxes = () => Array.from(document.querySelectorAll<HTMLInputElement>('#policy-list input'));
const claimFields: Fields = {
  policy_numbers: () => boxes()[0],
  reason: () => $('reason'),
  description: () => $('description'),
};
$('claim-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const chosen = boxes().filter((box) => box.checked);
  void act(
    async () => {
      if (chosen.length === 0) throw new LocalError(() => t('chooseTicket'), { param: 'policy_numbers' });
      if (!$<HTMLTextAreaElement>('description').value.trim()) throw new LocalError(() => t('describe'), { param: 'description' });
      const claim = await api<Claim>('POST', '/api/v2/claims', {
        policy_numbers: chosen.map((box) => box.value),
        reason: $<HTMLSelectElement>('reason').value,
        description: $<HTMLTextAreaElement>('description').value,
      });
      $<HTMLFormElement>('claim-form').reset();
      updateCount();
      showClaim(claim);
      announce(t('submitted', { status: statusLabel(claim.status) }));
    },
    { ...claimFields, ...Object.fromEntries(chosen.map((box) => [box.value, () => box])) },
  );
});
$('another-order').addEventListener('click', startOver);

// Step 3: one claim.
function showClaim(claim: Claim): void {
  current = claim;
  drawClaim(claim);
  if ($('claim').hidden) show('claim');
  void readFiles(claim.claim_id).catch(() => {});
}
/** The claim, in the language now. */
function drawClaim(claim: Claim): void {
  // The claim's number is in its own row below: a heading of words, which a phone does not break mid-number.
  $('claim-title').textContent = t('claimTitle');
  $('claim-id').textContent = claim.claim_id;
  $('claim-status').textContent = statusLabel(claim.status);
  $('claim-status').dataset.status = claim.status;
  $('claim-reason').textContent = Object.hasOwn(ENGLISH, 'reason.' + claim.reason) ? t('reason.' + claim.reason) : claim.reason;
  $('claim-amount').textContent = money(claim.amount_claimed, claim.currency);
  $('claim-approved').textContent = claim.amount_approved === null ? t('notDecided') : money(claim.amount_approved, claim.currency);
  $('payout-row').hidden = claim.payout_reference === null;
  $('claim-payout').textContent = claim.payout_reference || '';
  $('claim-policies').replaceChildren(
    ...claim.policies.map((p) => {
      // Named as the order holds the ticket (the session names the claimed ones too); else, its record gone, by its numbers.
      const amount = money(p.coverage_amount, claim.currency);
      const claimed = session?.claims.flatMap((c) => c.policies).find((policy) => policy.policy_number === p.policy_number);
      const open = session?.policies.find((policy) => policy.policy_number === p.policy_number);
      const item = claimed?.item ?? open?.item;
      const event = claimed ? claimed.event : (open?.event ?? null);
      return el('li', item ? ticketLabel(item, event, amount) : t('claimPolicy', { policy: p.policy_number, reference: p.reference_number, amount }));
    }),
  );
  $('claim-description').textContent = claim.text_erased ? t('erased') : claim.description || '';
  $('claim-messages').replaceChildren(
    ...claim.messages.map((m) => messageItem(m.from === 'operator' ? 'messageFromTeam' : 'messageFromYou', when(m.at), m.text)),
  );
  $('no-messages').hidden = claim.messages.length > 0;
  $('claim-history').replaceChildren(
    ...claim.history.map((h) => el('li', t(h.by === 'operator' ? 'historyByTeam' : 'historyByYou', { status: statusLabel(h.status), date: when(h.at) }))),
  );
  $('withdraw').hidden = !OPEN.includes(claim.status);
  $('upload-box').hidden = !OPEN.includes(claim.status);
  $('respond-form').hidden = claim.status !== 'DocumentsRequested';
}
/**
 * A message in its sentence ("On 3 May, you wrote: …"), its text isolated in a <bdi>: written in
 * one direction, it keeps its own order inside a sentence in the other (an English message on the
 * Arabic page ends with its full stop, not begins with it).
 */
function messageItem(key: string, date: string, text: string): HTMLElement {
  const MARK = '\u0000';
  const [before = '', after = ''] = t(key, { date, text: MARK }).split(MARK);
  const own = document.createElement('bdi');
  own.textContent = text;
  const item = el('li');
  item.append(before, own, after);
  return item;
}
/** The claim shown now: every step-3 button is on screen only with one. */
const shown = (): Claim => {
  if (!current) throw new LocalError(() => t('openFirst'));
  return current;
};
$('refresh').addEventListener(
  'click',
  () =>
    void act(async () => {
      const before = shown().status;
      const claim = await api<Claim>('GET', claimPath(shown().claim_id));
      showClaim(claim);
      announce(t(claim.status === before ? 'stillStatus' : 'nowStatus', { status: statusLabel(claim.status) }));
    }),
);
$('withdraw').addEventListener('click', () => {
  if (!window.confirm(t('confirmWithdraw'))) return;
  void act(async () => {
    const claim = await api<Claim>('POST', claimPath(shown().claim_id, '/withdraw'));
    showClaim(claim);
    $('refresh').focus();
    announce(t('withdrawn'));
  });
});
$('respond-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void act(
    async () => {
      const message = $<HTMLTextAreaElement>('respond-message').value;
      if (!message.trim()) throw new LocalError(() => t('writeAnswer'), { param: 'message' });
      const claim = await api<Claim>('POST', claimPath(shown().claim_id, '/respond'), { message });
      $<HTMLFormElement>('respond-form').reset();
      updateAnswerCount();
      showClaim(claim);
      $('refresh').focus();
      announce(t('answerSent', { status: statusLabel(claim.status) }));
    },
    { message: () => $('respond-message') },
  );
});
// Back to the order: the session is opened again, so the list of claims and tickets is current.
$('back').addEventListener('click', () => void act(async () => showOrder(await openSession()), {}));

// Documents: each file goes straight to S3 with the presigned POST the API answers, with a progress
// bar; its status follows as the service checks and scans it (read again until it is decided).
const FILE_TONES: Record<EvidenceFile['status'], 'ok' | 'bad' | undefined> = {
  awaiting_upload: undefined,
  pending: undefined,
  clean: 'ok',
  infected: 'bad',
  rejected: 'bad',
};
/** Status reads after an upload, this far apart, until every file is decided. */
const STATUS_READS = 30;
const STATUS_READ_MS = 1000;
const stateText = (file: EvidenceFile): string =>
  file.status === 'rejected' && file.rejection
    ? t('refusedBecause', { reason: Object.hasOwn(ENGLISH, 'rejection.' + file.rejection) ? t('rejection.' + file.rejection) : file.rejection })
    : Object.hasOwn(ENGLISH, 'file.' + file.status)
      ? t('file.' + file.status)
      : file.status;

/** The files uploaded from this page: their rows keep a full progress bar. */
const uploadedHere = new Set<string>();
function fileRow(fileId: string, name: string): { state: HTMLElement; progress: HTMLProgressElement | null } {
  const item = el('li');
  item.dataset.fileId = fileId;
  const state = el('span');
  state.className = 'state';
  item.append(el('span', name), state);
  let progress: HTMLProgressElement | null = null;
  if (uploadedHere.has(fileId)) {
    progress = el('progress');
    progress.max = 100;
    progress.value = 100;
    progress.setAttribute('aria-label', t('uploadOf', { name }));
    item.append(progress);
  }
  $('file-list').append(item);
  $('no-files').hidden = true;
  return { state, progress };
}
/** The claim's files as last read: the language switch draws them again. */
let files: EvidenceFile[] = [];
function showFiles(read: EvidenceFile[]): void {
  files = read;
  $('file-list').replaceChildren();
  for (const file of read) {
    const { state } = fileRow(file.file_id, file.filename);
    state.textContent = stateText(file);
    state.className = 'state' + (FILE_TONES[file.status] ? ' ' + FILE_TONES[file.status] : '');
  }
  $('no-files').hidden = read.length > 0;
}
async function readFiles(claimId: string): Promise<EvidenceFile[]> {
  const read = (await api<{ data: EvidenceFile[] }>('GET', claimPath(claimId, '/files'))).data;
  if (current?.claim_id === claimId) showFiles(read);
  return read;
}

/** Posts one file's bytes with its presigned POST, reporting progress; resolves when S3 has them. */
function post(upload: EvidenceUpload['upload'], file: File, progress: HTMLProgressElement): Promise<void> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
    form.append('file', file);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', upload.url);
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) progress.value = Math.round((event.loaded / event.total) * 100);
    });
    xhr.addEventListener('load', () =>
      xhr.status >= 200 && xhr.status < 300 ? resolve() : reject(new LocalError(() => t('storageRefused', { name: file.name, status: xhr.status }))),
    );
    xhr.addEventListener('error', () => reject(new LocalError(() => t('uploadFailed', { name: file.name }))));
    xhr.send(form);
  });
}

// The picker's own words (the browser's button would speak the browser's language): what is chosen, by name or by count.
const filePicker = $<HTMLInputElement>('files');
function sayChosen(): void {
  const chosen = Array.from(filePicker.files ?? []);
  $('files-chosen').textContent = chosen.length === 0 ? t('noFileChosen') : chosen.length === 1 ? chosen[0]!.name : tr.plural('filesChosen', chosen.length);
}
filePicker.addEventListener('change', sayChosen);
$('pick').addEventListener('click', () => filePicker.click());

$('upload').addEventListener('click', () => {
  const picker = filePicker;
  const chosen = Array.from(picker.files ?? []).slice(0, 10);
  void act(
    async () => {
      const claim = shown();
      if (chosen.length === 0) throw new LocalError(() => t('chooseDocuments'), { param: 'files' });
      announce(chosen.length === 1 ? t('uploadingOne', { name: chosen[0]!.name }) : tr.plural('uploadingMany', chosen.length));
      let uploaded = 0;
      for (const file of chosen) {
        const asked = await api<EvidenceUpload>('POST', claimPath(claim.claim_id, '/files'), {
          filename: file.name,
          content_type: file.type,
          size: file.size,
        });
        uploadedHere.add(asked.file_id);
        const row = fileRow(asked.file_id, file.name);
        row.progress!.value = 0;
        row.state.textContent = t('uploadingRow');
        await post(asked.upload, file, row.progress!);
        row.progress!.value = 100;
        row.state.textContent = t('uploadedChecking');
        uploaded++;
      }
      picker.value = '';
      sayChosen();
      announce(tr.plural('uploaded', uploaded));
      // The service checks and scans each within seconds: read until none is waiting.
      let read = await readFiles(claim.claim_id);
      for (let reads = 0; reads < STATUS_READS && read.some((f) => f.status === 'pending' || f.status === 'awaiting_upload'); reads++) {
        await new Promise((resolve) => setTimeout(resolve, STATUS_READ_MS));
        read = await readFiles(claim.claim_id);
      }
      const refused = read.filter((f) => f.status === 'rejected' || f.status === 'infected').length;
      announce(read.some((f) => f.status === 'pending') ? t('stillChecking') : refused > 0 ? tr.plural('refused', refused) : t('received'));
    },
    { files: () => picker, filename: () => picker, content_type: () => picker, size: () => picker },
  );
});

// The customer's language: its catalogue (English is built in; another is fetched once, within
// CATALOGUE_TIMEOUT_MS, else English), the page's texts and what it shows drawn again in it.
async function catalogueOf(locale: Locale): Promise<Catalogue | undefined> {
  const file = __OP_CLAIM_FILES__[locale];
  return file ? fetchCatalogue('/' + file) : undefined;
}
async function speak(asked: (string | null | undefined)[]): Promise<void> {
  const locale = negotiate(asked);
  let catalogue: Catalogue | undefined = ENGLISH;
  if (locale !== 'en') {
    if (!catalogues.has(locale)) catalogues.set(locale, catalogueOf(locale));
    catalogue = await catalogues.get(locale);
  }
  tr = catalogue ? translator(locale, catalogue, ENGLISH, formatLocale(asked, locale)) : translator('en', ENGLISH, ENGLISH);
  redraw();
}
function redraw(): void {
  const root = document.documentElement;
  root.lang = tr.locale;
  root.dir = isRightToLeft(tr.locale) ? 'rtl' : 'ltr';
  document.title = t('title');
  for (const node of Array.from(document.querySelectorAll<HTMLElement>('[data-t]'))) node.textContent = t(node.dataset.t!);
  failure.unreachable = t('unreachable');
  failure.failed = t('failed');
  $<HTMLSelectElement>('language').value = tr.locale;
  const demo = document.getElementById('demo-checkout');
  if (demo) demo.setAttribute('href', tr.locale === 'en' ? '/' : '/?locale=' + encodeURIComponent(tr.locale));
  updateCount();
  updateAnswerCount();
  sayChosen();
  // What the customer sees now, in the new words; nothing moves, nothing is sent.
  if (session && !$('order').hidden) drawOrder(session, true);
  if (current && !$('claim').hidden) {
    drawClaim(current);
    showFiles(files);
  }
  if (shownError && $('error').textContent) $('error').textContent = shownError.say(); // not one the customer has since put right
}
// The browser's own checks (a field left empty, an e-mail without its @) speak the customer's language, not the browser's.
document.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('form [required], input[type=email]').forEach((field) => {
  field.addEventListener('invalid', () => {
    field.setCustomValidity('');
    if (!field.validity.valid)
      field.setCustomValidity(t(field.validity.valueMissing ? (field instanceof HTMLSelectElement ? 'chooseReason' : 'fillIn') : 'emailInvalid'));
  });
  const valid = () => field.setCustomValidity('');
  field.addEventListener('input', valid);
  field.addEventListener('change', valid);
});
const languageSwitch = $<HTMLSelectElement>('language');
languageSwitch.addEventListener('change', () => {
  const lang = languageSwitch.value;
  announce('');
  history.replaceState(null, '', addressFor(lang));
  void speak([lang]);
});
// First paint: a language other than English hides the page until its words are here (at most CATALOGUE_TIMEOUT_MS).
const first: (string | null | undefined)[] = [params.get('lang'), ...(navigator.languages ?? [navigator.language])];
if (negotiate(first) !== 'en') {
  document.body.style.visibility = 'hidden';
  void speak(first).finally(() => (document.body.style.visibility = ''));
} else void speak(first);
