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

/** "10.20" in USD for en-US → "$10.20"; amounts stay strings until the very last step. */
export function formatMoney(amount: string, currency: string, locale?: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(Number(amount));
  } catch {
    return `${amount} ${currency}`;
  }
}

/** The token the merchant must send: the one matching the choice; none before a choice or without a quote. */
export function tokenFor(quote: Quote | undefined, choice: Choice | undefined): string | undefined {
  if (!quote || !choice) return undefined;
  return quote.tokens[choice];
}

export function coverageTotal(quote: Quote): string {
  const cents = quote.items.reduce((sum, item) => sum + Math.round(Number(item.coverage_amount) * 100), 0);
  return (cents / 100).toFixed(2);
}

export interface OfferText {
  legend: string;
  description: string;
  yes: string;
  no: string;
}

export function offerText(quote: Quote, locale?: string): OfferText {
  const premium = formatMoney(quote.premium_total, quote.currency, locale);
  const coverage = formatMoney(coverageTotal(quote), quote.currency, locale);
  return {
    legend: 'Refund protection',
    description: `Get back up to ${coverage} if you cannot attend for a covered reason, such as illness, injury or travel disruption.`,
    yes: `Yes, protect my order for ${premium}`,
    no: "No, I don't want protection",
  };
}
