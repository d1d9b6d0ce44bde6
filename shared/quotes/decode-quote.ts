import { amountOrRefuse, maxItemCost } from '../platform/money/index.js';
import type { QuoteReader } from './ports.js';
import { assertItemsMatchSeal, assertPremiumsMatchSeal, priceItems, type PricedItem, type QuoteSeal } from './quote.js';
import { sealedTerms, type SealedTermsDeps } from '../clients/index.js';

export interface DecodeQuoteInput {
  token: string;
  /** The cart the merchant is about to charge for, its costs as written: read in the token's currency, checked against the seal and priced when given. */
  items?: { reference_number: string; cost: string; event?: { start_date: string } }[];
}

export interface DecodedQuote {
  quote: QuoteSeal;
  optIn: boolean;
  expiresAt: Date;
  /** The given items, in the order given, priced under the sealed terms version (only when items were given). */
  items?: PricedItem[];
}

/**
 * GET/POST /quotes/decode: what a quote token vouches for, read exactly as POST /orders reads it
 * (422 `invalid_quote_token` / `quote_expired`). The token seals a digest of the cart, not the
 * items, so it cannot list them; given the cart, it checks it is exactly the quoted one (422
 * `quote_mismatch`, as POST /orders answers) and prices it as the quote did: under the sealed terms
 * version, each item's band by the days from the quote to its event (give the items' `event`s).
 */
export async function decodeQuote(deps: { quotes: QuoteReader } & SealedTermsDeps, clientId: string, input: DecodeQuoteInput): Promise<DecodedQuote> {
  const { quote, optIn, expiresAt } = await deps.quotes.read(input.token, clientId);
  if (input.items === undefined) return { quote, optIn, expiresAt };
  const max = maxItemCost(quote.currency);
  const items = input.items.map((item, index) => ({ ...item, cost: amountOrRefuse(item.cost, quote.currency, max, `items[${index}].cost`) }));
  assertItemsMatchSeal(items, quote);
  const priced = priceItems(items, await sealedTerms(deps, clientId, quote.terms_version), quote.currency, quote.quoted_at);
  assertPremiumsMatchSeal(priced, quote);
  return { quote, optIn, expiresAt, items: priced };
}
