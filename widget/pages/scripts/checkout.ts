import type { WidgetConfig } from '../../src/widget.js';
import { $, el, money, pageData } from './kit.js';

/**
 * The demo checkout's script (checkout-page.ts, served at /assets/checkout.js after /widget.js): a
 * made-up cart for a made-up customer, the widget on it, and "Place order", which sends the cart
 * with the widget's token to the demo back-end. `window.demoEvents` lists the widget's callbacks
 * as they came (the browser tests read it). `?locale=de` passes a locale on to the widget.
 */
interface OrderProtection {
  configure(config: WidgetConfig): Promise<void>;
  get(key: 'token'): unknown;
}
type Ticket = { reference_number: string; name: string; cost: string; event: { name: string; start_date: string; start_time: string; location: string } };
interface Cart {
  order_number: string;
  currency: string;
  customer: { email: string };
  items: Ticket[];
}
interface Placed {
  outcome: 'protected' | 'opted_out' | 'placed_without_protection' | 'failed';
  summary: string;
}

const widget = () => (window as unknown as { OrderProtection: OrderProtection }).OrderProtection;
const { public_key: publicKey } = pageData<{ public_key: string }>();
const params = new URLSearchParams(location.search);
const apiBase = params.get('api') || location.origin;
const locale = params.get('locale') || undefined;
let cart: Cart;
let widgetFailed = false;
const events: string[] = [];
// The same two seats in three currencies, in each one's minor unit (ISO 4217: 2, 0 and 3 digits).
const PRICES: Record<string, [string, string]> = { USD: ['120.00', '35.50'], JPY: ['15000', '4500'], KWD: ['36.500', '10.750'] };
const asked = params.get('currency');
// The other currencies' links keep the language asked for.
if (locale)
  document.querySelectorAll<HTMLAnchorElement>('#currencies a').forEach((link) => {
    link.setAttribute('href', '/?' + new URLSearchParams({ currency: new URL(link.href).searchParams.get('currency') ?? '', locale }).toString());
  });
const currency = asked && Object.hasOwn(PRICES, asked) ? asked : 'USD';
const prices = PRICES[currency]!;
// The concert is always some four months away: the quote prices by days to the event and refuses one that is over.
const concertDay = new Date(Date.now() + 120 * 86_400_000).toISOString().slice(0, 10);
const ticket = (ref: string, name: string, cost: string): Ticket => ({
  reference_number: ref,
  name,
  cost,
  event: { name: 'Spring Concert', start_date: concertDay, start_time: '19:30', location: 'City Hall' },
});
const seat = () => 1 + Math.floor(Math.random() * 30);

function newCart(): void {
  const n = Math.floor(Math.random() * 1e6).toString(36);
  const customer = { email: 'demo+' + n + '@example.com' };
  cart = {
    order_number: 'DEMO-' + Date.now().toString(36).toUpperCase() + '-' + n,
    currency,
    customer,
    items: [ticket(n + '-a', 'Seat A' + seat(), prices[0]), ticket(n + '-b', 'Seat B' + seat(), prices[1])],
  };
  $('cart').replaceChildren(
    ...cart.items.map((item) => {
      const row = el('tr');
      const cost = el('td', money(item.cost, currency));
      cost.className = 'cost';
      row.append(el('td', item.name), cost);
      return row;
    }),
  );
  widgetFailed = false;
  $('result').hidden = true;
  $('claim-next').hidden = true;
  $('customer-email').textContent = customer.email;
  void widget().configure({
    apiKey: publicKey,
    baseUrl: apiBase,
    currency: cart.currency,
    items: cart.items,
    container: '#protection',
    locale, // ?locale=<BCP 47>; else the widget reads the browser's languages
    loadedCb: () => events.push('loaded'),
    optInCb: () => events.push('opt_in'),
    optOutCb: () => events.push('opt_out'),
    updatedCb: () => events.push('updated'),
    onErrorCb: () => {
      widgetFailed = true;
      events.push('error');
    },
  });
}

async function placeOrder(): Promise<void> {
  const result = $('result');
  const token = widget().get('token');
  if (!token && !widgetFailed) {
    result.hidden = false;
    result.textContent = 'Please choose whether to protect your order.';
    return;
  }
  const res = await fetch('/demo/place-order', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...cart, token }) });
  const outcome = (await res.json()) as Placed;
  result.hidden = false;
  result.textContent = outcome.summary;
  result.dataset.outcome = outcome.outcome;
  // Only a protected order has something to claim.
  if (outcome.outcome === 'protected') {
    // The claim page in the language the checkout was shown in (?locale= here, ?lang= there).
    $<HTMLAnchorElement>('claim-link').href =
      '/claim?' + new URLSearchParams({ order_number: cart.order_number, ...(locale ? { lang: locale } : {}) }).toString();
    $('claim-email').textContent = cart.customer.email;
    $('claim-next').hidden = false;
  }
}

(window as unknown as { demoEvents: string[] }).demoEvents = events;
$('new-cart').addEventListener('click', newCart);
$('place-order').addEventListener('click', () => void placeOrder());
newCart();
