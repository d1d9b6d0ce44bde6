import type { QuoteSigner } from './create-quote.js';
import type { QuoteReader } from './ports.js';
import { quoteClaims, sealOf, type QuoteClaims } from './quote.js';
import { parseRate, readMoney } from '../platform/money/index.js';
import { FIRST_TERMS_VERSION } from '../terms/index.js';
import { ValidationError } from '../platform/errors.js';
import { signToken, verifyToken } from '../platform/keys/tokens.js';

/** Both tokens seal the same priced quote and differ only in `opt_in`. */
export function quoteSigner(ttlSeconds: number): QuoteSigner {
  return async (quote, now) => {
    const seal = sealOf(quote, now);
    const [optIn, optOut] = await Promise.all([
      signToken('quote', quote.client_id, { ...quoteClaims(seal, true) }, ttlSeconds, now),
      signToken('quote', quote.client_id, { ...quoteClaims(seal, false) }, ttlSeconds, now),
    ]);
    return { tokens: { opt_in: optIn, opt_out: optOut }, expiresAt: new Date(Math.floor(now.getTime() / 1000) * 1000 + ttlSeconds * 1000) };
  };
}

const invalid = () => new ValidationError('token is not a valid quote token for this client.', 'token', 'invalid_quote_token');

/** Verifies a quote token and checks it was issued to the calling client (else 422). */
export const quoteTokenReader: QuoteReader = {
  async read(token, clientId) {
    const result = await verifyToken<Partial<QuoteClaims> & { sub?: string }>('quote', token);
    if (!result.ok) {
      if (result.reason === 'expired') throw new ValidationError('token has expired; ask for a new quote.', 'token', 'quote_expired');
      throw invalid();
    }
    const claims = result.payload;
    // A token signed before terms had versions seals the client's flat rate (`rate`), which is its version 1.
    const termsVersion = claims.tv ?? (typeof claims.rate === 'string' && parseRate(claims.rate) !== undefined ? FIRST_TERMS_VERSION : undefined);
    // Read in the sealed currency: a JPY or KWD token signed before amounts had their currency's digits ("104.94" yen) is refused.
    const premiumTotal = typeof claims.pt === 'string' && typeof claims.currency === 'string' ? readMoney(claims.pt, claims.currency) : undefined;
    if (
      claims.sub !== clientId ||
      typeof claims.opt_in !== 'boolean' ||
      typeof claims.qid !== 'string' ||
      typeof claims.currency !== 'string' ||
      !Number.isInteger(claims.n) ||
      typeof claims.items !== 'string' ||
      !Number.isSafeInteger(termsVersion) ||
      (termsVersion as number) < 1 ||
      typeof claims.iat !== 'number' ||
      premiumTotal === undefined // required: tokens signed before `pt` was sealed are not taken
    ) {
      throw invalid();
    }
    return {
      optIn: claims.opt_in,
      quote: {
        quote_id: claims.qid,
        client_id: clientId,
        currency: claims.currency,
        terms_version: termsVersion as number,
        quoted_at: new Date(claims.iat * 1000),
        item_count: claims.n as number,
        items_digest: claims.items,
        premium_total: premiumTotal,
        ...(typeof claims.pd === 'string' ? { premiums_digest: claims.pd } : {}),
      },
      expiresAt: new Date((claims.exp as number) * 1000),
    };
  },
};
