import { FAVICON_LINK } from './favicon.js';
import { CLAIM_PAGES_CSS, pageScriptTag } from './page-kit.js';

/**
 * The operator's claims queue at `/admin/claims` of `npm start`: the operator key (kept in
 * sessionStorage, so a reload keeps it and closing the tab forgets it), the queue by status with
 * "Load more", and a review panel with the claim's text and the forms its status allows: a
 * `Submitted` claim is approved, denied or sent back for documents; a `DocumentsRequested` one can
 * only be denied (the customer has not answered; the API allows it 14 days after the request); an
 * `Approved` one is paid; a closed one has no form. After a failed decision or payout the claim is
 * read again, so the panel and its queue row show it as it is now. Every string from the API goes
 * into the DOM as text. Its script is scripts/admin-claims.ts (/assets/admin-claims.js).
 */
export function adminClaimsPage(): string {
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
${pageScriptTag('admin-claims')}
</body>
</html>`;
}
