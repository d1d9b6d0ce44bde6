/**
 * What the two claim pages share: the customer's `/claim` (claim-page.ts) and the operator's
 * `/admin/claims` (admin-claims-page.ts). Both are one HTML string with an inline `<style>` and
 * `<script>`; this module holds the pieces that were the same in both, so they are written once and
 * cannot drift apart:
 * - `CLAIM_PAGES_CSS`: the rules both style sheets had word for word (the alert and the live region,
 *   buttons' focus ring, fieldsets, the claim's `<dl>`, ...). Each page adds its own rules after it.
 * - `claimPagesScript(options)`: the helpers at the top of both inline scripts, as browser JS to
 *   splice inside each page's `(() => { ... })()`: `$`, `el`, the labels of reasons and statuses,
 *   money and date formatting, `announce`, `clearError` / `showError` (the API's message in the
 *   alert, focus on the field it names if it is shown), `request` (fetch with the API's error
 *   envelope, plus the HTTP status, turned into an exception) and `run` (one action at a time, its
 *   error shown). The options are what the pages say differently (their words for a failed request,
 *   an error code that names a field of their own).
 *   Each page wraps `request` in its own `api` with its credential.
 * API strings reach the DOM only as text: `el(tag, text)` and every helper here set `textContent`.
 */

/** The CSS rules both claim pages use; a page's own rules follow it in its `<style>`. */
export const CLAIM_PAGES_CSS = `  [hidden] { display: none !important; }
  fieldset { border: 1px solid #c3cbdc; border-radius: .4rem; margin: 0 0 1rem; padding: .5rem 1rem; }
  button.secondary { background: white; color: #2b5fd9; }
  button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, a:focus-visible { outline: 3px solid #e07a1f; outline-offset: 2px; }
  [aria-invalid=true] { border-color: #b3261e; }
  .error { color: #8a1c14; background: #fdecea; border-left: 4px solid #b3261e; padding: .5rem 1rem; margin: 1rem 0; }
  .error:empty { padding: 0; margin: 0; border: 0; }
  .notice { background: #f3f6fc; border-radius: .4rem; padding: .5rem 1rem; margin: 1rem 0; }
  .notice:empty { padding: 0; margin: 0; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
  dl div { display: contents; }
  dt { font-weight: 600; }
  dd { margin: 0; }
  nav { margin-bottom: 1rem; }
  h2:focus, #error:focus { outline: none; }`;

export interface ClaimPagesScriptOptions {
  /** The alert's text when fetch itself fails (no answer at all). */
  unreachable: string;
  /** The alert's text for a failed answer without the API's error envelope; `{status}` becomes the HTTP status. */
  failed: string;
  /** Whether such an answer's own top-level `message` (API Gateway's, e.g. "Forbidden") comes before `failed`. */
  answerMessage: boolean;
  /** Error codes that name a field whatever their `param`: code → the field's element id. */
  fieldByCode?: Record<string, string>;
}

/** A value as a JS literal that is safe inside `<script>` (no `</script>` can end it). */
const literal = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The pages' scripts: each page's TypeScript module under `widget/pages/scripts/`, bundled by
 * `widget/build.ts` (buildPageScripts) and served by npm start at `/assets/<name>.js`. A page runs
 * no inline script (its CSP says `script-src 'self'`): it names its module with pageScriptTag and
 * passes what the server knows in pageDataBlock, as data.
 */
export const PAGE_SCRIPTS = ['checkout', 'dashboard', 'claim', 'admin-claims'] as const;
export type PageScript = (typeof PAGE_SCRIPTS)[number];
export const pageScriptPath = (name: PageScript): string => `/assets/${name}.js`;
/** The `<script src>` of the page's own module, where its inline script was: it runs once the page above it is parsed. */
export const pageScriptTag = (name: PageScript): string => `<script src="${pageScriptPath(name)}"></script>`;
/**
 * What the server gives the page's script (a public key, say), as JSON in a data block the browser
 * never runs (`type="application/json"`); the module reads it with pageData() (scripts/kit.ts).
 * `<` is escaped, so no `</script>` can end the block early.
 */
export const pageDataBlock = (value: unknown): string => `<script type="application/json" id="page-data">${literal(value)}</script>`;

/**
 * The browser helpers both pages' scripts start with, as JS source indented for the pages'
 * `(() => { ... })()`. It needs the page's `#error` (role=alert) and `#announce` (role=status).
 */
export function claimPagesScript(options: ClaimPagesScriptOptions): string {
  return `  const REASONS = { illness: 'Illness', injury: 'Injury', travel_disruption: 'Travel disruption', bereavement: 'Bereavement', severe_weather: 'Severe weather', other: 'Other' };
  const STATUSES = { Submitted: 'Submitted', DocumentsRequested: 'Documents requested', Approved: 'Approved', Denied: 'Denied', Withdrawn: 'Withdrawn', Paid: 'Paid' };
  const UNREACHABLE = ${literal(options.unreachable)};
  const FAILED = ${literal(options.failed)};
  const ANSWER_MESSAGE = ${literal(options.answerMessage)};
  const FIELD_BY_CODE = ${literal(options.fieldByCode ?? {})};
  const $ = (id) => document.getElementById(id);

  // The API's decimal string, formatted exactly (never a float) with the digits it has: its currency's ISO 4217 minor unit.
  const money = (amount, currency) => {
    try {
      const digits = amount.includes('.') ? amount.length - amount.indexOf('.') - 1 : 0;
      return new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(amount);
    } catch {
      return currency + ' ' + amount;
    }
  };
  const when = (at) => at.slice(0, 16).replace('T', ' ') + ' UTC';
  const label = (map, value) => map[value] || value;
  const el = (tag, text) => {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    return node;
  };

  const errorBox = $('error');
  let invalid = [];
  const announce = (text) => {
    $('announce').textContent = text;
  };
  function clearError() {
    errorBox.textContent = '';
    for (const field of invalid) field.removeAttribute('aria-invalid');
    invalid = [];
  }
  // The API's own message, in the alert; focus goes to the field it names, else to the alert.
  // fields: param (or its start, as policy_numbers is of policy_numbers[0]) → () => the field.
  function showError(err, fields) {
    announce('');
    errorBox.textContent = (err && err.message) || 'Something went wrong. Please try again.';
    const param = (err && err.param) || '';
    const code = (err && err.code) || '';
    const byCode = Object.hasOwn(FIELD_BY_CODE, code) ? FIELD_BY_CODE[code] : null;
    const name = Object.keys(fields || {}).find((prefix) => param === prefix || param.startsWith(prefix + '[') || param.startsWith(prefix + '.'));
    const named = byCode ? $(byCode) : name ? fields[name]() : null;
    // A field the page no longer shows (its form went away with the claim's new state) cannot take the focus.
    const field = named && named.getClientRects().length > 0 ? named : null;
    if (field) {
      field.setAttribute('aria-invalid', 'true');
      invalid.push(field);
      field.focus();
    } else {
      errorBox.focus();
    }
  }

  // A failed answer throws the API's error envelope ({ message, code, param, ... }) or a message of its
  // own, with the answer's HTTP status added as status (none when no answer came at all).
  async function request(method, path, body, authorization) {
    const headers = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (authorization) headers.authorization = authorization;
    let res;
    try {
      res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch {
      throw { message: UNREACHABLE };
    }
    const data = await res.json().catch(() => null);
    if (!res.ok) {
      const error = (data && data.error) || { message: (ANSWER_MESSAGE && data && data.message) || FAILED.replace('{status}', res.status) };
      throw Object.assign({}, error, { status: res.status });
    }
    return data;
  }
  // One action at a time (a second click while one runs does nothing); what it throws goes to showError.
  let busy = false;
  async function run(action, fields) {
    if (busy) return;
    busy = true;
    clearError();
    try {
      await action();
    } catch (err) {
      showError(err, fields);
    } finally {
      busy = false;
    }
  }`;
}

/**
 * The operator pages' script kit (/admin/claims, /admin/bordereaux): claimPagesScript with their
 * words for a failed request (a missing or wrong operator credential puts the focus on the key),
 * then the operator key, kept in sessionStorage (a reload keeps it, closing the tab forgets it), and
 * `api(method, path, body)`, which sends it.
 */
export function operatorPagesScript(): string {
  return `${claimPagesScript({
    unreachable: 'The API could not be reached.',
    failed: 'The API answered {status}.',
    answerMessage: true,
    fieldByCode: { operator_credentials_required: 'operator-key' },
  })}
  const STORED_KEY = 'order-protection.operator-key';
  const keyField = $('operator-key');
  keyField.value = sessionStorage.getItem(STORED_KEY) || '';
  keyField.addEventListener('input', () => sessionStorage.setItem(STORED_KEY, keyField.value));
  const api = (method, path, body) => request(method, path, body, 'Operator ' + keyField.value.trim());
`;
}
