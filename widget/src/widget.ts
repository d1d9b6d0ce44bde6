import { offerText, tokenFor, type Choice, type Quote } from './offer.js';

/**
 * The checkout widget: `window.OrderProtection`. It asks the API for a quote with the merchant's
 * public key, shows the offer as an explicit yes / no choice (nothing pre-selected), and hands the
 * matching quote token to the merchant through `get('token')` in optInCb / optOutCb. When the API
 * cannot be reached it reports onErrorCb and optOutCb, so the checkout never blocks.
 */
interface CartItem {
  reference_number: string;
  cost: string;
  name?: string;
}
export interface WidgetConfig {
  apiKey: string;
  baseUrl: string;
  currency: string;
  items: CartItem[];
  container: string | HTMLElement;
  locale?: string;
  loadedCb?: (quote: Quote) => void;
  optInCb?: () => void;
  optOutCb?: () => void;
  updatedCb?: (quote: Quote) => void;
  onErrorCb?: (error: Error) => void;
}

let config: WidgetConfig | undefined;
let quote: Quote | undefined;
let choice: Choice | undefined;
let unavailable = false;
let instance = 0;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function root(): HTMLElement {
  const target = typeof config?.container === 'string' ? document.querySelector<HTMLElement>(config.container) : config?.container;
  if (!target) throw new Error('OrderProtection: container not found');
  return target;
}

async function fetchQuote(items: CartItem[]): Promise<Quote> {
  const c = config!;
  const res = await fetch(`${c.baseUrl.replace(/\/$/, '')}/api/v2/quotes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-public-key': c.apiKey },
    body: JSON.stringify({
      currency: c.currency,
      items: items.map(({ reference_number, cost, name }) => ({ reference_number, cost, ...(name ? { name } : {}) })),
    }),
  });
  if (!res.ok) throw new Error(`quote failed with HTTP ${res.status}`);
  return (await res.json()) as Quote;
}

function render(): void {
  const el = root();
  if (unavailable) {
    el.innerHTML = '<p class="op-unavailable" role="status">Refund protection is not available right now. You can complete your order without it.</p>';
    return;
  }
  if (!quote) {
    el.innerHTML = '<p class="op-loading" role="status">Loading refund protection…</p>';
    return;
  }
  const text = offerText(quote, config?.locale);
  const id = `op-${instance}`;
  el.innerHTML = `
    <fieldset class="op-offer" aria-describedby="${id}-desc">
      <legend>${escapeHtml(text.legend)}</legend>
      <p id="${id}-desc">${escapeHtml(text.description)}</p>
      <label><input type="radio" name="${id}-choice" value="opt_in" ${choice === 'opt_in' ? 'checked' : ''}> ${escapeHtml(text.yes)}</label>
      <label><input type="radio" name="${id}-choice" value="opt_out" ${choice === 'opt_out' ? 'checked' : ''}> ${escapeHtml(text.no)}</label>
    </fieldset>`;
  el.querySelectorAll<HTMLInputElement>('input[type=radio]').forEach((input) => input.addEventListener('change', () => choose(input.value as Choice)));
}

function choose(next: Choice): void {
  choice = next;
  if (next === 'opt_in') config?.optInCb?.();
  else config?.optOutCb?.();
}

function fail(error: unknown): void {
  unavailable = true;
  quote = undefined;
  choice = undefined;
  render();
  config?.onErrorCb?.(error instanceof Error ? error : new Error(String(error)));
  config?.optOutCb?.();
}

async function load(items: CartItem[], callback: 'loadedCb' | 'updatedCb'): Promise<void> {
  const current = ++instance;
  try {
    const fresh = await fetchQuote(items);
    if (current !== instance) return; // a newer request replaced this one
    quote = fresh;
    unavailable = false;
    render();
    config?.[callback]?.(fresh);
    if (choice) choose(choice); // the choice stands; its token is the new quote's
  } catch (error) {
    if (current === instance) fail(error);
  }
}

const OrderProtection = {
  configure(next: WidgetConfig): Promise<void> {
    config = next;
    quote = undefined;
    choice = undefined;
    unavailable = false;
    render();
    return load(next.items, 'loadedCb');
  },
  update({ items }: { items: CartItem[] }): Promise<void> {
    if (!config) throw new Error('OrderProtection: call configure() first');
    config = { ...config, items };
    return load(items, 'updatedCb');
  },
  get(key: 'token' | 'quote' | 'isProtected'): unknown {
    if (key === 'token') return tokenFor(quote, choice);
    if (key === 'quote') return quote;
    return choice === 'opt_in' && !unavailable;
  },
};

(window as unknown as { OrderProtection: typeof OrderProtection }).OrderProtection = OrderProtection;
