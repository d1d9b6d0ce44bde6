import { FAVICON_LINK } from './favicon.js';
import { CLAIM_PAGES_CSS, pageScriptTag } from './page-kit.js';

/**
 * The operator's bordereaux at `/admin/bordereaux` of `npm start`, beside the claims queue: a month
 * and a kind start an export (POST /api/v2/admin/bordereaux), the page reads it every second until
 * it is done or failed, then offers its link (valid 15 minutes; "Get a new link" signs another).
 * The operator key is the one /admin/claims keeps for this tab. Every string from the API goes into
 * the DOM as text. Its script is scripts/admin-bordereaux.ts (/assets/admin-bordereaux.js).
 */
export function adminBordereauxPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${FAVICON_LINK}
<title>Bordereaux · Order Protection</title>
<style>
${CLAIM_PAGES_CSS}
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 64rem; margin: 2rem auto; padding: 0 1rem; color: #1d2433; }
  label { font-weight: 600; }
  input, select { font: inherit; padding: .4rem; border: 1px solid #6b7386; border-radius: .3rem; }
  .filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; }
  .filters div { display: flex; flex-direction: column; }
  .hint { color: #4a5366; font-size: .9rem; margin: .25rem 0 .5rem; }
  button { font: inherit; padding: .4rem 1rem; border-radius: .4rem; border: 1px solid #2b5fd9; background: #2b5fd9; color: white; cursor: pointer; }
  nav a { margin-right: 1rem; }
</style>
</head>
<body>
<nav><a href="/admin/claims">Claims queue</a><a href="/dashboard">Conversion dashboard</a></nav>
<main>
<h1>Bordereaux</h1>
<p>A month's premium bordereau (every premium entry) or claims bordereau (every claim with a move in the month), as CSV, for the
insurer. Live clients only: test-mode clients (<code>pk_test_</code> keys, such as npm start's demo shop) are left out.</p>
<div id="error" class="error" role="alert" tabindex="-1"></div>
<div id="announce" class="notice" role="status" aria-live="polite"></div>
<form id="export-form" class="filters">
  <div>
    <label for="operator-key">Operator key</label>
    <input type="password" id="operator-key" name="operator_key" required autocomplete="off" spellcheck="false" aria-describedby="operator-key-hint">
  </div>
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
<p class="hint" id="operator-key-hint">The key npm start printed (also in .local/operator.json). Kept for this tab only.</p>
<p class="hint" id="period-hint">A month stays open until the 5th of the next: its bordereau may still grow.</p>

<section id="result" aria-labelledby="result-title" hidden>
<h2 id="result-title" tabindex="-1">Export</h2>
<p id="result-status"></p>
<p id="result-link-line" hidden><a id="result-link" href="#">Download</a> <span class="hint" id="result-expiry"></span></p>
<button type="button" id="refresh-link" class="secondary" hidden>Get a new link</button>
</section>
</main>
${pageScriptTag('admin-bordereaux')}
</body>
</html>`;
}
