import * as v from 'valibot';
import { AmountText, costsInCurrency, Currency, EventInput, itemList, QuoteToken, Text } from '../platform/http/schemas.js';

/** The quotes' request schemas. */
export const QuoteRequest = v.pipe(
  v.strictObject({
    currency: Currency,
    items: itemList(v.strictObject({ reference_number: Text, cost: AmountText, name: v.optional(Text), event: v.optional(EventInput) })),
  }),
  costsInCurrency(),
);
export type QuoteRequest = v.InferOutput<typeof QuoteRequest>;

/** GET /quotes/decode?token=: the query string. */
export const DecodeQuoteQuery = v.strictObject({ token: QuoteToken });

/** POST /quotes/decode: the token, and optionally the cart to check against it (as an order would carry it; its costs are read in the token's currency). */
export const DecodeQuoteRequest = v.strictObject({
  token: QuoteToken,
  items: v.optional(itemList(v.strictObject({ reference_number: Text, cost: AmountText, event: v.optional(EventInput) }))),
});
export type DecodeQuoteRequest = v.InferOutput<typeof DecodeQuoteRequest>;
