import { randomUUID } from 'node:crypto';
import { randomBytesPooled } from './random.js';

/** The Ids port: every identifier the service mints. Tests may pass a deterministic one. */
export interface Ids {
  orderId(): string;
  itemId(): string;
  customerId(): string;
  eventId(): string;
  quoteId(): string;
  policyNumber(): string;
  policyNumberNew(): string;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// Crockford base32: no I, L, O, U, so policy numbers read aloud without ambiguity.
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Random text over `alphabet` (length a power of two or not: rejection sampling keeps it uniform). */
function randomText(alphabet: string, length: number): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytesPooled(length * 2)) {
      if (byte < limit && out.length < length) out += alphabet[byte % alphabet.length];
    }
  }
  return out;
}

const PREFIXED_ID_LENGTH = 24;
export const prefixedId = (prefix: string): string => `${prefix}_${randomText(BASE62, PREFIXED_ID_LENGTH)}`;
/** What prefixedId(prefix) makes, and nothing else: the prefix, an underscore and the random base62 text. */
export const prefixedIdPattern = (prefix: string): RegExp => new RegExp(`^${prefix}_[0-9A-Za-z]{${PREFIXED_ID_LENGTH}}$`);

export const randomIds: Ids = {
  orderId: () => randomUUID(),
  itemId: () => prefixedId('itm'),
  customerId: () => prefixedId('cus'),
  eventId: () => prefixedId('evnt'),
  quoteId: () => prefixedId('qt'),
  // OP-XXXX-XXXX-XXXX: 60 random bits, short enough to read to a support agent.
  policyNumber: () => `OP-${randomText(CROCKFORD, 12).replace(/(.{4})(?=.)/g, '$1-')}`,
  policyNumberNew: () => randomUUID(),
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** An order id from a path: anything that is not a service_order_id names no order. */
export const isOrderId = (id: string | undefined): id is string => id !== undefined && UUID.test(id);
