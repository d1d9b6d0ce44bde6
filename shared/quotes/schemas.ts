import * as v from 'valibot';
import { Currency, EventInput, itemList, Money, QuoteToken, Text } from '../platform/http/schemas.js';

/** The quotes' request schemas. */
export const QuoteRequest = v.strictObject({
  currency: Currency,
  items: itemList(v.strictObject({ reference_number: Text, cost: Money, name: v.optional(Text), event: v.optional(EventInput) })),
});
export type QuoteRequest = v.InferOutput<typeof QuoteRequest>;

/** GET /quotes/decode?token=: the query string. */
export const DecodeQuoteQuery = v.strictObject({ token: QuoteToken });

/** POST /quotes/decode: the token, and optionally the cart to check against it (as an order would carry it). */
export const DecodeQuoteRequest = v.strictObject({
  token: QuoteToken,
  items: v.optional(itemList(v.strictObject({ reference_number: Text, cost: Money }))),
});
export type DecodeQuoteRequest = v.InferOutput<typeof DecodeQuoteRequest>;
