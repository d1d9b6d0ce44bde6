import { quoteSigner } from '../../shared/auth/quote-tokens.js';
import { loadConfig } from '../../shared/config.js';
import { cachedQuoteClients, createQuote } from '../../shared/domain/create-quote.js';
import { randomIds } from '../../shared/domain/ids.js';
import { formatCents } from '../../shared/domain/money.js';
import { systemClock } from '../../shared/domain/ports.js';
import { premiumTotal } from '../../shared/domain/quote.js';
import { AuthenticationError } from '../../shared/errors.js';
import { jsonResponse } from '../../shared/http/envelope.js';
import { httpHandler } from '../../shared/http/middleware.js';
import { QuoteRequest } from '../../shared/http/schemas.js';
import { parseInput } from '../../shared/http/validation.js';
import { DynamoClientStore } from '../../shared/infra/client-store.js';
import { sharedDocumentClient } from '../../shared/infra/dynamo-client.js';

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
        cost: formatCents(item.cost),
        premium: formatCents(item.premium),
        coverage_amount: formatCents(item.cost),
      })),
      premium_total: formatCents(premiumTotal(quote.items)),
      expires_at: expiresAt.toISOString(),
      tokens,
    });
  },
  { jsonBody: true },
);
