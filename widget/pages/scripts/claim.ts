import { $, claimPagesKit, el, label, money, pageData, PageError, REASONS, STATUSES, when, type Fields, type Method, type Schemas } from './kit.js';

/**
 * The customer's claim page's script (claim-page.ts, served at /assets/claim.js): find the order,
 * file a claim for some of its policies, then follow it (refresh, withdraw, answer a request for
 * documents). The claim token lives in a variable of this script only; every string from the API
 * goes into the DOM as text. The shop comes from the merchant's claim link (`?shop=<client_id>`,
 * else the page's data block: npm start's demo shop) and is sent as `client_id`, never shown.
 */
type Claim = Schemas['Claim'];
type Session = Schemas['ClaimSession'];
type Status = Schemas['ClaimStatus'];
type EvidenceFile = Schemas['EvidenceFile'];
type EvidenceUpload = Schemas['EvidenceUpload'];

// The helpers shared with /admin/claims (kit.ts), with this page's words for a failed request.
const { announce, clearError, request, run } = claimPagesKit({
  unreachable: 'The claims service could not be reached. Check your connection and try again.',
  failed: 'The claims service answered {status}. Please try again.',
  answerMessage: false,
});
const { shop: demoShop } = pageData<{ shop: string | null }>();

const OPEN: Status[] = ['Submitted', 'DocumentsRequested'];
const MAX_TEXT = 2000;
// 401s on the claim token: the session is over (30 minutes) or the token is not one.
const SESSION_ENDED = ['claim_token_expired', 'invalid_claim_token'];
// 409s that mean the claim moved on (the claims team decided, say): it is read again and shown.
const CLAIM_MOVED: Record<string, (status: string) => string> = {
  claim_decided: (status) => 'The claims team has already decided this claim, so it can no longer be withdrawn. Its status is now: ' + status + '.',
  claim_not_awaiting_documents: (status) => 'The claims team is no longer waiting for an answer on this claim. Its status is now: ' + status + '.',
  claim_changed: (status) => 'Your claim changed while this was being sent. Its status is now: ' + status + '. Check it and try again.',
};
// The API's own messages name statuses by their enum (DocumentsRequested); the customer reads the labels.
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
if (orderNumber !== null || linkEmail !== null) history.replaceState(null, '', location.pathname + (linkShop ? '?shop=' + encodeURIComponent(linkShop) : ''));
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
function act(action: () => unknown, fields?: Fields): Promise<void> {
  return run(async () => {
    $('session-ended').hidden = true;
    try {
      await action();
    } catch (err) {
      throw await explain(err);
    }
  }, fields);
}
async function explain(err: unknown): Promise<unknown> {
  if (!(err instanceof PageError) || !err.status) return err;
  if (err.status === 401 && SESSION_ENDED.includes(err.code ?? '')) {
    token = null;
    $('session-ended').hidden = false;
    return new PageError('Your session has ended. Find your order again to continue.');
  }
  const moved = err.code !== undefined && Object.hasOwn(CLAIM_MOVED, err.code) ? CLAIM_MOVED[err.code] : undefined;
  if (err.status === 409 && moved && current) {
    try {
      const claim = await api<Claim>('GET', claimPath(current.claim_id));
      showClaim(claim);
      return new PageError(moved(label(STATUSES, claim.status)));
    } catch (again) {
      if (again instanceof PageError && again.status === 401 && SESSION_ENDED.includes(again.code ?? '')) return explain(again);
    }
  }
  return new PageError(plain(err.message || ''), { code: err.code, param: err.param, status: err.status });
}
function startOver(): void {
  token = null;
  current = null;
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
    announce('Looking for your order…');
    showOrder(await openSession());
  }, findFields);
});

// Step 2: the claimable policies and the order's claims.
function showOrder(session: Session): void {
  const list = $('policy-list');
  list.replaceChildren();
  session.policies.forEach((policy, i) => {
    const row = el('div');
    row.className = 'choice';
    const box = el('input');
    box.type = 'checkbox';
    box.id = 'policy-' + i;
    box.name = 'policy_numbers';
    box.value = policy.policy_number;
    const text = el('label');
    text.htmlFor = box.id;
    const event = policy.event ? ', ' + policy.event.name + ' on ' + policy.event.start_date + ' at ' + policy.event.start_time.slice(0, 5) : '';
    text.textContent = policy.item.name + event + ' (covered up to ' + money(policy.coverage_amount, policy.currency) + ')';
    row.append(box, text);
    list.append(row);
  });
  const none = session.policies.length === 0;
  $('policies').hidden = none;
  $('no-policies').hidden = !none;
  for (const id of ['reason', 'description', 'submit-claim']) $<HTMLInputElement>(id).disabled = none;
  updateCount();
  $('claim-list').replaceChildren(
    ...session.claims.map((claim) => {
      const item = el(
        'li',
        claim.claim_id + ': ' + label(STATUSES, claim.status) + ', ' + money(claim.amount_claimed, claim.currency) + ' claimed on ' + when(claim.created) + ' ',
      );
      const view = el('button', 'View claim');
      view.type = 'button';
      view.className = 'secondary';
      view.setAttribute('aria-label', 'View claim ' + claim.claim_id);
      view.addEventListener('click', () => void act(async () => showClaim(await api<Claim>('GET', claimPath(claim.claim_id)))));
      item.append(view);
      return item;
    }),
  );
  $('no-claims').hidden = session.claims.length > 0;
  show('order');
  const n = session.policies.length;
  announce(
    'Order found. ' +
      (n === 1 ? '1 ticket' : n + ' tickets') +
      ' can be claimed' +
      (session.claims.length ? ', ' + session.claims.length + ' claim(s) on file.' : '.'),
  );
}
// A text's counter, in characters as the API counts them (code points: an emoji is one, not two);
// over the limit it says so in the error style, and its form cannot be sent.
function counter(field: HTMLTextAreaElement, count: HTMLElement, submit: HTMLButtonElement): () => void {
  let over = false;
  const update = () => {
    const n = [...field.value].length;
    const wasOver = over;
    over = n > MAX_TEXT;
    count.textContent = n + ' of ' + MAX_TEXT + ' characters' + (over ? ' — too long' : '');
    count.classList.toggle('too-long', over);
    if (over) field.setAttribute('aria-invalid', 'true');
    else field.removeAttribute('aria-invalid');
    submit.disabled = over || field.disabled;
    if (over && !wasOver) announce('Too long: at most ' + MAX_TEXT + ' characters.');
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
      if (chosen.length === 0) throw new PageError('Choose at least one ticket to claim for.', { param: 'policy_numbers' });
      const claim = await api<Claim>('POST', '/api/v2/claims', {
        policy_numbers: chosen.map((box) => box.value),
        reason: $<HTMLSelectElement>('reason').value,
        description: $<HTMLTextAreaElement>('description').value,
      });
      $<HTMLFormElement>('claim-form').reset();
      updateCount();
      showClaim(claim);
      announce('Your claim was submitted. Status: ' + label(STATUSES, claim.status) + '.');
    },
    { ...claimFields, ...Object.fromEntries(chosen.map((box) => [box.value, () => box])) },
  );
});
$('another-order').addEventListener('click', startOver);

// Step 3: one claim.
function showClaim(claim: Claim): void {
  current = claim;
  $('claim-title').textContent = 'Your claim ' + claim.claim_id;
  $('claim-id').textContent = claim.claim_id;
  $('claim-status').textContent = label(STATUSES, claim.status);
  $('claim-status').dataset.status = claim.status;
  $('claim-reason').textContent = label(REASONS, claim.reason);
  $('claim-amount').textContent = money(claim.amount_claimed, claim.currency);
  $('claim-approved').textContent = claim.amount_approved === null ? 'Not decided yet' : money(claim.amount_approved, claim.currency);
  $('payout-row').hidden = claim.payout_reference === null;
  $('claim-payout').textContent = claim.payout_reference || '';
  $('claim-policies').replaceChildren(
    ...claim.policies.map((p) =>
      el('li', p.policy_number + ' (ticket ' + p.reference_number + ', covered up to ' + money(p.coverage_amount, claim.currency) + ')'),
    ),
  );
  $('claim-description').textContent = claim.text_erased ? 'Erased 90 days after the claim closed.' : claim.description || '';
  $('claim-messages').replaceChildren(
    ...claim.messages.map((m) => el('li', (m.from === 'operator' ? 'Claims team' : 'You') + ', ' + when(m.at) + ': ' + m.text)),
  );
  $('no-messages').hidden = claim.messages.length > 0;
  $('claim-history').replaceChildren(
    ...claim.history.map((h) => el('li', label(STATUSES, h.status) + ', ' + when(h.at) + ', by ' + (h.by === 'operator' ? 'the claims team' : 'you'))),
  );
  $('withdraw').hidden = !OPEN.includes(claim.status);
  $('upload-box').hidden = !OPEN.includes(claim.status);
  $('respond-form').hidden = claim.status !== 'DocumentsRequested';
  if ($('claim').hidden) show('claim');
  void readFiles(claim.claim_id).catch(() => {});
}
/** The claim shown now: every step-3 button is on screen only with one. */
const shown = (): Claim => {
  if (!current) throw new PageError('Find your order and open a claim first.');
  return current;
};
$('refresh').addEventListener(
  'click',
  () =>
    void act(async () => {
      const before = shown().status;
      const claim = await api<Claim>('GET', claimPath(shown().claim_id));
      showClaim(claim);
      announce(
        claim.status === before ? 'Status checked: still ' + label(STATUSES, claim.status) + '.' : 'Your claim is now ' + label(STATUSES, claim.status) + '.',
      );
    }),
);
$('withdraw').addEventListener('click', () => {
  if (!window.confirm('Withdraw this claim? Its tickets can be claimed again later.')) return;
  void act(async () => {
    const claim = await api<Claim>('POST', claimPath(shown().claim_id, '/withdraw'));
    showClaim(claim);
    $('refresh').focus();
    announce('Your claim was withdrawn.');
  });
});
$('respond-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void act(
    async () => {
      const claim = await api<Claim>('POST', claimPath(shown().claim_id, '/respond'), { message: $<HTMLTextAreaElement>('respond-message').value });
      $<HTMLFormElement>('respond-form').reset();
      updateAnswerCount();
      showClaim(claim);
      $('refresh').focus();
      announce('Your answer was sent. Status: ' + label(STATUSES, claim.status) + '.');
    },
    { message: () => $('respond-message') },
  );
});
// Back to the order: the session is opened again, so the list of claims and tickets is current.
$('back').addEventListener('click', () => void act(async () => showOrder(await openSession()), {}));

// Documents: each file goes straight to S3 with the presigned POST the API answers, with a progress
// bar; its status follows as the service checks and scans it (read again until it is decided).
const FILE_STATES: Record<EvidenceFile['status'], { text: string; tone?: 'ok' | 'bad' }> = {
  awaiting_upload: { text: 'Not uploaded' },
  pending: { text: 'Checking for viruses…' },
  clean: { text: 'Received', tone: 'ok' },
  infected: { text: 'Refused: a virus was found, and the file was deleted', tone: 'bad' },
  rejected: { text: 'Refused', tone: 'bad' },
};
const REJECTIONS: Record<string, string> = {
  type_mismatch: 'the file is not the PDF, JPEG or PNG it says it is',
  size_mismatch: 'the file did not arrive whole; upload it again',
  unreadable: 'the file could not be read',
  too_many_files: 'this claim already has 10 documents',
  upload_expired: 'the upload took too long; upload it again',
};
/** Status reads after an upload, this far apart, until every file is decided. */
const STATUS_READS = 30;
const STATUS_READ_MS = 1000;
const stateText = (file: EvidenceFile): string =>
  FILE_STATES[file.status].text + (file.status === 'rejected' && file.rejection ? ': ' + (REJECTIONS[file.rejection] ?? file.rejection) : '');

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
    progress.setAttribute('aria-label', 'Upload of ' + name);
    item.append(progress);
  }
  $('file-list').append(item);
  $('no-files').hidden = true;
  return { state, progress };
}
function showFiles(files: EvidenceFile[]): void {
  $('file-list').replaceChildren();
  for (const file of files) {
    const { state } = fileRow(file.file_id, file.filename);
    state.textContent = stateText(file);
    state.className = 'state' + (FILE_STATES[file.status].tone ? ' ' + FILE_STATES[file.status].tone : '');
  }
  $('no-files').hidden = files.length > 0;
}
async function readFiles(claimId: string): Promise<EvidenceFile[]> {
  const files = (await api<{ data: EvidenceFile[] }>('GET', claimPath(claimId, '/files'))).data;
  if (current?.claim_id === claimId) showFiles(files);
  return files;
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
      xhr.status >= 200 && xhr.status < 300
        ? resolve()
        : reject(new PageError(file.name + ' was not accepted by the storage (' + xhr.status + '). Try again.')),
    );
    xhr.addEventListener('error', () => reject(new PageError(file.name + ' could not be uploaded. Check your connection and try again.')));
    xhr.send(form);
  });
}

$('upload').addEventListener('click', () => {
  const picker = $<HTMLInputElement>('files');
  const chosen = Array.from(picker.files ?? []).slice(0, 10);
  void act(
    async () => {
      const claim = shown();
      if (chosen.length === 0) throw new PageError('Choose the documents to upload first.', { param: 'files' });
      announce('Uploading ' + (chosen.length === 1 ? chosen[0]!.name : chosen.length + ' documents') + '…');
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
        row.state.textContent = 'Uploading…';
        await post(asked.upload, file, row.progress!);
        row.progress!.value = 100;
        row.state.textContent = 'Uploaded; checking for viruses…';
        uploaded++;
      }
      picker.value = '';
      announce(uploaded === 1 ? 'Document uploaded; it is being checked.' : uploaded + ' documents uploaded; they are being checked.');
      // The service checks and scans each within seconds: read until none is waiting.
      let files = await readFiles(claim.claim_id);
      for (let reads = 0; reads < STATUS_READS && files.some((f) => f.status === 'pending' || f.status === 'awaiting_upload'); reads++) {
        await new Promise((resolve) => setTimeout(resolve, STATUS_READ_MS));
        files = await readFiles(claim.claim_id);
      }
      const refused = files.filter((f) => f.status === 'rejected' || f.status === 'infected').length;
      announce(
        files.some((f) => f.status === 'pending')
          ? 'Your documents are still being checked. Refresh the status later.'
          : refused > 0
            ? refused + (refused === 1 ? ' document was refused' : ' documents were refused') + '; the list says why.'
            : 'Your documents were received.',
      );
    },
    { files: () => picker, filename: () => picker, content_type: () => picker, size: () => picker },
  );
});
