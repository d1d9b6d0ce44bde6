import type { QuoteSeal } from './quote.js';

/** Reads a quote token for a client: the priced quote, the customer's choice and when the token expires. */
export interface QuoteReader {
  read(token: string, clientId: string): Promise<{ optIn: boolean; quote: QuoteSeal; expiresAt: Date }>;
}
