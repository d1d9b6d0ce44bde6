import { readCatalogue, surfaceOf } from '../locale-files.js';
import { LANGUAGE_NAMES, LOCALES } from '../src/i18n.js';
import { FAVICON_LINK } from './favicon.js';
import { CLAIM_PAGES_CSS, pageDataBlock, pageScriptTag } from './page-kit.js';

/** The page's English, from its catalogue (widget/locales/en.json, `claim.…`): the page is written in it, and each text names its key (`data-t`) for the script to translate. */
const english = surfaceOf(readCatalogue('en'), 'claim');
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const t = (key: string): string => {
  const text = english[key];
  if (text === undefined) throw new Error(`the claim page's catalogue has no ${key}`);
  return escapeHtml(text);
};
/** `<tag data-t="key">English</tag>`, with the tag's other attributes. */
const tr = (tag: string, key: string, attributes = ''): string => `<${tag}${attributes ? ' ' + attributes : ''} data-t="${key}">${t(key)}</${tag}>`;

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
 *
 * It speaks the customer's language (`?lang=<BCP 47>`, else the browser's languages, else English;
 * a labelled select at its foot switches it in place): every text below is English from the
 * catalogue with its key in `data-t`, which the script replaces with the locale's (docs/locales.md).
 */
const REASON_KEYS = ['illness', 'injury', 'travel_disruption', 'bereavement', 'severe_weather', 'other'];

export function claimPage(demoShop?: string): string {
  return `<!doctype html>
<html lang="en" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${FAVICON_LINK}
<title>${t('title')}</title>
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
  .count.too-long { color: #8a1c14; font-weight: 600; border-inline-start: 4px solid #b3261e; padding-inline-start: .5rem; }
  ol, ul { padding-inline-start: 1.25rem; }
  h2, dd { overflow-wrap: anywhere; } /* a claim id is one long word: it wraps on a phone instead of widening the page */
  .files { list-style: none; padding: 0; }
  .files li { display: grid; grid-template-columns: 1fr auto; gap: .25rem .75rem; align-items: center; padding: .5rem 0; border-bottom: 1px solid #e3e6ee; }
  .files progress { grid-column: 1 / -1; width: 100%; height: .5rem; }
  .files .state { font-size: .9rem; color: #4a5366; }
  .files .state.bad { color: #8a1c14; font-weight: 600; }
  .files .state.ok { color: #1d6b3a; font-weight: 600; }
  /* The file picker in the page's language: the browser's own button speaks the browser's, so the input is kept (focus, keyboard, screen readers) but drawn by .pick. */
  .picker { position: relative; display: flex; flex-wrap: wrap; gap: .25rem .75rem; align-items: center; margin: .25rem 0 .75rem; }
  .picker input[type=file] { position: absolute; inset-inline-start: 0; width: 1px; height: 1px; opacity: 0; overflow: hidden; }
  .pick { font: inherit; padding: .4rem 1rem; border-radius: .4rem; border: 1px solid #2b5fd9; background: white; color: #2b5fd9; cursor: pointer; }
  .picker input[type=file]:focus-visible + .pick { outline: 3px solid #e07a1f; outline-offset: 2px; }
  #files-chosen { color: #4a5366; overflow-wrap: anywhere; }
  footer { margin-top: 2rem; padding-top: 1rem; border-top: 1px solid #e3e6ee; display: flex; flex-wrap: wrap; gap: .5rem; align-items: baseline; }
  footer label { display: inline; }
  footer select { display: inline-block; width: auto; margin: 0; }
</style>
</head>
<body>
${demoShop ? `<nav>${tr('a', 'demoCheckout', 'href="/" id="demo-checkout"')}</nav>` : ''}
<main>
${tr('h1', 'heading')}
<div id="error" class="error" role="alert" tabindex="-1"></div>
<p id="session-ended" hidden>${tr('button', 'findAgain', 'type="button" id="find-again"')}</p>
<div id="announce" class="notice" role="status" aria-live="polite"></div>

<section id="find" aria-labelledby="find-title">
${tr('h2', 'findTitle', 'id="find-title" tabindex="-1"')}
${tr('p', 'findIntro')}
${tr('p', 'noShop', 'id="no-shop" class="notice" hidden')}
<form id="find-form">
  ${tr('label', 'orderNumber', 'for="order-number"')}
  <input type="text" id="order-number" name="order_number" required maxlength="255" autocomplete="off">
  ${tr('label', 'email', 'for="email"')}
  <input type="email" id="email" name="email" required maxlength="255" autocomplete="email">
  ${tr('button', 'findOrder', 'type="submit" id="find-order"')}
</form>
</section>

<section id="order" aria-labelledby="order-title" hidden>
${tr('h2', 'orderTitle', 'id="order-title" tabindex="-1"')}
<form id="claim-form">
  <fieldset id="policies">
    ${tr('legend', 'ticketsLegend')}
    <div id="policy-list"></div>
  </fieldset>
  ${tr('p', 'noPolicies', 'id="no-policies" hidden')}
  ${tr('label', 'reason', 'for="reason"')}
  <select id="reason" name="reason" required>
    ${tr('option', 'chooseReason', 'value=""')}
    ${REASON_KEYS.map((reason) => tr('option', `reason.${reason}`, `value="${reason}"`)).join('\n    ')}
  </select>
  ${tr('label', 'whatHappened', 'for="description"')}
  <textarea id="description" name="description" dir="auto" required maxlength="4000" aria-describedby="description-count"></textarea>
  <p class="hint count" id="description-count">0 of 2000 characters</p>
  ${tr('button', 'submitClaim', 'type="submit" id="submit-claim"')}
</form>
${tr('h3', 'claimsOnOrder')}
${tr('p', 'noClaims', 'id="no-claims"')}
<ul id="claim-list"></ul>
<p>${tr('button', 'anotherOrder', 'type="button" id="another-order" class="secondary"')}</p>
</section>

<section id="claim" aria-labelledby="claim-title" hidden>
${tr('h2', 'claimTitle', 'id="claim-title" tabindex="-1"')}
<dl>
  <div>${tr('dt', 'fact.claim')}<dd id="claim-id"></dd></div>
  <div>${tr('dt', 'fact.status')}<dd id="claim-status"></dd></div>
  <div>${tr('dt', 'reason')}<dd id="claim-reason"></dd></div>
  <div>${tr('dt', 'fact.amount')}<dd id="claim-amount"></dd></div>
  <div>${tr('dt', 'fact.approved')}<dd id="claim-approved"></dd></div>
  <div id="payout-row">${tr('dt', 'fact.payout')}<dd id="claim-payout"></dd></div>
  <div>${tr('dt', 'fact.tickets')}<dd><ul id="claim-policies"></ul></dd></div>
</dl>
<section id="documents" aria-labelledby="documents-title">
${tr('h3', 'documents', 'id="documents-title"')}
${tr('p', 'noFiles', 'id="no-files"')}
<ul id="file-list" class="files"></ul>
<div id="upload-box">
  ${tr('label', 'addDocuments', 'for="files"')}
  <div class="picker">
    <input type="file" id="files" name="files" multiple accept="application/pdf,image/jpeg,image/png,.pdf,.jpg,.jpeg,.png" aria-describedby="files-chosen files-hint">
    ${tr('span', 'chooseFiles', 'class="pick" id="pick" aria-hidden="true"')}
    ${tr('span', 'noFileChosen', 'id="files-chosen"')}
  </div>
  ${tr('p', 'filesHint', 'class="hint" id="files-hint"')}
  ${tr('button', 'upload', 'type="button" id="upload"')}
</div>
</section>
${tr('h3', 'yourDescription')}
<p id="claim-description" dir="auto"></p>
${tr('h3', 'messages')}
${tr('p', 'noMessages', 'id="no-messages"')}
<ol id="claim-messages"></ol>
${tr('h3', 'history')}
<ol id="claim-history"></ol>
<form id="respond-form" hidden>
  ${tr('h3', 'documentsRequested')}
  ${tr('label', 'yourAnswer', 'for="respond-message"')}
  <textarea id="respond-message" name="message" dir="auto" required maxlength="4000" aria-describedby="respond-hint respond-count"></textarea>
  ${tr('p', 'respondHint', 'class="hint" id="respond-hint"')}
  <p class="hint count" id="respond-count">0 of 2000 characters</p>
  ${tr('button', 'sendAnswer', 'type="submit" id="send-answer"')}
</form>
<p class="actions">
  ${tr('button', 'refresh', 'type="button" id="refresh"')}
  ${tr('button', 'withdraw', 'type="button" id="withdraw" class="secondary"')}
  ${tr('button', 'back', 'type="button" id="back" class="secondary"')}
</p>
</section>
</main>
<footer>
  ${tr('label', 'language', 'for="language"')}
  <select id="language" name="language">
    ${LOCALES.map((locale) => `<option value="${locale}" lang="${locale}"${locale === 'en' ? ' selected' : ''}>${escapeHtml(LANGUAGE_NAMES[locale])}</option>`).join('\n    ')}
  </select>
</footer>
${pageDataBlock({ shop: demoShop ?? null })}
${pageScriptTag('claim')}
</body>
</html>`;
}
