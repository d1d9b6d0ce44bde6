import { AuthenticationError, ForbiddenError } from '../platform/errors.js';
import type { ClientStore } from '../clients/index.js';
import type { Ids } from '../platform/ids.js';
import { cachedReads } from '../platform/cache.js';
import type { Clock } from '../platform/clock.js';
import { assertEventsNotOver, priceItems, type ItemToPrice, type PricedQuote } from './quote.js';
import { termsInForce } from '../clients/index.js';

export interface QuoteTokens {
  opt_in: string;
  opt_out: string;
}
export type QuoteSigner = (quote: PricedQuote, now: Date) => Promise<{ tokens: QuoteTokens; expiresAt: Date }>;

export interface CreateQuoteDeps {
  clients: Pick<ClientStore, 'findByPublicKey'>;
  clock: Clock;
  ids: Ids;
  sign: QuoteSigner;
}

/** POST /quotes: prices the cart under the client's terms version in force and signs the opt-in and opt-out tokens. */
export async function createQuote(deps: CreateQuoteDeps, publicKey: string, input: { currency: string; items: ItemToPrice[] }) {
  const client = await deps.clients.findByPublicKey(publicKey);
  if (!client || client.disabled) throw new AuthenticationError('invalid_public_key', 'X-Public-Key is not a known public key.');
  if (client.suspended)
    throw new ForbiddenError('client_suspended', "This merchant's protection is not offered at the moment; go on with the checkout without it.");
  const now = deps.clock.now();
  assertEventsNotOver(input.items, now, (index, field) => `items[${index}].event.${field}`);
  const terms = termsInForce(client, now);
  const quote: PricedQuote = {
    quote_id: deps.ids.quoteId(),
    client_id: client.client_id,
    currency: input.currency,
    terms_version: terms.version,
    items: priceItems(input.items, terms, input.currency, now),
  };
  const { tokens, expiresAt } = await deps.sign(quote, now);
  return { quote, tokens, expiresAt };
}

/** How long a container prices with a client it has read: a disabled or suspended client stops being quoted within a minute, like its tokens. */
export const QUOTE_CLIENT_CACHE_MS = 60_000;

/**
 * The widget quotes on every checkout page, so in an on-sale one public key would be read
 * thousands of times a second — one item, a hot key. Each container keeps the clients it found
 * for QUOTE_CLIENT_CACHE_MS (shared/platform/cache.ts).
 */
export function cachedQuoteClients(store: Pick<ClientStore, 'findByPublicKey'>, clock: Clock): Pick<ClientStore, 'findByPublicKey'> {
  return { findByPublicKey: cachedReads((publicKey) => store.findByPublicKey(publicKey), clock, QUOTE_CLIENT_CACHE_MS) };
}
