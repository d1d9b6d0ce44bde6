import { AuthenticationError } from '../errors.js';
import type { ClientStore } from './client.js';
import type { Ids } from './ids.js';
import type { Cents } from './money.js';
import type { Clock } from './ports.js';
import { priceItems, type PricedQuote } from './quote.js';

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

/** POST /quotes: prices the cart at the client's rate and signs the opt-in and opt-out tokens. */
export async function createQuote(deps: CreateQuoteDeps, publicKey: string, input: { currency: string; items: { reference_number: string; cost: Cents }[] }) {
  const client = await deps.clients.findByPublicKey(publicKey);
  if (!client || client.disabled) throw new AuthenticationError('invalid_public_key', 'X-Public-Key is not a known public key.');
  const now = deps.clock.now();
  const quote: PricedQuote = {
    quote_id: deps.ids.quoteId(),
    client_id: client.client_id,
    currency: input.currency,
    rate_ppm: client.rate_ppm,
    items: priceItems(input.items, client.rate_ppm),
  };
  const { tokens, expiresAt } = await deps.sign(quote, now);
  return { quote, tokens, expiresAt };
}

/** How long a container prices with a client it has read: a disabled client stops being quoted within a minute, like its tokens. */
export const QUOTE_CLIENT_CACHE_MS = 60_000;
const QUOTE_CLIENT_CACHE_SIZE = 1_000;

/**
 * The widget quotes on every checkout page, so in an on-sale one public key would be read
 * thousands of times a second — one item, a hot key. Each container keeps the clients it found
 * for QUOTE_CLIENT_CACHE_MS (at most QUOTE_CLIENT_CACHE_SIZE of them, the oldest dropped first);
 * unknown keys and failed reads are never kept, so made-up keys cannot fill it.
 */
export function cachedQuoteClients(store: Pick<ClientStore, 'findByPublicKey'>, clock: Clock): Pick<ClientStore, 'findByPublicKey'> {
  type Found = Awaited<ReturnType<ClientStore['findByPublicKey']>>;
  const found = new Map<string, { readAt: number; client: Promise<Found> }>();
  return {
    findByPublicKey(publicKey) {
      const now = clock.now().getTime();
      const entry = found.get(publicKey);
      if (entry && now - entry.readAt < QUOTE_CLIENT_CACHE_MS) return entry.client;
      // Concurrent misses share one read; an unknown key or a failed read is forgotten once answered.
      const client = store.findByPublicKey(publicKey).then(
        (answer) => {
          if (!answer) found.delete(publicKey);
          return answer;
        },
        (err: unknown) => {
          found.delete(publicKey);
          throw err;
        },
      );
      found.delete(publicKey);
      found.set(publicKey, { readAt: now, client });
      if (found.size > QUOTE_CLIENT_CACHE_SIZE) found.delete(found.keys().next().value!);
      return client;
    },
  };
}
