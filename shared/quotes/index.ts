/**
 * Quotes: the widget's priced cart and the quote token that seals it. Orders redeem a token
 * through `QuoteReader` and price a cart with the quote's rules.
 */
export { assertEventsNotOver, assertItemsMatchSeal, assertPremiumsMatchSeal, premiumTotal, priceItems } from './quote.js';
export type { PricedItem, QuoteSeal } from './quote.js';
export type { QuoteReader } from './ports.js';
