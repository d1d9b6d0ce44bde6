import { isolate } from './i18n.js';

/**
 * The widget's pure logic, kept apart from the DOM so it can be tested without a browser:
 * what a quote looks like, how money reads in the shopper's locale, which token a choice hands over.
 */
export interface QuoteItem {
  reference_number: string;
  cost: string;
  premium: string;
  coverage_amount: string;
}
export interface Quote {
  quote_id: string;
  currency: string;
  items: QuoteItem[];
  premium_total: string;
  expires_at: string;
  tokens: { opt_in: string; opt_out: string };
}
export type Choice = 'opt_in' | 'opt_out';

/** Fraction digits of a decimal string as the API writes it: its currency's ISO 4217 minor unit ("1500" → 0, "12.345" → 3). */
const fractionDigits = (amount: string): number => (amount.includes('.') ? amount.length - amount.indexOf('.') - 1 : 0);

/**
 * "10.20" USD in en-US → "$10.20"; "1500" JPY → "¥1,500"; "12.345" KWD → "KWD 12.345". The amount
 * goes to Intl.NumberFormat as the decimal string it is (exact, never a float), with exactly the
 * digits the API gave it, which are ISO 4217's for the currency.
 */
export function formatMoney(amount: string, currency: string, locale?: string): string {
  try {
    const digits = fractionDigits(amount);
    const format = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits });
    return format.format(amount as Intl.StringNumericLiteral);
  } catch {
    return `${amount} ${currency}`;
  }
}

/** The token the merchant must send: the one matching the choice; none before a choice or without a quote. */
export function tokenFor(quote: Quote | undefined, choice: Choice | undefined): string | undefined {
  if (!quote || !choice) return undefined;
  return quote.tokens[choice];
}

/** The sum of the items' coverage, as the API writes money: exact digit arithmetic on the strings (BigInt), never floats. */
export function coverageTotal(quote: Quote): string {
  const digits = Math.max(0, ...quote.items.map((item) => fractionDigits(item.coverage_amount)));
  const units = (amount: string) => BigInt(amount.replace('.', '') + '0'.repeat(digits - fractionDigits(amount)));
  const total = quote.items
    .reduce((sum, item) => sum + units(item.coverage_amount), 0n)
    .toString()
    .padStart(digits + 1, '0');
  return digits === 0 ? total : `${total.slice(0, -digits)}.${total.slice(-digits)}`;
}

export interface OfferText {
  legend: string;
  description: string;
  yes: string;
  no: string;
}

/**
 * The offer's texts in the customer's language: `text` is the widget's catalogue (with the
 * merchant's overrides) and `locale` the tag Intl writes the premium and the coverage in.
 */
export function offerText(quote: Quote, text: (key: keyof OfferText, values: Record<string, string>) => string, locale = 'en'): OfferText {
  const premium = isolate(locale, formatMoney(quote.premium_total, quote.currency, locale));
  const coverage = isolate(locale, formatMoney(coverageTotal(quote), quote.currency, locale));
  return {
    legend: text('legend', {}),
    description: text('description', { coverage }),
    yes: text('yes', { premium }),
    no: text('no', {}),
  };
}

/** The merchant's terms link for a locale: `termsUrl` as one URL, or by locale tag (the locale's, else its language's); https only, anything else ignored. */
export function termsLink(termsUrl: string | Record<string, string> | undefined, locale: string): string | undefined {
  const own = (tag: string) => (termsUrl && typeof termsUrl === 'object' && Object.hasOwn(termsUrl, tag) ? termsUrl[tag] : undefined);
  const url = typeof termsUrl === 'string' ? termsUrl : (own(locale) ?? own(locale.split('-')[0]!));
  if (typeof url !== 'string') return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}
