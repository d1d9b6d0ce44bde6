import { amountOrRefuse, maxItemCost } from '../platform/money/index.js';
import type { QuoteReader, QuoteRedemption, QuoteRedemptions } from './ports.js';
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
  /** An opt-in token's quote: the order that redeemed it, or null while none has (absent for an opt-out token, which is never spent). */
  redeemedBy?: QuoteRedemption | null;
}

export type DecodeQuoteDeps = { quotes: QuoteReader; redemptions: QuoteRedemptions } & SealedTermsDeps;

/**
 * GET/POST /quotes/decode: what a quote token vouches for, read exactly as POST /orders reads it
 * (422 `invalid_quote_token` / `quote_expired`). The token seals a digest of the cart, not the
 * items, so it cannot list them; given the cart, it checks it is exactly the quoted one (422
 * `quote_mismatch`, as POST /orders answers) and prices it as the quote did: under the sealed terms
 * version, each item's band by the days from the quote to its event (give the items' `event`s).
 * An opt-in token says which order redeemed its quote, if one has: POST /orders would answer
 * another order 409 `quote_redeemed`.
 */
export async function decodeQuote(deps: DecodeQuoteDeps, clientId: string, input: DecodeQuoteInput): Promise<DecodedQuote> {
  const { quote, optIn, expiresAt } = await deps.quotes.read(input.token, clientId);
  let items: PricedItem[] | undefined;
  if (input.items !== undefined) {
    const max = maxItemCost(quote.currency);
    const given = input.items.map((item, index) => ({ ...item, cost: amountOrRefuse(item.cost, quote.currency, max, `items[${index}].cost`) }));
    assertItemsMatchSeal(given, quote);
    items = priceItems(given, await sealedTerms(deps, clientId, quote.terms_version), quote.currency, quote.quoted_at);
    assertPremiumsMatchSeal(items, quote);
  }
  return {
    quote,
    optIn,
    expiresAt,
    ...(items ? { items } : {}),
    ...(optIn ? { redeemedBy: (await deps.redemptions.redeemedBy(clientId, quote.quote_id)) ?? null } : {}),
  };
}
