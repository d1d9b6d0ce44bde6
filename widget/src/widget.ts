import { fetchCatalogue, formatLocale, isRightToLeft, negotiate, translator, type Catalogue, type Locale, type Translator } from './i18n.js';
import { offerText, termsLink, tokenFor, type Choice, type OfferText, type Quote } from './offer.js';

/**
 * The checkout widget: `window.OrderProtection`. It asks the API for a quote with the merchant's
 * public key, shows the offer as an explicit yes / no choice (nothing pre-selected), and hands the
 * matching quote token to the merchant through `get('token')` in optInCb / optOutCb. When the API
 * cannot be reached it reports onErrorCb and optOutCb, so the checkout never blocks.
 *
 * Its texts come in the customer's language (`locale`, else the browser's languages, else English:
 * i18n.ts): English is built in; another language's catalogue is fetched once, from the file the
 * build named next to this script (`locales/widget.<tag>.<hash>.json`, widget/locale-files.ts),
 * while the widget shows its loading text (every language's is built in). A catalogue that cannot
 * be loaded (within CATALOGUE_TIMEOUT_MS) means English: it never holds up the checkout.
 */
interface CartItem {
  reference_number: string;
  cost: string;
  name?: string;
  /** The item's event, as POST /api/v2/orders will carry it: a merchant's terms may price by days to the event. */
  event?: { name: string; start_date: string; start_time: string; end_date?: string | null; end_time?: string | null; location?: string };
}
/** The widget's texts a merchant may replace, per locale tag: `{ de: { legend: '…' } }` (`{coverage}` and `{premium}` are filled in). */
export type WidgetTexts = Partial<Record<keyof OfferText | 'loading' | 'unavailable' | 'refused' | 'terms', string>>;
/** What onErrorCb gets: the API's refusal, when it answered one (`event_in_past` on `items[2].event.start_date`). */
export type WidgetError = Error & { status?: number; code?: string; param?: string };
export interface WidgetConfig {
  apiKey: string;
  baseUrl: string;
  currency: string;
  items: CartItem[];
  container: string | HTMLElement;
  /** BCP 47; else the browser's languages. */
  locale?: string | undefined;
  /** Texts of the merchant's own, by locale tag (`de`, `pt-BR`; a language's own, `en`, also serves `en-GB`). */
  texts?: Record<string, WidgetTexts>;
  /** The protection's terms, one https URL or one per locale tag; shown as a link in the offer. */
  termsUrl?: string | Record<string, string>;
  loadedCb?: (quote: Quote) => void;
  optInCb?: () => void;
  optOutCb?: () => void;
  updatedCb?: (quote: Quote) => void;
  onErrorCb?: (error: WidgetError) => void;
}

declare const __OP_WIDGET_EN__: Catalogue;
declare const __OP_WIDGET_FILES__: Partial<Record<Locale, string>>;
declare const __OP_WIDGET_LOADING__: Record<Locale, string>;
const ENGLISH: Catalogue = __OP_WIDGET_EN__;
/** This script's own address, read while it runs: the locale files sit next to it. */
const scriptUrl = (document.currentScript as HTMLScriptElement | null)?.src || undefined;
/** Each language's catalogue, fetched at most once per page (undefined: it could not be loaded, English it is). */
const catalogues = new Map<Locale, Promise<Catalogue | undefined>>();

let config: WidgetConfig | undefined;
let quote: Quote | undefined;
let choice: Choice | undefined;
/** Why there is no offer, when there is none: the API refused this cart (an event that is over), or it could not be asked. */
let notice: 'refused' | 'unavailable' | undefined;
let instance = 0;
let wanted: Locale = 'en';
let texts: Translator | undefined;
let localized: Promise<void> = Promise.resolve();

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function root(): HTMLElement {
  const target = typeof config?.container === 'string' ? document.querySelector<HTMLElement>(config.container) : config?.container;
  if (!target) throw new Error('OrderProtection: container not found');
  return target;
}

async function catalogueOf(locale: Locale): Promise<Catalogue | undefined> {
  const file = __OP_WIDGET_FILES__[locale];
  return file && scriptUrl ? fetchCatalogue(new URL(file, scriptUrl)) : undefined;
}

/** The translator for the customer's language, once its catalogue is here (English when it cannot be). */
async function localize(asked: (string | undefined)[]): Promise<Translator> {
  const locale = negotiate(asked);
  let catalogue: Catalogue | undefined = ENGLISH;
  if (locale !== 'en') {
    if (!catalogues.has(locale)) catalogues.set(locale, catalogueOf(locale));
    catalogue = await catalogues.get(locale);
  }
  const shown: Locale = catalogue ? locale : 'en';
  return translator(shown, catalogue ?? ENGLISH, ENGLISH, formatLocale(asked, shown));
}

/** A text of the widget: the merchant's for this locale (or its language), else the catalogue's. */
function text(key: keyof WidgetTexts, values: Record<string, string> = {}): string {
  const t = texts!;
  const own = config?.texts;
  const pick = (tag: string) => (own && Object.hasOwn(own, tag) ? own[tag]?.[key] : undefined);
  const custom = pick(t.locale) ?? pick(t.locale.split('-')[0]!);
  return typeof custom === 'string' ? custom.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole) : t.t(key, values);
}

function render(): void {
  const el = root();
  // lang and dir on what the widget writes: a merchant's page in one language may show the offer in another.
  const tag = (locale: Locale) => `lang="${locale}" dir="${isRightToLeft(locale) ? 'rtl' : 'ltr'}"`;
  if (!texts || (!quote && !notice)) {
    el.innerHTML = `<p class="op-loading" role="status" ${tag(wanted)}>${escapeHtml(__OP_WIDGET_LOADING__[wanted])}</p>`;
    return;
  }
  // A redraw keeps the keyboard in the widget (not on <body>): on the radio it was on, else the first, else the notice.
  const focused = el.contains(document.activeElement) ? ((document.activeElement as HTMLInputElement).value ?? '') : undefined;
  if (notice) {
    el.innerHTML = `<p class="op-unavailable" role="status" tabindex="-1" ${tag(texts.locale)}>${escapeHtml(text(notice))}</p>`;
    if (focused !== undefined) el.querySelector<HTMLElement>('.op-unavailable')?.focus();
    return;
  }
  const offer = offerText(quote!, text, texts.format);
  const terms = termsLink(config?.termsUrl, texts.locale);
  const id = `op-${instance}`;
  el.innerHTML = `
    <fieldset class="op-offer" aria-describedby="${id}-desc" ${tag(texts.locale)}>
      <legend>${escapeHtml(offer.legend)}</legend>
      <p id="${id}-desc">${escapeHtml(offer.description)}</p>
      <label><input type="radio" name="${id}-choice" value="opt_in" ${choice === 'opt_in' ? 'checked' : ''}> ${escapeHtml(offer.yes)}</label>
      <label><input type="radio" name="${id}-choice" value="opt_out" ${choice === 'opt_out' ? 'checked' : ''}> ${escapeHtml(offer.no)}</label>
      ${terms ? `<p class="op-terms"><a href="${escapeHtml(terms)}" target="_blank" rel="noopener noreferrer">${escapeHtml(text('terms'))}</a></p>` : ''}
    </fieldset>`;
  const radios = el.querySelectorAll<HTMLInputElement>('input[type=radio]');
  radios.forEach((input) => input.addEventListener('change', () => choose(input.value as Choice)));
  if (focused !== undefined) (Array.from(radios).find((input) => input.value === focused) ?? radios[0])?.focus();
}

function choose(next: Choice): void {
  choice = next;
  if (next === 'opt_in') config?.optInCb?.();
  else config?.optOutCb?.();
}

function fail(error: unknown): void {
  // A 4xx with the API's error: this cart cannot be protected (asking again will not help); else it could not be asked now.
  const { status, code } = error as WidgetError;
  notice = status !== undefined && status >= 400 && status < 500 && status !== 429 && code !== undefined ? 'refused' : 'unavailable';
  quote = undefined;
  choice = undefined;
  render();
  config?.onErrorCb?.(error instanceof Error ? error : new Error(String(error)));
  config?.optOutCb?.();
}

async function fetchQuote(items: CartItem[]): Promise<Quote> {
  const c = config!;
  const res = await fetch(`${c.baseUrl.replace(/\/$/, '')}/api/v2/quotes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-public-key': c.apiKey },
    body: JSON.stringify({
      currency: c.currency,
      // The event goes with its item: the quote prices by it (rate bands by days to the event) and
      // refuses one that is over, as the order will.
      items: items.map(({ reference_number, cost, name, event }) => ({ reference_number, cost, ...(name ? { name } : {}), ...(event ? { event } : {}) })),
    }),
  });
  if (!res.ok) {
    const refusal = ((await res.json().catch(() => null)) as { error?: { code?: string; param?: string; message?: string } } | null)?.error;
    const error: WidgetError = new Error(
      `quote failed with HTTP ${res.status}${refusal?.code ? ` ${refusal.code}` : ''}${refusal?.message ? `: ${refusal.message}` : ''}`,
    );
    Object.assign(error, { status: res.status, code: refusal?.code, param: refusal?.param });
    throw error;
  }
  return (await res.json()) as Quote;
}

async function load(items: CartItem[], callback: 'loadedCb' | 'updatedCb'): Promise<void> {
  const current = ++instance;
  const ready = localized; // the quote and the catalogue are fetched side by side
  try {
    const fresh = await fetchQuote(items);
    await ready;
    if (current !== instance) return; // a newer request replaced this one
    quote = fresh;
    notice = undefined;
    render();
    config?.[callback]?.(fresh);
    if (choice) choose(choice); // the choice stands; its token is the new quote's
  } catch (error) {
    await ready;
    if (current === instance) fail(error);
  }
}

const OrderProtection = {
  configure(next: WidgetConfig): Promise<void> {
    config = next;
    quote = undefined;
    choice = undefined;
    notice = undefined;
    texts = undefined;
    const asked = [next.locale, ...(navigator.languages ?? [navigator.language])];
    wanted = negotiate(asked);
    const mine = (localized = localize(asked).then((t) => {
      if (localized === mine) texts = t; // a later configure() has its own
    }));
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
    return choice === 'opt_in' && !notice;
  },
};

(window as unknown as { OrderProtection: typeof OrderProtection }).OrderProtection = OrderProtection;
