import { FAVICON_LINK } from './favicon.js';
import { CLAIM_PAGES_CSS, operatorPagesScript } from './page-kit.js';

/**
 * The operator's claims queue at `/admin/claims` of `npm start`: the operator key (kept in
 * sessionStorage, so a reload keeps it and closing the tab forgets it), the queue by status with
 * "Load more", and a review panel with the claim's text and the forms its status allows: a
 * `Submitted` claim is approved, denied or sent back for documents; a `DocumentsRequested` one can
 * only be denied (the customer has not answered; the API allows it 14 days after the request); an
 * `Approved` one is paid; a closed one has no form. After a failed decision or payout the claim is
 * read again, so the panel and its queue row show it as it is now. Every string from the API goes
 * into the DOM as text.
 */
export function adminClaimsPage(): string {
  const kit = operatorPagesScript();
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${FAVICON_LINK}
<title>Claims queue · Order Protection</title>
<style>
${CLAIM_PAGES_CSS}
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 76rem; margin: 2rem auto; padding: 0 1rem; color: #1d2433; }
  label, legend { font-weight: 600; }
  input[type=text], input[type=password], select, textarea { font: inherit; padding: .4rem; border: 1px solid #6b7386; border-radius: .3rem; }
  textarea { display: block; width: 100%; box-sizing: border-box; min-height: 5rem; margin: .25rem 0 .75rem; }
  .filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; }
  .filters div { display: flex; flex-direction: column; }
  fieldset label { font-weight: normal; margin-right: 1rem; cursor: pointer; }
  .field { margin-bottom: .75rem; }
  .field label { display: block; }
  .hint { color: #4a5366; font-size: .9rem; margin: .25rem 0 .5rem; }
  button { font: inherit; padding: .4rem 1rem; border-radius: .4rem; border: 1px solid #2b5fd9; background: #2b5fd9; color: white; cursor: pointer; }
  table { width: 100%; border-collapse: collapse; margin: 1rem 0; }
  .wide { overflow-x: auto; } /* on a narrow screen the queue scrolls, not the page */
  td, th { padding: .4rem; border-bottom: 1px solid #dde; text-align: left; vertical-align: top; }
  td.money { text-align: right; }
  code { font-size: .9rem; }
  .sub { display: block; color: #4a5366; font-size: .85rem; }
  td ul { margin: 0; padding-left: 1.1rem; }
  td.items { min-width: 14rem; }
  td.created { white-space: nowrap; }
  #review { border-top: 2px solid #2b5fd9; margin-top: 1.5rem; }
  .text { white-space: pre-wrap; background: #f7f8fb; padding: .5rem 1rem; border-radius: .4rem; }
  .vh { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap; }
</style>
</head>
<body>
<nav><a href="/dashboard">Conversion dashboard</a> · <a href="/admin/bordereaux">Bordereaux</a></nav>
<main>
<h1>Claims queue</h1>
<div id="error" class="error" role="alert" tabindex="-1"></div>
<div id="announce" class="notice" role="status" aria-live="polite"></div>
<form id="load-form" class="filters">
  <div>
    <label for="operator-key">Operator key</label>
    <input type="password" id="operator-key" name="operator_key" required autocomplete="off" spellcheck="false" aria-describedby="operator-key-hint">
  </div>
  <div>
    <label for="status-filter">Status</label>
    <select id="status-filter" name="status">
      <option value="Submitted" selected>Submitted</option>
      <option value="DocumentsRequested">Documents requested</option>
      <option value="Approved">Approved</option>
      <option value="Denied">Denied</option>
      <option value="Withdrawn">Withdrawn</option>
      <option value="Paid">Paid</option>
    </select>
  </div>
  <button type="submit">Load</button>
</form>
<p class="hint" id="operator-key-hint">The key npm start printed (also in .local/operator.json). Kept for this tab only.</p>

<section id="queue" aria-labelledby="queue-title" hidden>
<h2 id="queue-title" tabindex="-1">Claims</h2>
<div class="wide">
<table aria-labelledby="queue-title">
  <thead><tr><th scope="col">Order</th><th scope="col">Merchant</th><th scope="col">Items and events</th><th scope="col">Created</th><th scope="col">Status</th><th scope="col">Reason</th><th scope="col">Amount claimed</th><th scope="col">Decided by</th><th scope="col"><span class="vh">Actions</span></th></tr></thead>
  <tbody id="rows"></tbody>
</table>
</div>
<p id="queue-count" role="status"></p>
<button type="button" id="load-more" class="secondary" hidden>Load more</button>
</section>

<section id="review" aria-labelledby="review-title" hidden>
<h2 id="review-title" tabindex="-1">Claim</h2>
<dl>
  <div><dt>Status</dt><dd id="review-status"></dd></div>
  <div><dt>Reason</dt><dd id="review-reason"></dd></div>
  <div><dt>Merchant</dt><dd id="review-client"></dd></div>
  <div><dt>Order number</dt><dd id="review-order"></dd></div>
  <div><dt>Service order id</dt><dd id="review-order-id"></dd></div>
  <div><dt>Amount claimed</dt><dd id="review-amount"></dd></div>
  <div><dt>Amount approved</dt><dd id="review-approved"></dd></div>
  <div><dt>Payout reference</dt><dd id="review-payout"></dd></div>
  <div><dt>Created</dt><dd id="review-created"></dd></div>
  <div><dt>Decided by</dt><dd id="review-decided-by"></dd></div>
  <div><dt>Payout recorded by</dt><dd id="review-paid-by"></dd></div>
</dl>
<h3>Description</h3>
<p id="review-description" class="text"></p>
<h3>Policies</h3>
<table aria-label="Policies of the claim">
  <thead><tr><th scope="col">Policy</th><th scope="col">Item</th><th scope="col">Event</th><th scope="col">Ticket reference</th><th scope="col">Coverage</th></tr></thead>
  <tbody id="review-policies"></tbody>
</table>
<h3>Messages</h3>
<p id="review-no-messages">No messages.</p>
<ol id="review-messages"></ol>
<h3>History</h3>
<ol id="review-history"></ol>

<form id="decision-form" hidden>
  <h3>Decide the claim</h3>
  <fieldset id="decision-choices" aria-describedby="decision-hint">
    <legend>Decision</legend>
    <p class="hint" id="decision-hint" hidden></p>
    <div id="decision-options"></div>
  </fieldset>
  <div class="field" id="amount-field">
    <label for="amount">Amount to approve</label>
    <input type="text" id="amount" name="amount" inputmode="decimal" autocomplete="off" aria-describedby="amount-hint">
    <p class="hint" id="amount-hint">Used when approving; at most the claimed policies' coverage.</p>
  </div>
  <div class="field">
    <label for="note">Note to the customer</label>
    <textarea id="note" name="note" maxlength="4000" aria-describedby="note-hint"></textarea>
    <p class="hint" id="note-hint"></p>
  </div>
  <button type="submit">Submit decision</button>
</form>

<form id="paid-form" hidden>
  <h3>Record payout</h3>
  <div class="field">
    <label for="payout-reference">Payout reference</label>
    <input type="text" id="payout-reference" name="payout_reference" required maxlength="100" autocomplete="off">
  </div>
  <button type="submit">Record payout</button>
</form>
</section>
</main>
<script>
(() => {
  // page-kit.ts: REASONS, STATUSES, $, el, label, money, when, announce, clearError, showError, request, run; the operator key and api().
${kit}
  const DONE = { approve: 'approved', deny: 'denied', request_documents: 'sent back to the customer for documents' };
  // The decisions a claim's status allows (the API refuses any other): value, label, the note's hint.
  const DECISIONS = {
    Submitted: {
      choices: [
        ['approve', 'Approve'],
        ['deny', 'Deny'],
        ['request_documents', 'Request documents'],
      ],
      note: 'Required to request documents; the customer sees it.',
    },
    DocumentsRequested: { choices: [['deny', 'Deny (the customer has not answered)']], note: 'Optional; the customer sees it.' },
  };
  const DOCUMENTS_WAIT_MS = 14 * 24 * 60 * 60 * 1000;

  // What the operator view adds to a claim: its order, its merchant, each policy's item and event, its deciders.
  const orderOf = (claim) => claim.order_number || claim.service_order_id;
  // A test client's claim moves no real money: it says so wherever its merchant is named.
  const merchantOf = (claim) => (claim.client_name || claim.client_id) + (claim.client_mode === 'test' ? ' (test client)' : '');
  const eventOf = (event) => (event ? event.name + ', ' + event.start_date + ' ' + event.start_time.slice(0, 5) : '–');
  const itemOf = (policy) => (policy.item ? policy.item.name : policy.reference_number);
  const staff = (identity) => identity || '–';
  // In the queue, the name an IAM identity ends with (the user, or the role's session name); the panel shows it whole.
  const staffName = (identity) => (identity ? identity.slice(identity.lastIndexOf('/') + 1) : '–');
  // A decision's or payout's answer leaves out the claim's context (it never changes): the panel keeps what it showed.
  const moved = (shown, claim) => ({
    ...claim,
    client_name: shown.client_name,
    client_mode: shown.client_mode,
    order_number: shown.order_number,
    policies: shown.policies,
  });

  // The queue.
  let listed = { status: 'Submitted', cursor: null, count: 0 };
  function row(claim) {
    const tr = document.createElement('tr');
    tr.dataset.claimId = claim.claim_id;
    const order = el('td', orderOf(claim));
    order.className = 'order-number';
    order.append(el('code', claim.claim_id));
    order.lastChild.className = 'sub';
    const merchant = el('td', merchantOf(claim));
    merchant.className = 'merchant';
    const items = el('td');
    items.className = 'items';
    const list = el('ul');
    list.append(...claim.policies.map((p) => el('li', itemOf(p) + ' · ' + eventOf(p.event))));
    items.append(list);
    const created = el('td', when(claim.created));
    created.className = 'created';
    const decider = el('td', staffName(claim.decided_by));
    decider.className = 'decided-by';
    const amount = el('td', money(claim.amount_claimed, claim.currency));
    amount.className = 'money';
    const status = el('td', label(STATUSES, claim.status));
    status.className = 'status';
    const action = el('td');
    const review = el('button', 'Review');
    review.type = 'button';
    review.className = 'secondary';
    review.append(el('span', ' the claim on order ' + orderOf(claim)));
    review.lastChild.className = 'vh';
    review.addEventListener('click', () => void run(async () => showReview(await api('GET', '/api/v2/admin/claims/' + encodeURIComponent(claim.claim_id)), true)));
    action.append(review);
    tr.append(order, merchant, items, created, status, el('td', label(REASONS, claim.reason)), amount, decider, action);
    return tr;
  }
  async function loadPage(first) {
    const query = new URLSearchParams({ status: listed.status, limit: '20' });
    if (!first) query.set('cursor', listed.cursor);
    const page = await api('GET', '/api/v2/admin/claims?' + query);
    if (first) {
      $('rows').replaceChildren();
      listed.count = 0;
      $('review').hidden = true;
    }
    $('rows').append(...page.data.map(row));
    listed.count += page.data.length;
    listed.cursor = page.next_cursor;
    $('load-more').hidden = !page.has_more;
    const what = label(STATUSES, listed.status);
    $('queue-title').textContent = what + ' claims';
    $('queue-count').textContent = listed.count === 0 ? 'No ' + what.toLowerCase() + ' claims.' : listed.count + ' shown, oldest first' + (page.has_more ? '; more to load.' : '.');
    $('queue').hidden = false;
    announce(first ? '' : 'More claims loaded.');
  }
  $('load-form').addEventListener('submit', (event) => {
    event.preventDefault();
    sessionStorage.setItem(STORED_KEY, keyField.value);
    listed = { status: $('status-filter').value, cursor: null, count: 0 };
    void run(async () => {
      await loadPage(true);
      $('queue-title').focus();
    });
  });
  $('load-more').addEventListener('click', () => void run(() => loadPage(false)));

  // One claim.
  let current = null;
  function showReview(claim, focus) {
    current = claim;
    $('review-title').textContent = 'Claim on order ' + orderOf(claim) + ' (' + claim.claim_id + ')';
    $('review-status').textContent = label(STATUSES, claim.status);
    $('review-status').dataset.status = claim.status;
    $('review-reason').textContent = label(REASONS, claim.reason);
    $('review-client').textContent = merchantOf(claim) + (claim.client_name ? ' · ' + claim.client_id : '');
    $('review-order').textContent = claim.order_number || '–';
    $('review-order-id').textContent = claim.service_order_id;
    $('review-amount').textContent = money(claim.amount_claimed, claim.currency);
    $('review-approved').textContent = claim.amount_approved === null ? '–' : money(claim.amount_approved, claim.currency);
    $('review-payout').textContent = claim.payout_reference || '–';
    $('review-created').textContent = when(claim.created);
    $('review-decided-by').textContent = staff(claim.decided_by);
    $('review-paid-by').textContent = staff(claim.paid_by);
    $('review-description').textContent = claim.text_erased ? '(erased 90 days after the claim closed)' : claim.description || '';
    $('review-policies').replaceChildren(
      ...claim.policies.map((p) => {
        const tr = document.createElement('tr');
        const coverage = el('td', money(p.coverage_amount, claim.currency));
        coverage.className = 'money';
        tr.append(el('td', p.policy_number), el('td', p.item ? p.item.name : '–'), el('td', eventOf(p.event)), el('td', p.reference_number), coverage);
        return tr;
      }),
    );
    $('review-messages').replaceChildren(...claim.messages.map((m) => el('li', (m.from === 'operator' ? 'Operator' : 'Customer') + ', ' + when(m.at) + ': ' + m.text)));
    $('review-no-messages').hidden = claim.messages.length > 0;
    $('review-history').replaceChildren(...claim.history.map((h) => el('li', label(STATUSES, h.status) + ', ' + when(h.at) + ', by the ' + h.by)));

    // The forms are built again for another claim or a new status; the same claim read again keeps what was typed.
    const shown = claim.claim_id + ' ' + claim.status;
    if (focus || shown !== formsFor) {
      formsFor = shown;
      showForms(claim);
    }
    $('review').hidden = false;
    // The queue's row follows the claim.
    const tr = Array.from($('rows').rows).find((r) => r.dataset.claimId === claim.claim_id);
    if (tr) {
      tr.querySelector('.status').textContent = label(STATUSES, claim.status);
      tr.querySelector('.decided-by').textContent = staffName(claim.decided_by);
    }
    if (focus) $('review-title').focus();
  }
  let formsFor = null;
  function showForms(claim) {
    const allowed = DECISIONS[claim.status];
    $('decision-form').reset();
    $('paid-form').reset();
    $('decision-form').hidden = !allowed;
    $('paid-form').hidden = claim.status !== 'Approved';
    const choices = allowed ? allowed.choices : [];
    $('decision-options').replaceChildren(
      ...choices.map(([value, text]) => {
        const choice = el('label');
        const radio = el('input');
        radio.type = 'radio';
        radio.name = 'decision';
        radio.value = value;
        radio.checked = choices.length === 1;
        choice.append(radio, ' ' + text);
        return choice;
      }),
    );
    $('amount-field').hidden = !choices.some(([value]) => value === 'approve');
    $('amount').value = claim.amount_claimed;
    $('note-hint').textContent = allowed ? allowed.note : '';
    // Awaiting documents: when they were asked for, and from when the API lets the claim be denied without them.
    const asked = claim.status === 'DocumentsRequested' ? claim.history.findLast((h) => h.status === 'DocumentsRequested') : null;
    $('decision-hint').hidden = !asked;
    $('decision-hint').textContent = asked
      ? 'Documents were requested on ' +
        when(asked.at) +
        '. If the customer has not answered, the claim can be denied from ' +
        when(new Date(Date.parse(asked.at) + DOCUMENTS_WAIT_MS).toISOString()) +
        ', 14 days after the request.'
      : '';
  }
  // A decision or payout the API refused (4xx): the claim is read again, so the panel and its row show it
  // as it is now (decided by a colleague, say); then the refusal is shown (run's showError) over it.
  async function post(path, body) {
    try {
      return await api('POST', path, body);
    } catch (err) {
      if (err && err.status >= 400 && err.status < 500) {
        try {
          showReview(await api('GET', '/api/v2/admin/claims/' + encodeURIComponent(current.claim_id)), false);
        } catch {
          // The refusal is what the operator needs to see; the panel stays as it was.
        }
      }
      throw err;
    }
  }
  const radios = () => Array.from(document.querySelectorAll('#decision-form input[name=decision]'));
  $('decision-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const chosen = radios().find((r) => r.checked);
    void run(
      async () => {
        if (!chosen) throw { message: 'Choose a decision: approve, deny or request documents.', param: 'decision' };
        // Denying an unanswered claim: the API would also deny it if the customer has answered since
        // (it is Submitted again), so the claim is read first and a moved one shown instead.
        if (formsFor === current.claim_id + ' DocumentsRequested') {
          const now = await api('GET', '/api/v2/admin/claims/' + encodeURIComponent(current.claim_id));
          if (now.status !== 'DocumentsRequested') {
            showReview(now, false);
            throw { message: 'The claim changed: it is now ' + label(STATUSES, now.status) + '. Nothing was decided; review it again.' };
          }
        }
        const body = { decision: chosen.value };
        const amount = $('amount').value.trim();
        const note = $('note').value.trim();
        if (chosen.value === 'approve' && amount) body.amount = amount;
        if (note) body.note = note;
        const claim = moved(current, await post('/api/v2/admin/claims/' + encodeURIComponent(current.claim_id) + '/decision', body));
        showReview(claim, false);
        $('review-title').focus();
        announce('Claim ' + claim.claim_id + ' ' + DONE[chosen.value] + '. Status: ' + label(STATUSES, claim.status) + '.');
      },
      { decision: () => radios()[0], amount: () => $('amount'), note: () => $('note') },
    );
  });
  $('paid-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void run(
      async () => {
        const claim = moved(
          current,
          await post('/api/v2/admin/claims/' + encodeURIComponent(current.claim_id) + '/paid', { payout_reference: $('payout-reference').value.trim() }),
        );
        showReview(claim, false);
        $('review-title').focus();
        announce('Payout recorded for claim ' + claim.claim_id + '. Status: ' + label(STATUSES, claim.status) + '.');
      },
      { payout_reference: () => $('payout-reference') },
    );
  });
})();
</script>
</body>
</html>`;
}
