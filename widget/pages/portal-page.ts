import { FAVICON_LINK } from './favicon.js';
import { pageScriptTag } from './page-kit.js';

/**
 * The merchant portal at `/portal/` (npm start and deployed alike: a static page). One page, its
 * sections reached by the address's hash (`#conversion`, `#statements`, `#ledger`, `#webhooks`,
 * `#claim-link`) without a reload. The person signs in with OpenID Connect
 * (scripts/sign-in.ts, as `portal`; tokens in memory only); a merchant user sees its own client
 * only: the API takes the client from the access token, and the page never sends a client id. A
 * person without the `merchant` group is told plainly and offered sign-out. Its script is
 * scripts/portal.ts (/assets/portal.js); every string from the API goes into the DOM as text. The
 * webhooks section manages the shop's endpoints (a secret shown once, in a panel the person closes;
 * a rotation and a deletion asked in a modal `<dialog>`).
 */
export function portalPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${FAVICON_LINK}
<title>Merchant portal · Order Protection</title>
<style>
  :root { --ink: #1d2433; --muted: #4a5366; --line: #dfe3ec; --brand: #2b5fd9; --brand-dark: #1f47a8; --bg: #f5f7fb; --focus: #e07a1f; }
  [hidden] { display: none !important; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
  a { color: var(--brand-dark); }
  a:focus-visible, button:focus-visible, select:focus-visible, input:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
  h1:focus, h2:focus, #error:focus { outline: none; }
  header.bar { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: .5rem 1rem; padding: .75rem 1.25rem; background: #fff; border-bottom: 1px solid var(--line); }
  .brand { font-weight: 700; font-size: 1.05rem; }
  .brand span { font-weight: 400; color: var(--muted); margin-left: .35rem; }
  .who { display: flex; align-items: center; gap: .75rem; flex-wrap: wrap; color: var(--muted); font-size: .95rem; }
  .who strong { color: var(--ink); font-weight: 600; overflow-wrap: anywhere; }
  .shell { display: grid; grid-template-columns: 13rem minmax(0, 1fr); max-width: 72rem; margin: 0 auto; gap: 1.5rem; padding: 1.5rem 1.25rem 3rem; }
  nav ul { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: .25rem; }
  nav a { display: block; padding: .5rem .75rem; border-radius: .4rem; text-decoration: none; color: var(--ink); }
  nav a:hover { background: #e8edf8; }
  nav a[aria-current=page] { background: var(--brand); color: #fff; font-weight: 600; }
  main { min-width: 0; }
  main.alone { grid-column: 1 / -1; max-width: 40rem; }
  h1 { font-size: 1.6rem; margin: 0 0 .25rem; }
  h2 { font-size: 1.15rem; margin: 1.75rem 0 .5rem; }
  .lead { color: var(--muted); margin: 0 0 1.25rem; }
  .panel { background: #fff; border: 1px solid var(--line); border-radius: .6rem; padding: 1rem 1.25rem; margin: 0 0 1rem; }
  .tools { display: flex; flex-wrap: wrap; align-items: end; gap: .75rem 1rem; margin: 0 0 1rem; }
  label { display: block; font-weight: 600; font-size: .9rem; margin-bottom: .25rem; }
  select, input[type=text] { font: inherit; padding: .4rem .5rem; border: 1px solid #6b7386; border-radius: .35rem; background: #fff; color: var(--ink); }
  input[type=text] { width: 100%; }
  button { font: inherit; padding: .45rem 1rem; border-radius: .4rem; border: 1px solid var(--brand); background: var(--brand); color: #fff; cursor: pointer; white-space: nowrap; }
  button:hover { background: var(--brand-dark); }
  button.secondary { background: #fff; color: var(--brand-dark); }
  button.secondary:hover { background: #e8edf8; }
  button:disabled { opacity: .6; cursor: not-allowed; }
  .cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(9.5rem, 1fr)); gap: .75rem; margin: 0 0 1rem; }
  .card { background: #fff; border: 1px solid var(--line); border-radius: .6rem; padding: .75rem 1rem; }
  .card dt { color: var(--muted); font-size: .85rem; }
  .card dd { margin: .15rem 0 0; font-size: 1.5rem; font-weight: 700; font-variant-numeric: tabular-nums; }
  table { width: 100%; border-collapse: collapse; background: #fff; font-variant-numeric: tabular-nums; }
  th, td { text-align: left; padding: .5rem .75rem; border-bottom: 1px solid var(--line); vertical-align: top; }
  th { font-size: .85rem; color: var(--muted); font-weight: 600; background: #fafbfd; }
  td.num, th.num { text-align: right; white-space: nowrap; }
  .table { border: 1px solid var(--line); border-radius: .6rem; overflow-x: auto; margin: 0 0 1rem; }
  .table table tr:last-child td { border-bottom: 0; }
  .statement { grid-template-columns: repeat(auto-fill, minmax(18rem, 1fr)); }
  .currency h2 { margin: 0 0 .5rem; font-size: 1.1rem; }
  .currency dl { display: grid; grid-template-columns: 1fr auto; gap: .35rem 1rem; margin: 0; }
  .currency dt { color: var(--muted); font-size: .95rem; }
  .currency dd { margin: 0; text-align: right; font-size: 1rem; font-weight: 400; }
  .currency dd.total { font-weight: 700; }
  .currency dt.total { color: var(--ink); font-weight: 600; }
  .badge { display: inline-block; padding: .05rem .5rem; border-radius: 1rem; font-size: .8rem; font-weight: 600; background: #e8edf8; color: var(--brand-dark); }
  .badge.ok { background: #e3f4ea; color: #135c32; }
  .badge.bad { background: #fdecea; color: #8a1c14; }
  .mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .9rem; overflow-wrap: anywhere; }
  .status { color: var(--muted); margin: .25rem 0 1rem; }
  .error { color: #8a1c14; background: #fdecea; border-left: 4px solid #b3261e; padding: .5rem 1rem; margin: 0 0 1rem; border-radius: .3rem; }
  .error:empty { padding: 0; margin: 0; border: 0; }
  .notice { background: #eef2fb; border-radius: .4rem; padding: .5rem 1rem; margin: 0 0 1rem; }
  .notice:empty { padding: 0; margin: 0; }
  button.link { background: none; border: 0; padding: .2rem 0; margin-top: .25rem; color: var(--brand-dark); text-decoration: underline; font-size: .9rem; }
  button.link:hover { background: none; color: var(--ink); }
  tr.attempts td { background: #fafbfd; font-size: .9rem; }
  tr.attempts ul { margin: 0; padding-left: 1.1rem; }
  tr.attempts td { overflow-wrap: anywhere; }
  .pager { display: flex; align-items: center; gap: .75rem; flex-wrap: wrap; }
  .copy { display: flex; gap: .5rem; }
  input[type=url] { font: inherit; width: 100%; padding: .4rem .5rem; border: 1px solid #6b7386; border-radius: .35rem; background: #fff; color: var(--ink); }
  input[aria-invalid=true] { border-color: #b3261e; box-shadow: 0 0 0 1px #b3261e; }
  .field { margin: 0 0 1rem; }
  .hint { color: var(--muted); font-size: .9rem; margin: .25rem 0 0; }
  .optional { font-weight: 400; color: var(--muted); }
  fieldset { border: 0; padding: 0; margin: 0 0 1rem; min-width: 0; }
  legend { font-weight: 600; font-size: .9rem; margin-bottom: .35rem; padding: 0; }
  .choices { display: grid; grid-template-columns: repeat(auto-fill, minmax(17rem, 1fr)); gap: .15rem 1rem; }
  .choices label { display: flex; align-items: baseline; gap: .45rem; font-weight: 400; font-size: .95rem; margin: 0; padding: .2rem 0; }
  .choices label span span { color: var(--muted); }
  .choices code { white-space: nowrap; color: var(--ink); }
  #endpoint-form h2, .secret h2 { margin-top: 0; }
  .secret { border-color: #9fb6ea; background: #f4f7fe; }
  .secret .copy { margin-bottom: .25rem; }
  .secret-entry { border-top: 1px solid #c9d6f3; padding: .75rem 0; }
  .secret-entry p { margin: 0 0 .5rem; }
  .secret label .mono { font-weight: 600; }
  .field-error { color: #8a1c14; font-weight: 600; margin: .25rem 0 0; overflow-wrap: anywhere; }
  .row-status { margin: .35rem 0 0; font-size: .9rem; color: var(--ink); }
  .row-status:empty { display: none; }
  td.endpoint { overflow-wrap: anywhere; min-width: 10rem; }
  .notice, .error, label { overflow-wrap: anywhere; }
  .secret input { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
  .row-actions { display: flex; flex-wrap: wrap; gap: .4rem; }
  .row-actions button { padding: .3rem .7rem; font-size: .9rem; }
  button.danger { background: #fff; color: #8a1c14; border-color: #b3261e; }
  button.danger:hover { background: #fdecea; }
  dialog { border: 1px solid var(--line); border-radius: .6rem; padding: 1.25rem 1.5rem; max-width: min(30rem, calc(100vw - 2rem)); color: var(--ink); }
  dialog::backdrop { background: rgba(29, 36, 51, .45); }
  dialog h2 { margin: 0 0 .5rem; }
  dialog p { overflow-wrap: anywhere; }
  dialog .actions { display: flex; flex-wrap: wrap; gap: .5rem; justify-content: flex-end; margin-top: 1rem; }
  #confirm-yes.danger { background: #b3261e; border-color: #b3261e; color: #fff; }
  @media (max-width: 47.99rem) {
    .shell { grid-template-columns: minmax(0, 1fr); padding: 1rem .75rem 2rem; gap: 1rem; }
    nav ul { flex-direction: row; flex-wrap: wrap; }
    nav a { padding: .4rem .65rem; border: 1px solid var(--line); background: #fff; }
    header.bar { padding: .75rem; }
    .copy { flex-direction: column; }
    th, td { padding: .45rem .5rem; }
    .card dd { font-size: 1.25rem; }
    td button { white-space: normal; }
  }
</style>
</head>
<body>
<header class="bar">
  <div class="brand">Order Protection<span>Merchant portal</span></div>
  <div class="who" id="who" hidden>
    <span>Signed in as <strong id="who-email"></strong></span>
    <button type="button" id="sign-out" class="secondary">Sign out</button>
  </div>
</header>
<div class="shell">
<nav id="nav" aria-label="Portal sections" hidden>
  <ul>
    <li><a href="#conversion">Conversion</a></li>
    <li><a href="#statements">Statements</a></li>
    <li><a href="#ledger">Ledger</a></li>
    <li><a href="#webhooks">Webhooks</a></li>
    <li><a href="#claim-link">Claim link</a></li>
  </ul>
</nav>
<main id="main" class="alone">
<div id="error" class="error" role="alert" tabindex="-1"></div>
<div id="announce" class="notice" role="status" aria-live="polite"></div>
<p id="sign-in-again" hidden><button type="button" id="sign-in-button">Sign in again</button></p>

<section id="starting" aria-labelledby="starting-title">
  <h1 id="starting-title">Merchant portal</h1>
  <p id="starting-status" class="lead">Signing you in…</p>
</section>

<section id="refused" aria-labelledby="refused-title" hidden>
  <h1 id="refused-title" tabindex="-1">This portal is for merchant accounts</h1>
  <p id="refused-text" class="lead"></p>
  <p>Sign out, then sign in with your shop's merchant account. Staff work in the <a href="/admin/">operator console</a>.</p>
</section>

<section id="conversion" aria-labelledby="conversion-title" hidden>
  <h1 id="conversion-title" tabindex="-1">Conversion</h1>
  <p class="lead">How many of your customers add refund protection at checkout.</p>
  <div class="tools">
    <div><label for="conversion-days">Period</label>
    <select id="conversion-days"><option value="7">Last 7 days</option><option value="30" selected>Last 30 days</option><option value="90">Last 90 days</option></select></div>
  </div>
  <dl class="cards">
    <div class="card"><dt>Conversion rate</dt><dd id="total-rate">–</dd></div>
    <div class="card"><dt>Opted in</dt><dd id="total-in">–</dd></div>
    <div class="card"><dt>Opted out</dt><dd id="total-out">–</dd></div>
    <div class="card"><dt>Checkouts</dt><dd id="total-checkouts">–</dd></div>
  </dl>
  <h2 id="days-title">Days with checkouts</h2>
  <p id="conversion-status" class="status" role="status">Loading…</p>
  <div class="table" id="days-box"><table aria-labelledby="days-title"><thead><tr><th scope="col">Day</th><th scope="col" class="num">Opted in</th><th scope="col" class="num">Opted out</th><th scope="col" class="num">Rate</th></tr></thead><tbody id="days"></tbody></table></div>
</section>

<section id="statements" aria-labelledby="statements-title" hidden>
  <h1 id="statements-title" tabindex="-1">Statements</h1>
  <p class="lead">A month's premiums and claims per currency. A month stays open until the 5th of the next, then it is closed and never changes.</p>
  <div class="tools">
    <div><label for="statement-period">Month</label><select id="statement-period"></select></div>
  </div>
  <p id="statement-status" class="status" role="status">Loading…</p>
  <div id="statement-currencies" class="cards statement"></div>
</section>

<section id="ledger" aria-labelledby="ledger-title" hidden>
  <h1 id="ledger-title" tabindex="-1">Ledger</h1>
  <p class="lead">Every movement of money, newest first: premiums written, adjusted and refunded, claims approved and paid.</p>
  <div class="tools">
    <div><label for="ledger-period">Month</label><select id="ledger-period"></select></div>
  </div>
  <p id="ledger-status" class="status" role="status">Loading…</p>
  <div class="table" id="ledger-table"><table aria-labelledby="ledger-title"><thead><tr><th scope="col">Date</th><th scope="col">Entry</th><th scope="col">Policy or claim</th><th scope="col" class="num">Amount</th></tr></thead><tbody id="ledger-rows"></tbody></table></div>
  <div class="pager" id="ledger-pager">
    <button type="button" id="ledger-newer" class="secondary">Newer entries</button>
    <button type="button" id="ledger-older" class="secondary">Older entries</button>
  </div>
</section>

<section id="webhooks" aria-labelledby="webhooks-title" hidden>
  <h1 id="webhooks-title" tabindex="-1">Webhooks</h1>
  <p class="lead">Where your events go, and how each delivery went. Each delivery is signed with its endpoint's secret, as the <a href="/docs">API reference</a> shows how to check; a test event (<span class="mono">webhook_endpoint.test</span>) goes to one endpoint alone.</p>
  <section id="secret-panel" class="panel secret" aria-labelledby="secret-title" hidden>
    <h2 id="secret-title" tabindex="-1">Signing secret to store</h2>
    <p class="status">Shown only now: put it in your webhook receiver's settings, then close this.</p>
    <div id="secret-list"></div>
    <button type="button" id="secret-done" class="secondary">I have stored it</button>
  </section>
  <h2 id="endpoints-title" tabindex="-1">Endpoints</h2>
  <p id="endpoints-status" class="status" role="status">Loading…</p>
  <div class="table" id="endpoints-table" hidden><table aria-labelledby="endpoints-title"><thead><tr><th scope="col">Endpoint</th><th scope="col">Status</th><th scope="col">Actions</th></tr></thead><tbody id="endpoint-rows"></tbody></table></div>
  <form id="endpoint-form" class="panel" aria-labelledby="add-title" novalidate>
    <h2 id="add-title">Add an endpoint</h2>
    <div class="field">
      <label for="endpoint-url">URL</label>
      <input type="url" id="endpoint-url" name="url" required maxlength="2048" spellcheck="false" autocomplete="off" placeholder="https://shop.example.com/webhooks/order-protection" aria-describedby="endpoint-url-hint endpoint-url-error">
      <p id="endpoint-url-hint" class="hint">An https:// address of your server on the public internet; it answers a delivery with any 2xx status.</p>
      <p id="endpoint-url-error" class="field-error" hidden></p>
    </div>
    <div class="field">
      <label for="endpoint-description">Description <span class="optional">(optional)</span></label>
      <input type="text" id="endpoint-description" name="description" maxlength="255" autocomplete="off" aria-describedby="endpoint-description-error">
      <p id="endpoint-description-error" class="field-error" hidden></p>
    </div>
    <fieldset id="endpoint-events" class="field" aria-describedby="endpoint-events-error">
      <legend>Events to send</legend>
      <p id="endpoint-events-error" class="field-error" hidden></p>
      <div id="event-choices" class="choices"></div>
    </fieldset>
    <p id="endpoint-form-error" class="field-error" tabindex="-1" hidden></p>
    <button type="submit" id="add-endpoint">Add endpoint</button>
  </form>
  <h2 id="events-title">Delivery log</h2>
  <div class="tools"><button type="button" id="events-refresh" class="secondary">Refresh the log</button></div>
  <p id="events-status" class="status" role="status">Loading…</p>
  <div class="table" id="events-table" hidden><table aria-labelledby="events-title"><thead><tr><th scope="col">Event</th><th scope="col">Sent</th><th scope="col">Delivered</th></tr></thead><tbody id="event-rows"></tbody></table></div>
  <dialog id="confirm" aria-labelledby="confirm-title" aria-describedby="confirm-text">
    <form method="dialog">
      <h2 id="confirm-title"></h2>
      <p id="confirm-text"></p>
      <div class="actions">
        <button type="submit" value="yes" id="confirm-yes"></button>
        <button type="submit" value="no" id="confirm-no" class="secondary">Cancel</button>
      </div>
    </form>
  </dialog>
</section>

<section id="claim-link" aria-labelledby="claim-link-title" hidden>
  <h1 id="claim-link-title" tabindex="-1">Claim link</h1>
  <p class="lead">Your customers claim a refund on this page, for your shop. Put the link in your order confirmation e-mails and your help pages.</p>
  <div class="panel">
    <label for="claim-link-url">Your claim link</label>
    <div class="copy">
      <input type="text" id="claim-link-url" readonly spellcheck="false" aria-describedby="claim-link-hint">
      <button type="button" id="copy-link">Copy link</button>
    </div>
    <p id="claim-link-hint" class="status">Add <span class="mono">#order=</span> with the order number and <span class="mono">&amp;email=</span> with the customer's e-mail address (encoded) to fill them in for the customer. After the <span class="mono">#</span> they never reach a server; the page reads them, then removes them from the address bar.</p>
  </div>
</section>
</main>
</div>
${pageScriptTag('portal')}
</body>
</html>`;
}
