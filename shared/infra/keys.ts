/**
 * Pure key builders, one place for every primary key. See README "Data design".
 *
 * main table
 *   CLIENT#<client_id>                     / CLIENT             the client (name, rate, key hashes)
 *   PUBLIC_KEY#<public_key>                / PUBLIC_KEY         lookup: public key → client, secret hash, rate
 *   CLIENT#<client_id>#ORDER#<order_id>    / ORDER              order header (customer, subtotal, version)
 *   CLIENT#<client_id>#ORDER#<order_id>    / ITEM#<reference>   one item with its policy and event
 *   CLIENT#<client_id>#IDEMPOTENCY#<key>   / IDEMPOTENCY        a claimed Idempotency-Key and its response (TTL 24 h)
 * metrics table
 *   CLIENT#<client_id>                     / ORDER#<order_hash>    sanitized checkout record (opt-in or opt-out); order_hash: the order number's HMAC
 *   CLIENT#<client_id>                     / DAY#<YYYY-MM-DD>      daily opt_in / opt_out counters
 */
export interface Key {
  PK: string;
  SK: string;
}

/**
 * A record as stored: its key, its entity name, then its fields. The key is copied property by
 * property: a literal that spreads two objects (`{ ...key, ...fields }`) takes V8's slow path,
 * about 13 µs a record, which the bench's throughput section noticed.
 */
export const storedRecord = <T extends object>(key: Key, entity: string, fields: T) => ({ PK: key.PK, SK: key.SK, entity, ...fields });

export const clientKey = (clientId: string): Key => ({ PK: `CLIENT#${clientId}`, SK: 'CLIENT' });
export const publicKeyKey = (publicKey: string): Key => ({ PK: `PUBLIC_KEY#${publicKey}`, SK: 'PUBLIC_KEY' });

const orderPartition = (clientId: string, orderId: string): string => `CLIENT#${clientId}#ORDER#${orderId}`;
export const orderKey = (clientId: string, orderId: string): Key => ({ PK: orderPartition(clientId, orderId), SK: 'ORDER' });
export const orderItemKey = (clientId: string, orderId: string, referenceNumber: string): Key => ({
  PK: orderPartition(clientId, orderId),
  SK: `ITEM#${referenceNumber}`,
});
export { orderPartition };

/** The order-list index's keys of an order's records: the client's orders, newest first, each order's records together. */
export const orderListKey = (clientId: string): string => `CLIENT#${clientId}#ORDERS`;
export const orderListSort = (created: string, orderId: string, sortKey = ''): string => `${created}#${orderId}#${sortKey}`;

/** The policy-list index's keys of an item record: the client's policies, newest first. */
export const policyListKey = (clientId: string): string => `CLIENT#${clientId}#POLICIES`;
export const policyListSort = (created: string, policyNumber: string): string => `${created}#${policyNumber}#`;
/** Where a page that ended on this policy stops: just below its record, above every older one. */
export const policyListPosition = (created: string, policyNumber: string): string => `${created}#${policyNumber}`;

/** The policy-number index's key of an item record (its policy's number, under the client). */
export const policyLookupKey = (clientId: string, policyNumber: string): string => `CLIENT#${clientId}#POLICY#${policyNumber}`;

export const idempotencyKey = (clientId: string, key: string): Key => ({ PK: `CLIENT#${clientId}#IDEMPOTENCY#${key}`, SK: 'IDEMPOTENCY' });

export const checkoutKey = (clientId: string, orderHash: string): Key => ({ PK: `CLIENT#${clientId}`, SK: `ORDER#${orderHash}` });
export const dayCounterKey = (clientId: string, day: string): Key => ({ PK: `CLIENT#${clientId}`, SK: `DAY#${day}` });
export const DAY_PREFIX = 'DAY#';
