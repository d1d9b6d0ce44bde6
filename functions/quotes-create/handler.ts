import { quoteSigner } from '#shared/quotes/quote-tokens.js';
import { loadConfig } from '#shared/platform/config.js';
import { cachedQuoteClients, createQuote } from '#shared/quotes/create-quote.js';
import { randomIds } from '#shared/platform/ids.js';
import { formatMoney } from '#shared/platform/money/index.js';
import { systemClock } from '#shared/platform/clock.js';
import { premiumTotal } from '#shared/quotes/quote.js';
import { AuthenticationError } from '#shared/platform/errors.js';
import { jsonResponse } from '#shared/platform/http/envelope.js';
import { httpHandler } from '#shared/platform/http/middleware.js';
import { QuoteRequest } from '#shared/quotes/schemas.js';
import { parseInput } from '#shared/platform/http/validation.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';

const config = loadConfig();
const deps = {
  clients: cachedQuoteClients(new DynamoClientStore(sharedDocumentClient(), config.tableName), systemClock),
  clock: systemClock,
  ids: randomIds,
  sign: quoteSigner(config.quoteTokenTtlSeconds),
};

/** POST /api/v2/quotes: called by the widget with the client's public key. */
export const handler = httpHandler(
  async (event) => {
    const publicKey = event.headers['x-public-key'];
    if (!publicKey || publicKey.length > 255) throw new AuthenticationError('invalid_public_key', 'The X-Public-Key header must carry your public key.');
    const input = parseInput(QuoteRequest, event.body);
    const { quote, tokens, expiresAt } = await createQuote(deps, publicKey, input);
    return jsonResponse(201, {
      quote_id: quote.quote_id,
      currency: quote.currency,
      items: quote.items.map((item) => ({
        reference_number: item.reference_number,
        cost: formatMoney(item.cost, quote.currency),
        premium: formatMoney(item.premium, quote.currency),
        coverage_amount: formatMoney(item.cost, quote.currency),
      })),
      premium_total: formatMoney(premiumTotal(quote.items), quote.currency),
      expires_at: expiresAt.toISOString(),
      tokens,
    });
  },
  { jsonBody: true },
);
