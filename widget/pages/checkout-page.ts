import { FAVICON_LINK } from './favicon.js';
import { pageDataBlock, pageScriptTag } from './page-kit.js';
/**
 * The demo checkout page at `/` of `npm start`: a cart, the widget, and a "Place order" button that
 * sends the order to the demo back-end (`POST /demo/place-order`), which calls the API the way a
 * merchant's back-end does. `?api=<url>` points the widget at another API (e.g. a dead one);
 * `?currency=JPY` (or KWD) sells the cart in another currency, priced in its minor unit. Each cart's
 * customer is a made-up `demo+<cart>@example.com` (example.com takes no mail); after a protected
 * order the page links to `/claim` with the order number filled in and says which e-mail to give, so
 * the whole tour (checkout → claim → the operator decides → the customer sees it) can be walked.
 * The e-mail stays out of the link: an address does not belong in a URL. Its script is
 * scripts/checkout.ts (served at /assets/checkout.js); the demo client's public key reaches it as data.
 */
export function checkoutPage(publicKey: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${FAVICON_LINK}
<title>Demo checkout · Order Protection</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; color: #1d2433; }
  table { width: 100%; border-collapse: collapse; margin-bottom: 1rem; }
  td, th { padding: .4rem; border-bottom: 1px solid #dde; text-align: left; }
  th.cost, td.cost { text-align: right; } /* the Price header sits over its amounts */
  .op-offer { border: 2px solid #2b5fd9; border-radius: .5rem; padding: .75rem 1rem; }
  .op-offer label { display: block; padding: .25rem 0; cursor: pointer; }
  button { font: inherit; padding: .5rem 1.25rem; border-radius: .4rem; border: 1px solid #2b5fd9; background: #2b5fd9; color: white; cursor: pointer; }
  button.secondary { background: white; color: #2b5fd9; }
  #claim-next { margin-top: .5rem; }
  a:focus-visible, button:focus-visible { outline: 3px solid #e07a1f; outline-offset: 2px; }
  #result { margin-top: 1rem; padding: .75rem 1rem; background: #f3f6fc; border-radius: .4rem; white-space: pre-wrap; }
  nav { margin-bottom: 1rem; }
</style>
</head>
<body>
<nav><a href="/dashboard">Conversion dashboard</a></nav>
<main>
<h1>Your cart</h1>
<table aria-label="Cart"><thead><tr><th>Item</th><th class="cost">Price</th></tr></thead><tbody id="cart"></tbody></table>
<div id="protection"></div>
<p><button id="place-order">Place order</button> <button id="new-cart" class="secondary">New cart</button></p>
<div id="result" role="status" aria-live="polite" hidden></div>
<p id="claim-next" hidden>Cannot go? <a id="claim-link" href="/claim">Claim a refund for this order</a> with the e-mail <strong id="claim-email"></strong>.</p>
<p id="customer-line">Ordering as <span id="customer-email"></span> (a made-up address for the demo).</p>
<p id="currencies">The same cart in another currency, priced in its minor unit: <a href="/?currency=USD">USD</a> · <a href="/?currency=JPY">JPY</a> · <a href="/?currency=KWD">KWD</a></p>
</main>
${pageDataBlock({ public_key: publicKey })}
<script src="/widget.js"></script>
${pageScriptTag('checkout')}
</body>
</html>`;
}
