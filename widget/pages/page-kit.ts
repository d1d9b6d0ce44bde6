/**
 * What the pages npm start serves share, on the server's side (their scripts share
 * `scripts/kit.ts` in the browser):
 * - `CLAIM_PAGES_CSS`: the rules the claim pages' style sheets (/claim, the console at /admin/)
 *   had word for word (the alert and the live region, buttons' focus ring,
 *   fieldsets, the claim's `<dl>`, ...). Each page adds its own rules after it.
 * - `PAGE_SCRIPTS`, `pageScriptTag` and `pageDataBlock`: a page's script is a file of its own, and
 *   what the server gives it is data, so no page carries an inline script.
 */

/** The CSS rules the claim pages use; a page's own rules follow it in its `<style>`. */
export const CLAIM_PAGES_CSS = `  [hidden] { display: none !important; }
  fieldset { border: 1px solid #c3cbdc; border-radius: .4rem; margin: 0 0 1rem; padding: .5rem 1rem; }
  button.secondary { background: white; color: #2b5fd9; }
  button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, a:focus-visible { outline: 3px solid #e07a1f; outline-offset: 2px; }
  [aria-invalid=true] { border-color: #b3261e; }
  .error { color: #8a1c14; background: #fdecea; border-inline-start: 4px solid #b3261e; padding: .5rem 1rem; margin: 1rem 0; }
  .error:empty { padding: 0; margin: 0; border: 0; }
  .notice { background: #f3f6fc; border-radius: .4rem; padding: .5rem 1rem; margin: 1rem 0; }
  .notice:empty { padding: 0; margin: 0; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
  dl div { display: contents; }
  dt { font-weight: 600; }
  dd { margin: 0; }
  nav { margin-bottom: 1rem; }
  h2:focus, #error:focus { outline: none; }`;

/** A value as JSON that is safe inside `<script>` (no `</script>` can end it). */
const literal = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The pages' scripts: each page's TypeScript module under `widget/pages/scripts/`, bundled by
 * `widget/build.ts` (buildPageScripts) and served by npm start at `/assets/<name>.js`. A page runs
 * no inline script (its CSP says `script-src 'self'`): it names its module with pageScriptTag and
 * passes what the server knows in pageDataBlock, as data.
 */
export const PAGE_SCRIPTS = ['checkout', 'dashboard', 'claim', 'console', 'portal'] as const;
export type PageScript = (typeof PAGE_SCRIPTS)[number];
export const pageScriptPath = (name: PageScript): string => `/assets/${name}.js`;
/** The `<script src>` of the page's own module, at the end of its `<body>`: it runs once the page above it is parsed. */
export const pageScriptTag = (name: PageScript): string => `<script src="${pageScriptPath(name)}"></script>`;
/**
 * What the server gives the page's script (a public key, say), as JSON in a data block the browser
 * never runs (`type="application/json"`); the module reads it with pageData() (scripts/kit.ts).
 * `<` is escaped, so no `</script>` can end the block early.
 */
export const pageDataBlock = (value: unknown): string => `<script type="application/json" id="page-data">${literal(value)}</script>`;
