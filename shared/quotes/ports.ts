import type { QuoteSeal } from './quote.js';

/** Reads a quote token for a client: the priced quote, the customer's choice and when the token expires. */
export interface QuoteReader {
  read(token: string, clientId: string): Promise<{ optIn: boolean; quote: QuoteSeal; expiresAt: Date }>;
}

/** Which order redeemed a quote's opt-in token (a quote sells one order), when one has. */
export interface QuoteRedemption {
  serviceOrderId: string;
  redeemedAt: string;
}

/** Reads a quote's redemption, as the order that redeemed it wrote it (shared/orders writes it in the order's own transaction). */
export interface QuoteRedemptions {
  redeemedBy(clientId: string, quoteId: string): Promise<QuoteRedemption | undefined>;
}
