import { FAVICON_LINK } from './favicon.js';
import { CLAIM_PAGES_CSS, pageDataBlock, pageScriptTag } from './page-kit.js';

/**
 * The customer's claim page at `/claim`: find the order (order number and e-mail, for the shop the
 * merchant's claim link names: `/claim?shop=<client_id>#order=<order number>&email=<e-mail>`,
 * shared/claims/claim-link.ts), file a claim for some of its policies, then follow it (refresh,
 * withdraw, answer a request for documents). No key is shown: the shop goes to the API as
 * `client_id`. The order number and e-mail a link carries fill the form and are then dropped
 * from the address bar. The claim token lives in a variable of the page only; every string from
 * the API goes into the DOM as text. Texts are counted as the API counts them (code points, at
 * most 2000); an ended session (401 on the token) offers to find the order again; the customer
 * sees statuses by their labels only, never the API's enum. Its script is scripts/claim.ts
 * (/assets/claim.js). While a claim is open the customer attaches documents: each goes straight
 * to S3 with its presigned POST, with a progress bar, and its status is shown as the service
 * checks and scans it. `demoShop` (npm start's demo client) is the shop when the link names none,
 * and adds the link back to the demo checkout; without it (the deployed page) a link without a
 * shop says to use the shop's claim link.
 */
export function claimPage(demoShop?: string): string {
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
  h2, dd { overflow-wrap: anywhere; } /* a claim id is one long word: it wraps on a phone instead of widening the page */
  .files { list-style: none; padding: 0; }
  .files li { display: grid; grid-template-columns: 1fr auto; gap: .25rem .75rem; align-items: center; padding: .5rem 0; border-bottom: 1px solid #e3e6ee; }
  .files progress { grid-column: 1 / -1; width: 100%; height: .5rem; }
  .files .state { font-size: .9rem; color: #4a5366; }
  .files .state.bad { color: #8a1c14; font-weight: 600; }
  .files .state.ok { color: #1d6b3a; font-weight: 600; }
  input[type=file] { display: block; margin: .25rem 0 .75rem; font: inherit; }
</style>
</head>
<body>
${demoShop ? '<nav><a href="/">Demo checkout</a></nav>' : ''}
<main>
<h1>Claim a refund</h1>
<div id="error" class="error" role="alert" tabindex="-1"></div>
<p id="session-ended" hidden><button type="button" id="find-again">Find my order again</button></p>
<div id="announce" class="notice" role="status" aria-live="polite"></div>

<section id="find" aria-labelledby="find-title">
<h2 id="find-title" tabindex="-1">Find your order</h2>
<p>Enter the order number and the e-mail address you used at checkout.</p>
<p id="no-shop" class="notice" hidden>This page needs your shop's claim link. Open it from your order confirmation e-mail, or ask the shop you bought from for it.</p>
<form id="find-form">
  <label for="order-number">Order number</label>
  <input type="text" id="order-number" name="order_number" required maxlength="255" autocomplete="off">
  <label for="email">E-mail</label>
  <input type="email" id="email" name="email" required maxlength="255" autocomplete="email">
  <button type="submit" id="find-order">Find my order</button>
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
<section id="documents" aria-labelledby="documents-title">
<h3 id="documents-title">Documents</h3>
<p id="no-files">No documents yet.</p>
<ul id="file-list" class="files"></ul>
<div id="upload-box">
  <label for="files">Add documents</label>
  <input type="file" id="files" name="files" multiple accept="application/pdf,image/jpeg,image/png,.pdf,.jpg,.jpeg,.png" aria-describedby="files-hint">
  <p class="hint" id="files-hint">PDF, JPEG or PNG, up to 10 MB each, at most 10 a claim. Each file is checked for viruses before the claims team can open it; photos lose their location and camera details.</p>
  <button type="button" id="upload">Upload documents</button>
</div>
</section>
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
${pageDataBlock({ shop: demoShop ?? null })}
${pageScriptTag('claim')}
</body>
</html>`;
}
