import { FAVICON_LINK } from './favicon.js';
/**
 * The demo checkout page at `/` of `npm start`: a cart, the widget, and a "Place order" button that
 * sends the order to the demo back-end (`POST /demo/place-order`), which calls the API the way a
 * merchant's back-end does. `?api=<url>` points the widget at another API (e.g. a dead one);
 * `?currency=JPY` (or KWD) sells the cart in another currency, priced in its minor unit. Each cart's
 * customer is a made-up `demo+<cart>@example.com` (example.com takes no mail); after a protected
 * order the page links to `/claim` with the order number filled in and says which e-mail to give, so
 * the whole tour (checkout → claim → the operator decides → the customer sees it) can be walked.
 * The e-mail stays out of the link: an address does not belong in a URL.
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
<p>The same cart in another currency, priced in its minor unit: <a href="/?currency=USD">USD</a> · <a href="/?currency=JPY">JPY</a> · <a href="/?currency=KWD">KWD</a></p>
</main>
<script src="/widget.js"></script>
<script>
  const params = new URLSearchParams(location.search);
  const apiBase = params.get('api') || location.origin;
  let cart;
  let widgetFailed = false;
  const events = [];
  // The same two seats in three currencies, in each one's minor unit (ISO 4217: 2, 0 and 3 digits).
  const PRICES = { USD: ['120.00', '35.50'], JPY: ['15000', '4500'], KWD: ['36.500', '10.750'] };
  const currency = PRICES[params.get('currency')] ? params.get('currency') : 'USD';
  const price = (amount) => {
    const digits = amount.includes('.') ? amount.length - amount.indexOf('.') - 1 : 0;
    return new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(amount);
  };
  const ticket = (ref, name, cost) => ({ reference_number: ref, name, cost, event: { name: 'Spring Concert', start_date: '2027-04-10', start_time: '19:30', location: 'City Hall' } });
  function newCart() {
    const n = Math.floor(Math.random() * 1e6).toString(36);
    const customer = { email: 'demo+' + n + '@example.com' };
    cart = { order_number: 'DEMO-' + Date.now().toString(36).toUpperCase() + '-' + n, currency, customer, items: [ticket(n + '-a', 'Seat A' + (1 + Math.floor(Math.random() * 30)), PRICES[currency][0]), ticket(n + '-b', 'Seat B' + (1 + Math.floor(Math.random() * 30)), PRICES[currency][1])] };
    document.getElementById('cart').innerHTML = cart.items.map((i) => '<tr><td>' + i.name + '</td><td class="cost">' + price(i.cost) + '</td></tr>').join('');
    widgetFailed = false;
    document.getElementById('result').hidden = true;
    document.getElementById('claim-next').hidden = true;
    document.getElementById('customer-email').textContent = customer.email;
    OrderProtection.configure({
      apiKey: ${JSON.stringify(publicKey)},
      baseUrl: apiBase,
      currency: cart.currency,
      items: cart.items,
      container: '#protection',
      locale: 'en-US',
      loadedCb: () => events.push('loaded'),
      optInCb: () => events.push('opt_in'),
      optOutCb: () => events.push('opt_out'),
      updatedCb: () => events.push('updated'),
      onErrorCb: () => { widgetFailed = true; events.push('error'); },
    });
  }
  window.demoEvents = events;
  document.getElementById('new-cart').addEventListener('click', newCart);
  document.getElementById('place-order').addEventListener('click', async () => {
    const result = document.getElementById('result');
    const token = OrderProtection.get('token');
    if (!token && !widgetFailed) {
      result.hidden = false;
      result.textContent = 'Please choose whether to protect your order.';
      return;
    }
    const res = await fetch('/demo/place-order', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...cart, token }) });
    const outcome = await res.json();
    result.hidden = false;
    result.textContent = outcome.summary;
    result.dataset.outcome = outcome.outcome;
    // Only a protected order has something to claim.
    if (outcome.outcome === 'protected') {
      document.getElementById('claim-link').href = '/claim?' + new URLSearchParams({ order_number: cart.order_number });
      document.getElementById('claim-email').textContent = cart.customer.email;
      document.getElementById('claim-next').hidden = false;
    }
  });
  newCart();
</script>
</body>
</html>`;
}
