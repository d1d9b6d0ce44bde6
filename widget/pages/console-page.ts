import { FAVICON_LINK } from './favicon.js';
import { CLAIM_PAGES_CSS, pageScriptTag } from './page-kit.js';

/**
 * The operator console at `/admin/` (npm start, and deployed as /admin/index.html): one page for
 * every operator duty. Its script (scripts/console.ts, /assets/console.js) reads /config.json,
 * signs the person in (scripts/sign-in.ts: authorization code + PKCE, the token in memory only)
 * and shows the sections their groups allow, moved between by the hash (#claims, #bordereaux,
 * #merchants, #audit) so the page, and the token with it, stays: the claim queue (role `claims`; each claim's
 * age, the search by merchant and order number, the review panel with the forms its status allows),
 * bordereaux (`finance`; the past exports listed, a done one's link on demand), accounts (`finance`: a merchant's statement and
 * balance, its remittances and the form recording one, its terms with the publish form and its preview, suspend and resume),
 * the merchants (every staff role; read-only) and the audit log
 * (`admin`; paged), and staff (`admin`: who may sign in, and "Add a person"). A merchant user is told the
 * console is not theirs and where the portal is. The page holds no data of the server's: it is the
 * same file npm start serves and `npm run build:site` writes. Every string from the API goes into
 * the DOM as text.
 */
export function consolePage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${FAVICON_LINK}
<title>Console · Order Protection</title>
<style>
${CLAIM_PAGES_CSS}
  body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; color: #1d2433; background: #f3f5f9; }
  .topbar { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1.5rem; padding: .6rem 1.5rem; background: #14213d; color: #fff; }
  .brand { display: flex; align-items: center; gap: .5rem; font-weight: 700; font-size: 1.05rem; white-space: nowrap; }
  .brand img { display: block; }
  .brand .product { font-weight: 400; color: #c9d3ea; border-left: 1px solid #4a5a80; padding-left: .5rem; }
  .topbar nav { margin: 0; }
  .topbar ul { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem; margin: 0; padding: 0; }
  .topbar nav a { display: block; color: #e3e9f8; text-decoration: none; padding: .4rem .8rem; border-radius: .4rem; }
  .topbar nav a:hover { background: #24355c; }
  .topbar nav a[aria-current=page] { background: #fff; color: #14213d; font-weight: 600; }
  .topbar a:focus-visible, .topbar button:focus-visible { outline-color: #ffb566; }
  .account { margin-left: auto; display: flex; align-items: center; gap: .75rem; }
  .who { display: flex; flex-direction: column; align-items: flex-end; line-height: 1.25; }
  #who-email { font-weight: 600; }
  #who-roles { font-size: .8rem; color: #c9d3ea; }
  .topbar button { font: inherit; padding: .35rem .9rem; border-radius: .4rem; border: 1px solid #8fa2cf; background: transparent; color: #fff; cursor: pointer; }
  .topbar button:hover { background: #24355c; }
  main { max-width: 80rem; margin: 1.5rem auto 3rem; padding: 0 1.5rem; }
  main > section { background: #fff; border: 1px solid #dce2ee; border-radius: .6rem; padding: 1.25rem 1.5rem 1.5rem; box-shadow: 0 1px 2px rgba(20, 33, 61, .06); }
  h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
  h1:focus { outline: none; }
  h2 { font-size: 1.2rem; }
  .lead { color: #4a5366; margin: 0 0 1rem; }
  .role-note { background: #fff4e5; border-left: 4px solid #b35c00; padding: .5rem 1rem; margin: 1rem 0; }
  section[data-refused] form, section[data-refused] .form-title { display: none !important; }
  label, legend { font-weight: 600; }
  input[type=text], input[type=month], input[type=date], select, textarea { font: inherit; padding: .4rem; border: 1px solid #6b7386; border-radius: .3rem; background: #fff; }
  textarea { display: block; width: 100%; box-sizing: border-box; min-height: 5rem; margin: .25rem 0 .75rem; }
  .filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; }
  .filters div { display: flex; flex-direction: column; }
  fieldset label { font-weight: normal; margin-right: 1rem; cursor: pointer; }
  /* Short choices keep their box beside their word when the line wraps (a phone). */
  fieldset.short-choices label { white-space: nowrap; display: inline-block; }
  .field { margin-bottom: .75rem; }
  .field label { display: block; }
  .hint { color: #4a5366; font-size: .9rem; margin: .25rem 0 .5rem; }
  main button { font: inherit; padding: .4rem 1rem; border-radius: .4rem; border: 1px solid #2b5fd9; background: #2b5fd9; color: white; cursor: pointer; }
  main button:disabled { border-color: #c3cbdc; background: #eef1f6; color: #4a5366; cursor: default; }
  main button.secondary:disabled { background: #eef1f6; color: #4a5366; }
  table { width: 100%; border-collapse: collapse; margin: 1rem 0; }
  .wide { overflow-x: auto; position: relative; } /* on a narrow screen a table scrolls, not the page (its hidden labels stay inside it) */
  .wide:focus-visible { outline: 3px solid #e07a1f; outline-offset: 2px; }
  td, th { padding: .45rem .4rem; border-bottom: 1px solid #e3e7ef; text-align: left; vertical-align: top; }
  th { font-size: .85rem; text-transform: uppercase; letter-spacing: .03em; color: #4a5366; }
  td.money, td.number { text-align: right; }
  code { font-size: .9rem; }
  .sub { display: block; color: #4a5366; font-size: .85rem; }
  .moved { font-style: italic; }
  td ul { margin: 0; padding-left: 1.1rem; }
  td.items { min-width: 10rem; }
  td.created, td.age, td.nowrap { white-space: nowrap; }
  .order-number { font-weight: 600; overflow-wrap: anywhere; }
  #search-form { margin-bottom: 1rem; padding-bottom: 1rem; border-bottom: 1px solid #e3e7ef; }
  #search-form select { max-width: 100%; }
  #review { border-top: 2px solid #2b5fd9; margin-top: 1.5rem; }
  dd, #review-title, .text, #review-messages, #review-history { overflow-wrap: anywhere; min-width: 0; }
  .text { white-space: pre-wrap; background: #f7f8fb; padding: .5rem 1rem; border-radius: .4rem; }
  .pager { display: flex; flex-wrap: wrap; align-items: center; gap: .75rem; }
  .field-error { color: #8a1c14; font-weight: 600; margin: .25rem 0 0; }
  #staff-client, #account-client { max-width: 100%; }
  #account-form > div:first-child { flex: 1 1 16rem; min-width: 0; }
  #account-client { width: 100%; }
  #account-detail > section { border-top: 1px solid #e3e7ef; margin-top: 1.25rem; }
  .account-of { margin: 1rem 0 0; font-size: 1.05rem; }
  .badge { display: inline-block; padding: .1rem .5rem; border-radius: 1rem; font-size: .85rem; font-weight: 600; background: #e8eefc; color: #1d3f8f; }
  .badge.bad { background: #fde8e6; color: #8a1c14; }
  .badge.ok { background: #e5f4ea; color: #1c5e32; }
  h4 { font-size: 1rem; }
  h4:focus, h2:focus { outline: none; }
  input[type=email] { font: inherit; padding: .4rem; border: 1px solid #6b7386; border-radius: .3rem; background: #fff; width: min(24rem, 100%); box-sizing: border-box; }
  .vh { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap; }
  @media (max-width: 40rem) {
    .topbar { padding: .6rem 1rem; }
    .account { order: 2; margin-left: auto; }
    .topbar nav { order: 3; flex-basis: 100%; }
    /* Who is signed in stays on a phone: the e-mail, cut short if it must be (its roles are in the menu's sections). */
    .who { font-size: .8rem; min-width: 0; max-width: 11rem; }
    #who-email { max-width: 100%; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    #who-roles { display: none; }
    .brand .product { display: none; }
    dl { grid-template-columns: 1fr; gap: 0; }
    dd { margin-bottom: .4rem; }
    main { padding: 0 .75rem; margin-top: 1rem; }
    main > section { padding: 1rem; }
    /* A table of class stack is a card a row: each cell under its column's name (data-label, set by the scripts). */
    table.stack thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); clip-path: inset(50%); }
    table.stack, table.stack tbody, table.stack tr, table.stack td { display: block; }
    table.stack tr { border: 1px solid #dce2ee; border-radius: .4rem; margin-bottom: .75rem; padding: .25rem .5rem; }
    table.stack td { border-bottom: 0; padding: .3rem 0; text-align: left; overflow-wrap: anywhere; min-width: 0; }
    table.stack td.money, table.stack td.number { text-align: left; }
    table.stack td::before { content: attr(data-label); display: block; font-size: .8rem; font-weight: 600; text-transform: uppercase; color: #4a5366; }
    table.stack td[data-label=""]::before { content: none; }
    table.stack td.items { min-width: 0; }
    #search-form div, #search-form select, #search-form input { width: 100%; box-sizing: border-box; }
  }
</style>
</head>
<body>
<header class="topbar">
  <div class="brand"><img src="/favicon.svg" alt="" width="26" height="26"><span>Order Protection</span><span class="product">Console</span></div>
  <nav aria-label="Console"><ul id="sections" hidden></ul></nav>
  <div class="account" id="account" hidden>
    <p class="who" id="who"><span class="vh">Signed in as </span><span id="who-email"></span><span id="who-roles"></span></p>
    <button type="button" id="sign-out">Sign out</button>
  </div>
</header>
<main>
<div id="error" class="error" role="alert" tabindex="-1"></div>
<div id="announce" class="notice" role="status" aria-live="polite"></div>
<p id="renew" class="notice" hidden>Your sign-in has ended. <button type="button" id="renew-button">Sign in again</button></p>

<section id="signing-in" aria-labelledby="signing-in-title">
<h1 id="signing-in-title">Operator console</h1>
<p id="signing-in-text">Signing in…</p>
</section>

<section id="no-access" aria-labelledby="no-access-title" hidden>
<h1 id="no-access-title" tabindex="-1">No access to the console</h1>
<p>Your account (<span id="no-access-email"></span>) has no access to the console: it is for the insurer's staff
(the claims, finance and admin groups). Merchants use the <a href="/portal/">merchant portal</a>.</p>
<p>Use <strong>Sign out</strong> above to sign in with another account.</p>
</section>

<section id="claims" aria-labelledby="claims-title" hidden>
<h1 id="claims-title" tabindex="-1">Claim queue</h1>
<p class="lead">Claims by status, oldest first, with how long each has waited, or the claims of one order. Review one to decide it or record its payout.</p>
<p class="role-note" id="claims-role-note" hidden>This section is for the Claims group, which your account is not in: the API refuses what it asks.</p>
<form id="search-form" class="filters" role="search" aria-label="Claims of an order">
  <div>
    <label for="search-client">Merchant</label>
    <select id="search-client" name="client_id"><option value="">Choose a merchant</option></select>
  </div>
  <div>
    <label for="search-order">Order number</label>
    <input type="text" id="search-order" name="order_number" maxlength="255" autocomplete="off">
  </div>
  <button type="submit">Search</button>
  <button type="button" id="search-clear" class="secondary" hidden>Clear</button>
</form>
<form id="load-form" class="filters">
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

<section id="queue" aria-labelledby="queue-title" hidden>
<h2 id="queue-title" tabindex="-1">Claims</h2>
<div class="wide">
<table id="queue-table" class="stack" aria-labelledby="queue-title">
  <thead><tr><th scope="col"><span class="vh">Actions</span></th><th scope="col">Order and merchant</th><th scope="col">Items and events</th><th scope="col">Age</th><th scope="col">Status and reason</th><th scope="col">Claimed</th><th scope="col">Decided by</th></tr></thead>
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
<div class="wide" role="region" aria-label="Policies of the claim, scrollable" tabindex="0">
<table id="review-policies-table" class="stack" aria-label="Policies of the claim">
  <thead><tr><th scope="col">Policy</th><th scope="col">Item</th><th scope="col">Event</th><th scope="col">Ticket reference</th><th scope="col">Coverage</th></tr></thead>
  <tbody id="review-policies"></tbody>
</table>
</div>
<h3 id="signals-title">Signals</h3>
<p id="review-no-signals">None: nothing unusual was found when it was filed.</p>
<ul id="review-signals" aria-labelledby="signals-title"></ul>
<h3 id="files-title">Documents</h3>
<p id="review-no-files">No documents.</p>
<div class="wide" role="region" aria-label="Documents of the claim, scrollable" tabindex="0">
<table id="review-files-table" class="stack" aria-labelledby="files-title" hidden>
  <thead><tr><th scope="col">File</th><th scope="col">Type</th><th scope="col">Size</th><th scope="col">Status</th><th scope="col">Uploaded</th><th scope="col">Open</th></tr></thead>
  <tbody id="review-files"></tbody>
</table>
</div>
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
</section>

<section id="bordereaux" aria-labelledby="bordereaux-title" hidden>
<h1 id="bordereaux-title" tabindex="-1">Bordereaux</h1>
<p class="lead">A month's premium bordereau (every premium entry) or claims bordereau (every claim with a move in the month), as CSV, for the
insurer. Live merchants only: merchants in test mode (their sandbox keys) are left out.</p>
<p class="role-note" id="bordereaux-role-note" hidden>This section is for the Finance group, which your account is not in: the API refuses what it asks.</p>
<form id="export-form" class="filters">
  <div>
    <label for="period">Month</label>
    <input type="month" id="period" name="period" required pattern="[0-9]{4}-[0-9]{2}" aria-describedby="period-hint">
  </div>
  <div>
    <label for="kind">Bordereau</label>
    <select id="kind" name="kind">
      <option value="premium" selected>Premium</option>
      <option value="claims">Claims</option>
    </select>
  </div>
  <button type="submit">Start export</button>
</form>
<p class="hint" id="period-hint">A month stays open until the 5th of the next: its bordereau may still grow.</p>

<section id="result" aria-labelledby="result-title" hidden>
<h2 id="result-title" tabindex="-1">Export</h2>
<p id="result-status"></p>
<p id="result-link-line" hidden><a id="result-link" href="#bordereaux">Download</a> <span class="hint" id="result-expiry"></span></p>
<button type="button" id="refresh-link" class="secondary" hidden>Get a new link</button>
</section>

<section id="exports" aria-labelledby="exports-title">
<h2 id="exports-title" tabindex="-1">Past exports</h2>
<p id="exports-count" role="status"></p>
<div class="wide">
<table id="exports-table" class="stack" aria-labelledby="exports-title" hidden>
  <thead><tr><th scope="col">Month</th><th scope="col">Bordereau</th><th scope="col">Status</th><th scope="col">Rows</th><th scope="col">Started</th><th scope="col"><span class="vh">Actions</span></th></tr></thead>
  <tbody id="exports-rows"></tbody>
</table>
</div>
<button type="button" id="exports-more" class="secondary" hidden>Load more</button>
</section>
</section>

<section id="merchants" aria-labelledby="merchants-title" hidden>
<h1 id="merchants-title" tabindex="-1">Merchants</h1>
<p class="lead">Every merchant with its terms in force, what it owes now and its state, read-only. Your engineers add and disable merchants; finance keeps their accounts under Accounts.</p>
<p class="role-note" id="merchants-role-note" hidden>This section is for the insurer's staff, which your account is not: the API refuses what it asks.</p>
<div class="wide" role="region" aria-label="Merchants, scrollable" tabindex="0">
<table id="merchants-table" class="stack" aria-labelledby="merchants-title" hidden>
  <thead><tr><th scope="col">Merchant</th><th scope="col">Mode</th><th scope="col">Rates and commission</th><th scope="col">Look period</th><th scope="col">Balance</th><th scope="col">State</th><th scope="col">Created</th></tr></thead>
  <tbody id="merchant-rows"></tbody>
</table>
</div>
<p id="merchants-count" role="status"></p>
<button type="button" id="merchants-more" class="secondary" hidden>Load more</button>
</section>

<section id="accounts" aria-labelledby="accounts-title" hidden>
<h1 id="accounts-title" tabindex="-1">Accounts</h1>
<p class="lead">A merchant's statement and balance, the payments it made, its terms, and whether its quotes are offered.</p>
<p class="role-note" id="accounts-role-note" hidden>This section is for the Finance group, which your account is not in: the API refuses what it asks.</p>
<form id="account-form" class="filters" aria-label="Merchant and month">
  <div>
    <label for="account-client">Merchant</label>
    <select id="account-client" name="client_id" required><option value="">Choose a merchant</option></select>
  </div>
  <div>
    <label for="account-period">Month</label>
    <input type="month" id="account-period" name="period" required pattern="[0-9]{4}-[0-9]{2}">
  </div>
  <button type="submit">Show account</button>
</form>

<div id="account-detail" hidden>
<p class="account-of">Account of <strong id="account-merchant"></strong></p>
<section aria-labelledby="statement-title">
<h2 id="statement-title" tabindex="-1">Statement</h2>
<p id="statement-summary" role="status"></p>
<div class="wide" role="region" aria-label="Statement, scrollable" tabindex="0">
<table id="statement-table" class="stack" aria-labelledby="statement-title">
  <thead><tr><th scope="col">Currency</th><th scope="col">Net premium</th><th scope="col">Commission</th><th scope="col">Amount due</th><th scope="col">Remitted</th><th scope="col">Opening balance</th><th scope="col">Closing balance</th></tr></thead>
  <tbody id="statement-rows"></tbody>
</table>
</div>
</section>

<section aria-labelledby="remittances-title">
<h2 id="remittances-title" tabindex="-1">Remittances</h2>
<p id="remittances-count"></p>
<div class="wide" role="region" aria-label="Remittances, scrollable" tabindex="0">
<table id="remittances-table" class="stack" aria-labelledby="remittances-title" hidden>
  <thead><tr><th scope="col">Received</th><th scope="col">Reference</th><th scope="col">Amount</th><th scope="col">Recorded</th><th scope="col">Standing</th></tr></thead>
  <tbody id="remittance-rows"></tbody>
</table>
</div>
<h3 id="remit-title">Record a remittance</h3>
<form id="remit-form" class="filters" aria-labelledby="remit-title">
  <div><label for="remit-currency">Currency</label><input type="text" id="remit-currency" name="currency" required maxlength="3" size="4" autocomplete="off" value="USD"></div>
  <div><label for="remit-amount">Amount</label><input type="text" id="remit-amount" name="amount" required inputmode="decimal" maxlength="40" autocomplete="off"></div>
  <div><label for="remit-reference">Bank reference</label><input type="text" id="remit-reference" name="reference" required maxlength="64" autocomplete="off"></div>
  <div><label for="remit-received">Received on</label><input type="date" id="remit-received" name="received_on" required></div>
  <button type="submit">Record remittance</button>
</form>
<p class="hint">The same reference again records nothing new; a payment is booked in the month it is recorded.</p>
<h3 id="reverse-title">Reverse a remittance</h3>
<form id="reverse-form" class="filters" aria-labelledby="reverse-title">
  <div><label for="reverse-reference">Payment</label><select id="reverse-reference" name="reference" required></select></div>
  <div><label for="reverse-reason">Reason</label><input type="text" id="reverse-reason" name="reason" required maxlength="200" autocomplete="off"></div>
  <button type="submit">Reverse payment</button>
</form>
<p class="hint">For a transfer that bounced or was recorded against the wrong merchant. The payment is kept, marked reversed; its amount is owed again from this month's statement.</p>
</section>

<section aria-labelledby="terms-title">
<h2 id="terms-title" tabindex="-1">Terms</h2>
<div class="wide" role="region" aria-label="Terms versions, scrollable" tabindex="0">
<table id="terms-table" class="stack" aria-labelledby="terms-title">
  <thead><tr><th scope="col">Version</th><th scope="col">In force from</th><th scope="col">Rate bands</th><th scope="col">Minimum premium</th><th scope="col">Commission</th><th scope="col">Look period</th></tr></thead>
  <tbody id="terms-rows"></tbody>
</table>
</div>
<h3 id="publish-title">Publish a new version</h3>
<form id="terms-form" aria-labelledby="publish-title" novalidate>
  <div class="field">
    <label for="terms-bands">Rate bands</label>
    <p class="hint" id="terms-bands-hint">One band a line: the days to the event it covers and its rate, such as <code>7 0.12</code>; the last line a rate alone, for the rest and for items without a date.</p>
    <textarea id="terms-bands" name="rate_bands" required aria-describedby="terms-bands-hint" spellcheck="false"></textarea>
  </div>
  <div class="field">
    <label for="terms-minimums">Minimum premium</label>
    <p class="hint" id="terms-minimums-hint">One currency a line, such as <code>USD 1.00</code>; none is fine.</p>
    <textarea id="terms-minimums" name="minimum_premium" aria-describedby="terms-minimums-hint" spellcheck="false"></textarea>
  </div>
  <div class="filters">
    <div><label for="terms-commission">Commission rate</label><input type="text" id="terms-commission" name="commission_rate" required maxlength="10" autocomplete="off" aria-describedby="terms-commission-hint"></div>
    <div><label for="terms-look">Look period (days)</label><input type="text" id="terms-look" name="look_period_days" required inputmode="numeric" maxlength="2" autocomplete="off"></div>
    <div><label for="terms-effective">In force from (UTC, optional)</label><input type="text" id="terms-effective" name="effective_from" maxlength="40" autocomplete="off" placeholder="now" aria-describedby="terms-effective-hint"></div>
  </div>
  <p class="hint" id="terms-commission-hint">The merchant's share of each premium, such as <code>0.15</code>.</p>
  <p class="hint" id="terms-effective-hint">Empty for now; else a day (<code>2027-01-01</code>) or an ISO time, at most a year ahead.</p>
  <div class="pager">
    <button type="button" id="terms-preview" class="secondary">Preview premiums</button>
    <button type="submit" id="terms-publish" disabled aria-describedby="terms-publish-hint">Publish version</button>
    <span class="hint" id="terms-publish-hint">Publishing needs a preview of what is in the form now.</span>
  </div>
</form>
<section id="preview" aria-labelledby="preview-title" hidden>
<h4 id="preview-title" tabindex="-1">Preview: a ticket of <span id="preview-cost"></span></h4>
<div class="wide" role="region" aria-label="Preview, scrollable" tabindex="0">
<table id="preview-table" class="stack" aria-labelledby="preview-title">
  <thead><tr><th scope="col">Event</th><th scope="col">Premium now</th><th scope="col">Premium proposed</th><th scope="col">Commission now</th><th scope="col">Commission proposed</th></tr></thead>
  <tbody id="preview-rows"></tbody>
</table>
</div>
</section>
</section>

<section aria-labelledby="standing-title">
<h2 id="standing-title" tabindex="-1">Quotes</h2>
<p id="standing-text" role="status"></p>
<form id="suspend-form" class="filters" aria-labelledby="standing-title">
  <div><label for="suspend-reason">Reason (optional)</label><input type="text" id="suspend-reason" name="reason" maxlength="200" autocomplete="off"></div>
  <button type="submit">Suspend quotes</button>
</form>
<button type="button" id="resume-button" class="secondary" hidden>Resume quotes</button>
</section>
</div>
</section>

<section id="audit" aria-labelledby="audit-title" hidden>
<h1 id="audit-title" tabindex="-1">Audit log</h1>
<p class="lead">Every staff action with who took it, newest first. Each record was written in the same transaction as the change itself.</p>
<p class="role-note" id="audit-role-note" hidden>This section is for the Admin group, which your account is not in: the API refuses what it asks.</p>
<p id="audit-empty" hidden>No staff actions yet.</p>
<div class="wide" role="region" aria-label="Audit log entries, scrollable" tabindex="0">
<table id="audit-table" class="stack" aria-labelledby="audit-title" hidden>
  <thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Action</th><th scope="col">Target</th><th scope="col">Detail</th></tr></thead>
  <tbody id="audit-rows"></tbody>
</table>
</div>
<div class="pager">
  <button type="button" id="audit-newer" class="secondary" disabled>Newer</button>
  <span id="audit-range"></span>
  <button type="button" id="audit-older" class="secondary" disabled>Older</button>
  <button type="button" id="audit-reload" class="secondary">Refresh</button>
</div>
</section>

<section id="staff" aria-labelledby="staff-title" hidden>
<h1 id="staff-title" tabindex="-1">Staff</h1>
<p class="lead">The people who may sign in to the console and the merchant portal, with their groups. Add a person below.</p>
<p class="role-note" id="staff-role-note" hidden>This section is for the Admin group, which your account is not in: the API refuses what it asks.</p>
<div class="wide" role="region" aria-label="Staff, scrollable" tabindex="0">
<table id="staff-table" class="stack" aria-labelledby="staff-title" hidden>
  <thead><tr><th scope="col">E-mail</th><th scope="col">Groups</th><th scope="col">Merchant</th><th scope="col">Status</th></tr></thead>
  <tbody id="staff-rows"></tbody>
</table>
</div>
<p id="staff-count"></p>
<button type="button" id="staff-more" class="secondary" hidden>Load more</button>

<h2 id="staff-add-title" class="form-title">Add a person</h2>
<form id="staff-form" aria-labelledby="staff-add-title" novalidate>
  <div class="field">
    <label for="staff-email">E-mail</label>
    <input type="email" id="staff-email" name="email" autocomplete="off" required maxlength="128" aria-describedby="staff-email-error">
    <p class="field-error" id="staff-email-error" hidden></p>
  </div>
  <fieldset class="short-choices" aria-describedby="staff-groups-hint staff-group-claims-error">
    <legend>Groups</legend>
    <p class="hint" id="staff-groups-hint">Claims, Finance and Admin may be combined; a merchant user is in Merchant only, bound to one merchant.</p>
    <label><input type="checkbox" name="group" value="claims" id="staff-group-claims"> Claims</label>
    <label><input type="checkbox" name="group" value="finance"> Finance</label>
    <label><input type="checkbox" name="group" value="admin"> Admin</label>
    <label><input type="checkbox" name="group" value="merchant"> Merchant</label>
    <p class="field-error" id="staff-group-claims-error" hidden></p>
  </fieldset>
  <div class="field" id="staff-client-field" hidden>
    <label for="staff-client">Merchant</label>
    <select id="staff-client" name="client_id" aria-describedby="staff-client-error"><option value="">Choose a merchant</option></select>
    <p class="field-error" id="staff-client-error" hidden></p>
  </div>
  <button type="submit">Add person</button>
</form>
<p id="staff-added" class="notice" hidden></p>
</section>
</main>
${pageScriptTag('console')}
</body>
</html>`;
}
