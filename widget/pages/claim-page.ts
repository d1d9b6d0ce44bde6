import { FAVICON_LINK } from './favicon.js';
import { CLAIM_PAGES_CSS, claimPagesScript } from './page-kit.js';

/**
 * The customer's claim page at `/claim` of `npm start`: find the order (order number, e-mail and
 * the shop's public key, which `?pk=` overrides), file a claim for some of its policies, then
 * follow it (refresh, withdraw, answer a request for documents). The claim token lives in a
 * variable of the page only; every string from the API goes into the DOM as text. Texts are counted
 * as the API counts them (code points, at most 2000); an ended session (401 on the token) offers to
 * find the order again; the customer sees statuses by their labels only, never the API's enum.
 */
export function claimPage(publicKey: string): string {
  const key = JSON.stringify(publicKey).replace(/</g, '\\u003c');
  // The helpers shared with /admin/claims (page-kit.ts), with this page's words for a failed request.
  const kit = claimPagesScript({
    unreachable: 'The claims service could not be reached. Check your connection and try again.',
    failed: 'The claims service answered {status}. Please try again.',
    answerMessage: false,
  });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${FAVICON_LINK}
<title>Claim a refund · Order Protection</title>
<style>
${CLAIM_PAGES_CSS}
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; color: #1d2433; }
  label, legend { display: block; font-weight: 600; }
  input[type=text], input[type=email], select, textarea { display: block; width: 100%; box-sizing: border-box; font: inherit; padding: .4rem; margin: .25rem 0 .75rem; border: 1px solid #6b7386; border-radius: .3rem; }
  textarea { min-height: 6rem; }
  .choice { display: flex; gap: .5rem; align-items: baseline; padding: .25rem 0; }
  .choice label { font-weight: normal; cursor: pointer; }
  .hint { color: #4a5366; font-size: .9rem; margin: -.5rem 0 .75rem; }
  button { font: inherit; padding: .5rem 1.25rem; border-radius: .4rem; border: 1px solid #2b5fd9; background: #2b5fd9; color: white; cursor: pointer; }
  .actions { display: flex; flex-wrap: wrap; gap: .5rem; }
  button:disabled { opacity: .6; cursor: not-allowed; }
  .count.too-long { color: #8a1c14; font-weight: 600; border-left: 4px solid #b3261e; padding-left: .5rem; }
  ol, ul { padding-left: 1.25rem; }
</style>
</head>
<body>
<nav><a href="/">Demo checkout</a></nav>
<main>
<h1>Claim a refund</h1>
<div id="error" class="error" role="alert" tabindex="-1"></div>
<p id="session-ended" hidden><button type="button" id="find-again">Find my order again</button></p>
<div id="announce" class="notice" role="status" aria-live="polite"></div>

<section id="find" aria-labelledby="find-title">
<h2 id="find-title" tabindex="-1">Find your order</h2>
<p>Enter the order number and the e-mail address you used at checkout.</p>
<form id="find-form">
  <label for="order-number">Order number</label>
  <input type="text" id="order-number" name="order_number" required maxlength="255" autocomplete="off">
  <label for="email">E-mail</label>
  <input type="email" id="email" name="email" required maxlength="255" autocomplete="email">
  <label for="public-key">Shop's public key</label>
  <p class="hint" id="public-key-hint">Filled in for this shop; change it only if the shop gave you another.</p>
  <input type="text" id="public-key" name="public_key" required maxlength="255" autocomplete="off" spellcheck="false" aria-describedby="public-key-hint">
  <button type="submit">Find my order</button>
</form>
</section>

<section id="order" aria-labelledby="order-title" hidden>
<h2 id="order-title" tabindex="-1">File a claim</h2>
<form id="claim-form">
  <fieldset id="policies">
    <legend>Tickets to claim for</legend>
    <div id="policy-list"></div>
  </fieldset>
  <p id="no-policies" hidden>No ticket of this order can be claimed right now.</p>
  <label for="reason">Reason</label>
  <select id="reason" name="reason" required>
    <option value="">Choose a reason</option>
    <option value="illness">Illness</option>
    <option value="injury">Injury</option>
    <option value="travel_disruption">Travel disruption</option>
    <option value="bereavement">Bereavement</option>
    <option value="severe_weather">Severe weather</option>
    <option value="other">Other</option>
  </select>
  <label for="description">What happened?</label>
  <textarea id="description" name="description" required maxlength="4000" aria-describedby="description-count"></textarea>
  <p class="hint count" id="description-count">0 of 2000 characters</p>
  <button type="submit" id="submit-claim">Submit claim</button>
</form>
<h3>Claims on this order</h3>
<p id="no-claims">No claims yet.</p>
<ul id="claim-list"></ul>
<p><button type="button" id="another-order" class="secondary">Find another order</button></p>
</section>

<section id="claim" aria-labelledby="claim-title" hidden>
<h2 id="claim-title" tabindex="-1">Your claim</h2>
<dl>
  <div><dt>Claim</dt><dd id="claim-id"></dd></div>
  <div><dt>Status</dt><dd id="claim-status"></dd></div>
  <div><dt>Reason</dt><dd id="claim-reason"></dd></div>
  <div><dt>Amount claimed</dt><dd id="claim-amount"></dd></div>
  <div><dt>Amount approved</dt><dd id="claim-approved"></dd></div>
  <div id="payout-row"><dt>Payout reference</dt><dd id="claim-payout"></dd></div>
  <div><dt>Tickets</dt><dd><ul id="claim-policies"></ul></dd></div>
</dl>
<h3>Your description</h3>
<p id="claim-description"></p>
<h3>Messages</h3>
<p id="no-messages">No messages yet.</p>
<ol id="claim-messages"></ol>
<h3>History</h3>
<ol id="claim-history"></ol>
<form id="respond-form" hidden>
  <h3>Documents requested</h3>
  <label for="respond-message">Your answer</label>
  <textarea id="respond-message" name="message" required maxlength="4000" aria-describedby="respond-hint respond-count"></textarea>
  <p class="hint" id="respond-hint">Answer the claims team's message above (at most 2000 characters).</p>
  <p class="hint count" id="respond-count">0 of 2000 characters</p>
  <button type="submit" id="send-answer">Send answer</button>
</form>
<p class="actions">
  <button type="button" id="refresh">Refresh status</button>
  <button type="button" id="withdraw" class="secondary">Withdraw claim</button>
  <button type="button" id="back" class="secondary">Back to your order</button>
</p>
</section>
</main>
<script>
(() => {
  // page-kit.ts: REASONS, STATUSES, $, el, label, money, when, announce, clearError, showError, request, run.
${kit}
  const OPEN = ['Submitted', 'DocumentsRequested'];
  const MAX_TEXT = 2000;
  // 401s on the claim token: the session is over (30 minutes) or the token is not one.
  const SESSION_ENDED = ['claim_token_expired', 'invalid_claim_token'];
  // 409s that mean the claim moved on (the claims team decided, say): it is read again and shown.
  const CLAIM_MOVED = {
    claim_decided: (status) => 'The claims team has already decided this claim, so it can no longer be withdrawn. Its status is now: ' + status + '.',
    claim_not_awaiting_documents: (status) => 'The claims team is no longer waiting for an answer on this claim. Its status is now: ' + status + '.',
    claim_changed: (status) => 'Your claim changed while this was being sent. Its status is now: ' + status + '. Check it and try again.',
  };
  // The API's own messages name statuses by their enum (DocumentsRequested); the customer reads the labels.
  const ENUM_WORDS = new RegExp(
    Object.keys(STATUSES)
      .filter((status) => STATUSES[status] !== status)
      .join('|'),
    'g',
  );
  const plain = (text) => text.replace(ENUM_WORDS, (status) => '"' + STATUSES[status] + '"');
  const params = new URLSearchParams(location.search);
  $('public-key').value = params.get('pk') || ${key};
  // The demo checkout links here with its order's number (?order_number=); the customer adds the e-mail.
  if (params.get('order_number')) $('order-number').value = params.get('order_number');

  // The claim token is kept here only: never in storage, gone with the page.
  let token = null;
  let current = null;
  const api = (method, path, body, withToken = true) => request(method, path, body, withToken && token ? 'Bearer ' + token : undefined);

  function show(section) {
    for (const id of ['find', 'order', 'claim']) $(id).hidden = id !== section;
    $(section + '-title').focus();
  }

  // run (page-kit.ts) with this page's handling of what the API refuses: an ended session, a claim
  // that moved on, the API's words for statuses.
  function act(action, fields) {
    return run(async () => {
      $('session-ended').hidden = true;
      try {
        await action();
      } catch (err) {
        throw await explain(err);
      }
    }, fields);
  }
  async function explain(err) {
    if (!err || !err.status) return err;
    if (err.status === 401 && SESSION_ENDED.includes(err.code)) {
      token = null;
      $('session-ended').hidden = false;
      return { message: 'Your session has ended. Find your order again to continue.' };
    }
    if (err.status === 409 && Object.hasOwn(CLAIM_MOVED, err.code) && current) {
      try {
        const claim = await api('GET', '/api/v2/claims/' + encodeURIComponent(current.claim_id));
        showClaim(claim);
        return { message: CLAIM_MOVED[err.code](label(STATUSES, claim.status)) };
      } catch (again) {
        if (again && again.status === 401 && SESSION_ENDED.includes(again.code)) return explain(again);
      }
    }
    return Object.assign({}, err, { message: plain(err.message || '') });
  }
  $('find-again').addEventListener('click', () => {
    token = null;
    current = null;
    $('session-ended').hidden = true;
    clearError();
    announce('');
    show('find'); // the order number, e-mail and key are still filled in
  });

  // Step 1: the order.
  const findFields = { order_number: () => $('order-number'), email: () => $('email'), public_key: () => $('public-key') };
  async function openSession() {
    const session = await api(
      'POST',
      '/api/v2/claims/sessions',
      { order_number: $('order-number').value.trim(), email: $('email').value.trim(), public_key: $('public-key').value.trim() },
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
  function showOrder(session) {
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
    for (const id of ['reason', 'description', 'submit-claim']) $(id).disabled = none;
    updateCount();
    $('claim-list').replaceChildren(
      ...session.claims.map((claim) => {
        const item = el('li', claim.claim_id + ': ' + label(STATUSES, claim.status) + ', ' + money(claim.amount_claimed, claim.currency) + ' claimed on ' + when(claim.created) + ' ');
        const view = el('button', 'View claim');
        view.type = 'button';
        view.className = 'secondary';
        view.setAttribute('aria-label', 'View claim ' + claim.claim_id);
        view.addEventListener('click', () => void act(async () => showClaim(await api('GET', '/api/v2/claims/' + encodeURIComponent(claim.claim_id)))));
        item.append(view);
        return item;
      }),
    );
    $('no-claims').hidden = session.claims.length > 0;
    show('order');
    const n = session.policies.length;
    announce('Order found. ' + (n === 1 ? '1 ticket' : n + ' tickets') + ' can be claimed' + (session.claims.length ? ', ' + session.claims.length + ' claim(s) on file.' : '.'));
  }
  // A text's counter, in characters as the API counts them (code points: an emoji is one, not two);
  // over the limit it says so in the error style, and its form cannot be sent.
  function counter(field, count, submit) {
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
  const updateCount = counter($('description'), $('description-count'), $('submit-claim'));
  const updateAnswerCount = counter($('respond-message'), $('respond-count'), $('send-answer'));
  const boxes = () => Array.from(document.querySelectorAll('#policy-list input'));
  const claimFields = {
    policy_numbers: () => boxes()[0],
    reason: () => $('reason'),
    description: () => $('description'),
  };
  $('claim-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const chosen = boxes().filter((box) => box.checked);
    void act(async () => {
      if (chosen.length === 0) throw { message: 'Choose at least one ticket to claim for.', param: 'policy_numbers' };
      const claim = await api('POST', '/api/v2/claims', { policy_numbers: chosen.map((box) => box.value), reason: $('reason').value, description: $('description').value });
      $('claim-form').reset();
      updateCount();
      showClaim(claim);
      announce('Your claim was submitted. Status: ' + label(STATUSES, claim.status) + '.');
    }, Object.assign({}, claimFields, Object.fromEntries(chosen.map((box) => [box.value, () => box]))));
  });
  $('another-order').addEventListener('click', () => {
    token = null;
    current = null;
    $('session-ended').hidden = true;
    clearError();
    announce('');
    show('find');
  });

  // Step 3: one claim.
  function showClaim(claim) {
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
      ...claim.policies.map((p) => el('li', p.policy_number + ' (ticket ' + p.reference_number + ', covered up to ' + money(p.coverage_amount, claim.currency) + ')')),
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
    $('respond-form').hidden = claim.status !== 'DocumentsRequested';
    if ($('claim').hidden) show('claim');
  }
  $('refresh').addEventListener('click', () =>
    void act(async () => {
      const before = current.status;
      const claim = await api('GET', '/api/v2/claims/' + encodeURIComponent(current.claim_id));
      showClaim(claim);
      announce(
        claim.status === before
          ? 'Status checked: still ' + label(STATUSES, claim.status) + '.'
          : 'Your claim is now ' + label(STATUSES, claim.status) + '.',
      );
    }),
  );
  $('withdraw').addEventListener('click', () => {
    if (!window.confirm('Withdraw this claim? Its tickets can be claimed again later.')) return;
    void act(async () => {
      const claim = await api('POST', '/api/v2/claims/' + encodeURIComponent(current.claim_id) + '/withdraw');
      showClaim(claim);
      $('refresh').focus();
      announce('Your claim was withdrawn.');
    });
  });
  $('respond-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void act(
      async () => {
        const claim = await api('POST', '/api/v2/claims/' + encodeURIComponent(current.claim_id) + '/respond', { message: $('respond-message').value });
        $('respond-form').reset();
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
})();
</script>
</body>
</html>`;
}
