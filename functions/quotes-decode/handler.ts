import type { Context } from 'aws-lambda';
import { quoteTokenReader } from '#shared/quotes/quote-tokens.js';
import { decodeQuote, type DecodedQuote } from '#shared/quotes/decode-quote.js';
import { formatMoney } from '#shared/platform/money/index.js';
import { loadConfig } from '#shared/platform/config.js';
import { systemClock } from '#shared/platform/clock.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { DynamoQuoteRedemptions } from '#shared/quotes/dynamo-quote-redemptions.js';
import { DynamoTermsStore } from '#shared/terms/dynamo-terms-store.js';
import { cachedTermsVersions } from '#shared/terms/index.js';
import { jsonResponse } from '#shared/platform/http/envelope.js';
import { clientIdOf, httpHandler, type HttpEvent } from '#shared/platform/http/middleware.js';
import { DecodeQuoteQuery, DecodeQuoteRequest } from '#shared/quotes/schemas.js';
import { parseInput } from '#shared/platform/http/validation.js';

const config = loadConfig();
const deps = {
  quotes: quoteTokenReader,
  terms: cachedTermsVersions(new DynamoTermsStore(sharedDocumentClient(), config.tableName), systemClock),
  clients: new DynamoClientStore(sharedDocumentClient(), config.tableName),
  redemptions: new DynamoQuoteRedemptions(sharedDocumentClient(), config.tableName),
};

/**
 * The sealed facts of the quote (never its items: the token holds only their digest), the checked
 * cart when one was sent, and for an opt-in token the order that redeemed its quote (null while none has).
 */
const view = ({ quote, optIn, expiresAt, items, redeemedBy }: DecodedQuote) =>
  jsonResponse(200, {
    quote_id: quote.quote_id,
    opt_in: optIn,
    currency: quote.currency,
    terms_version: quote.terms_version,
    item_count: quote.item_count,
    premium_total: formatMoney(quote.premium_total, quote.currency),
    expires_at: expiresAt.toISOString(),
    ...(items
      ? {
          items: items.map((item) => ({
            reference_number: item.reference_number,
            cost: formatMoney(item.cost, quote.currency),
            premium: formatMoney(item.premium, quote.currency),
          })),
        }
      : {}),
    ...(redeemedBy !== undefined ? { redeemed_by: redeemedBy && { service_order_id: redeemedBy.serviceOrderId, redeemed_at: redeemedBy.redeemedAt } } : {}),
  });

/** GET /api/v2/quotes/decode?token= (and Teak's GET /api/v2/quote/decode). */
const decodeToken = httpHandler(
  async (event, info) => view(await decodeQuote(deps, clientIdOf(info), parseInput(DecodeQuoteQuery, event.queryStringParameters ?? {}))),
  { authenticated: true },
);

/** POST /api/v2/quotes/decode with {token, items?}: the same, and the cart checked against the seal and priced. */
const decodeCart = httpHandler(async (event, info) => view(await decodeQuote(deps, clientIdOf(info), parseInput(DecodeQuoteRequest, event.body))), {
  authenticated: true,
  jsonBody: true,
});

/** One function, three routes: only the POST route has a JSON body to parse. */
export const handler = (event: HttpEvent, context: Context) => (event.requestContext.http.method === 'POST' ? decodeCart : decodeToken)(event, context);
