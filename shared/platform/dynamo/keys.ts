/**
 * Pure key builders, one place for every primary key. See docs/data-design.md.
 *
 * main table
 *   CLIENT#<client_id>                     / CLIENT             the client (name, rate, key hashes)
 *   PUBLIC_KEY#<public_key>                / PUBLIC_KEY         lookup: public key → client, secret hash, rate
 *   CLIENTS                                / CLIENT#<client_id> the register of clients, for the console's list (the id only)
 *   CLIENT#<client_id>#ORDER#<order_id>    / ORDER              order header (customer, subtotal, version)
 *   CLIENT#<client_id>#ORDER#<order_id>    / ITEM#<reference>   one item with its policy and event
 *   CLIENT#<client_id>#IDEMPOTENCY#<key>   / IDEMPOTENCY        a claimed Idempotency-Key and its response (TTL 24 h)
 *   CLIENT#<client_id>#QUOTE#<quote_id>    / REDEEMED           that a quote sold its one order, and which (TTL: when its tokens expire)
 *   CLAIM#<claim_id>                       / CLAIM              a claim's facts (status, amounts, policies, history)
 *   CLAIM#<claim_id>                       / TEXT               its description and messages (TTL: 90 days after it closes)
 *   CLAIM#<claim_id>#FILES                 / FILE#<file_id>     a file the customer attached (its status; the bytes are in the evidence bucket)
 *   CLAIM#<claim_id>#FILES                 / COUNT              the claim's files: those holding a place, and all ever added
 *   EVIDENCE_ERASE#<YYYY-MM-DD>            / CLAIM#<claim_id>   a closed claim whose files are erased that day (with its text)
 *   CUSTOMER#<key>#CLAIMS                  / <created>#<claim_id> a customer's claim at any merchant (key: keyed hash of the e-mail; TTL 366 days)
 *   ATTEMPTS#<scope>                       / WINDOW#<n>         failed claim-session attempts in a 15-minute window (TTL)
 *   CLIENT#<client_id>#LEDGER#<YYYY-MM>#<nn> / <created>#<le_id> a ledger entry (LIST_SHARDS shards a client and month)
 *   CLIENT#<client_id>#LEDGER_ENTRY#<le_id> / LEDGER_ENTRY    that the entry exists, and where (its key): its id alone decides
 *   CLIENT#<client_id>#STATEMENT#<YYYY-MM> / CURRENCY#<c>#<day> a statement's figures of one currency and day
 *   LEDGER#<YYYY-MM>                       / CLIENT#<client_id> the clients with a move in the month (for the bordereaux)
 *   CLIENT#<client_id>#MONTHS              / <YYYY-MM>          the months the client had a move in (its balance walks them)
 *   CLIENT#<client_id>#CLOSINGS            / <YYYY-MM>          a month's close: balances, due date, standing (closed, paid, overdue)
 *   CLIENT#<client_id>#REMITTANCES         / <recorded_at>#<hash> a payment finance recorded
 *   CLIENT#<client_id>#REMITTANCE#<hash>   / REMITTANCE         that a reference is taken, and by which payment (hash: of the reference)
 *   CLIENT#<client_id>#CLAIMS#<YYYY-MM>    / CLAIM#<claim_id>   a claim with a move in the month (for the claims bordereau)
 *   BORDEREAU#<bx_id>                      / BORDEREAU          an export of a month's bordereau (blist_key BORDEREAUX: the past exports)
 *   AUDIT                                  / <at>#<audit_id>    a staff action (shared/identity): who, what, on what
 *   RESERVED#<hash>                        / RESERVED           a change outside DynamoDB in progress (a person being added: hash of the e-mail; TTL)
 * metrics table
 *   CHECKOUT#<client_id>#<order_hash>      / CHECKOUT           sanitized checkout record (opt-in or opt-out); order_hash: the order number's HMAC.
 *                                                               One partition per checkout: an on-sale's checkouts share no key.
 *   CLIENT#<client_id>                     / DAY#<YYYY-MM-DD>   daily opt_in / opt_out counts, derived from the table's stream
 *                                                               (functions/metrics-aggregate): written once per stream shard per window, never per checkout
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

/**
 * The inverse of storedRecord: a record's own fields, without its key, its entity name and the
 * attributes that are the store's alone (`storedOnly`: index keys, TTL, bookkeeping).
 */
export function recordFields<T>(record: Record<string, unknown>, storedOnly: readonly string[] = []): T {
  const fields: Record<string, unknown> = {};
  for (const name in record) if (name !== 'PK' && name !== 'SK' && name !== 'entity' && !storedOnly.includes(name)) fields[name] = record[name];
  return fields as T;
}

export const clientKey = (clientId: string): Key => ({ PK: `CLIENT#${clientId}`, SK: 'CLIENT' });
export const CLIENTS_PARTITION = 'CLIENTS';
export const clientRegisterKey = (clientId: string): Key => ({ PK: CLIENTS_PARTITION, SK: `CLIENT#${clientId}` });
/** A version of a client's terms, in the client's partition; the padded number sorts the versions. */
export const termsKey = (clientId: string, version: number): Key => ({ PK: `CLIENT#${clientId}`, SK: `TERMS#${String(version).padStart(10, '0')}` });
export const TERMS_SORT_PREFIX = 'TERMS#';
/** A quote's redemption: written with the order that redeems its opt-in token, so that the token sells one order only. */
export const quoteRedemptionKey = (clientId: string, quoteId: string): Key => ({ PK: `CLIENT#${clientId}#QUOTE#${quoteId}`, SK: 'REDEEMED' });
export const publicKeyKey = (publicKey: string): Key => ({ PK: `PUBLIC_KEY#${publicKey}`, SK: 'PUBLIC_KEY' });

const orderPartition = (clientId: string, orderId: string): string => `CLIENT#${clientId}#ORDER#${orderId}`;
/** A kept cancellation preview (cn_…), under its client. */
export const cancellationKey = (clientId: string, cancellationId: string): Key => ({
  PK: `CLIENT#${clientId}#CANCELLATION#${cancellationId}`,
  SK: 'CANCELLATION',
});
export const orderKey = (clientId: string, orderId: string): Key => ({ PK: orderPartition(clientId, orderId), SK: 'ORDER' });
export const orderItemKey = (clientId: string, orderId: string, referenceNumber: string): Key => ({
  PK: orderPartition(clientId, orderId),
  SK: `ITEM#${referenceNumber}`,
});
export { orderPartition };

/** The order a record of the main table belongs to, read from its partition key (an order's header and items); undefined for any other record. */
export function orderOfPartition(partitionKey: unknown): { client_id: string; order_id: string } | undefined {
  const match = /^CLIENT#([^#]+)#ORDER#([^#]+)$/.exec(typeof partitionKey === 'string' ? partitionKey : '');
  return match ? { client_id: match[1]!, order_id: match[2]! } : undefined;
}

/**
 * The list indexes' partition keys are write-sharded: one unsharded key per client took every
 * record of an on-sale's checkouts, and DynamoDB gives one key about 1,000 writes/s. Why 64: at
 * 10,000 checkouts/s for one client, about half opt in, and an opt-in writes about 3.5 records to
 * the order-list index (header + 2.5 items) and 2.5 to the policy-list index: ≈ 17,500 index
 * writes/s ÷ 64 ≈ 270/s a key (policy list: 12,500 ÷ 64 ≈ 200/s), headroom for uneven hashing under
 * the goal of 500/s. A list page then Queries all LIST_SHARDS shards and merges them (`shard-merge.ts`),
 * which lists can afford: they are rare next to checkouts.
 */
export const LIST_SHARDS = 64;
/** A shard is named in its key with SHARD_DIGITS decimal digits (`<nn>`), so there are at most 10^SHARD_DIGITS of them. */
const SHARD_DIGITS = 2;

/**
 * The shard (0..LIST_SHARDS-1) of a list record: FNV-1a (32-bit) of `text`, scaled down so that its
 * top bits choose (an FNV hash's low bits depend only on the low bits of each character, its high
 * bits on all of them). Stable (a record's key never moves) and cheap: no allocation on the
 * checkout path.
 */
export function listShard(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return Math.floor(((hash >>> 0) * LIST_SHARDS) / 0x1_0000_0000);
}

const shardSuffix = (shard: number): string => String(shard).padStart(SHARD_DIGITS, '0');

/**
 * The order-list index's keys of an order's records: the client's orders, newest first, each
 * order's records together. Every record of an order is in the shard of its order id, so one
 * shard's Query still returns whole orders.
 */
export const orderListKey = (clientId: string, shard: number): string => `CLIENT#${clientId}#ORDERS#${shardSuffix(shard)}`;
export const orderListShard = (orderId: string): number => listShard(orderId);
export const orderListSort = (created: string, orderId: string, sortKey = ''): string => `${created}#${orderId}#${sortKey}`;

/** The policy-list index's keys of an item record: the client's policies, newest first, in the shard of the policy number (spreads an order's items). */
export const policyListKey = (clientId: string, shard: number): string => `CLIENT#${clientId}#POLICIES#${shardSuffix(shard)}`;
export const policyListShard = (policyNumber: string): number => listShard(policyNumber);
export const policyListSort = (created: string, policyNumber: string): string => `${created}#${policyNumber}#`;
/** Where a page that ended on this policy stops: just below its record, above every older one. */
export const policyListPosition = (created: string, policyNumber: string): string => `${created}#${policyNumber}`;

/**
 * A ledger entry's key: the client's entries of one month, write-sharded by entry id like the list
 * indexes (the entries of an on-sale spread over LIST_SHARDS keys), newest first within a shard.
 */
export const ledgerKey = (clientId: string, period: string, entryId: string, created: string): Key => ({
  PK: ledgerPartition(clientId, period, listShard(entryId)),
  SK: `${created}#${entryId}`,
});
export const ledgerPartition = (clientId: string, period: string, shard: number): string => `CLIENT#${clientId}#LEDGER#${period}#${shardSuffix(shard)}`;
/**
 * An entry's id, whatever month and time it was booked at: written with the entry (conditional on
 * not existing), so a second writer that derives the same entry at another time finds it.
 */
export const ledgerEntryIdKey = (clientId: string, entryId: string): Key => ({ PK: `CLIENT#${clientId}#LEDGER_ENTRY#${entryId}`, SK: 'LEDGER_ENTRY' });
/** A client's statement of a month: one record per currency and day, all in one partition, so the statement is one Query. */
export const statementKey = (clientId: string, period: string, currency: string, day: string): Key => ({
  PK: statementPartition(clientId, period),
  SK: `CURRENCY#${currency}#${day}`,
});
export const statementPartition = (clientId: string, period: string): string => `CLIENT#${clientId}#STATEMENT#${period}`;
/**
 * The clients with a move in a month, one record each, all in one partition: what an export of the
 * month's bordereaux starts from. Written once per client and month by each stream consumer's
 * container (it remembers what it wrote), so the partition takes a few writes per client a month.
 */
export const periodClientKey = (period: string, clientId: string): Key => ({ PK: periodClientsPartition(period), SK: `CLIENT#${clientId}` });
export const periodClientsPartition = (period: string): string => `LEDGER#${period}`;
/** A month a client had a move in, one record each in the client's partition of months: a balance walks them. */
export const clientMonthKey = (clientId: string, period: string): Key => ({ PK: clientMonthsPartition(clientId), SK: period });
export const clientMonthsPartition = (clientId: string): string => `CLIENT#${clientId}#MONTHS`;
/** A month's close (its balances and standing), the client's closes in one partition, by month. */
export const closingKey = (clientId: string, period: string): Key => ({ PK: closingsPartition(clientId), SK: period });
export const closingsPartition = (clientId: string): string => `CLIENT#${clientId}#CLOSINGS`;
/** A payment finance recorded, the client's in one partition by when they were recorded; and its reference's claim on it. */
export const remittanceKey = (clientId: string, recordedAt: string, referenceHash: string): Key => ({
  PK: remittancesPartition(clientId),
  SK: `${recordedAt}#${referenceHash}`,
});
export const remittancesPartition = (clientId: string): string => `CLIENT#${clientId}#REMITTANCES`;
export const remittanceReferenceKey = (clientId: string, referenceHash: string): Key => ({
  PK: `CLIENT#${clientId}#REMITTANCE#${referenceHash}`,
  SK: 'REMITTANCE',
});
/** A claim with a move (filed, a new status) in a month: the client's claims of the month, for the claims bordereau. */
export const claimActivityKey = (clientId: string, period: string, claimId: string): Key => ({
  PK: claimActivityPartition(clientId, period),
  SK: `CLAIM#${claimId}`,
});
export const claimActivityPartition = (clientId: string, period: string): string => `CLIENT#${clientId}#CLAIMS#${period}`;
/** An export of a month's bordereau: its state, its object's key when done. */
export const bordereauKey = (exportId: string): Key => ({ PK: `BORDEREAU#${exportId}`, SK: 'BORDEREAU' });
/** An export's place in the bordereaux' index (BORDEREAU_LIST_INDEX), newest first by reading it backwards. */
export const BORDEREAU_LIST_KEY = 'BORDEREAUX';
export const bordereauListSort = (created: string, exportId: string): string => `${created}#${exportId}`;

export const AUDIT_PARTITION = 'AUDIT';
/** A change outside DynamoDB in progress, by its name's hash (never the e-mail itself): one request at a time makes it. */
export const reservationKey = (nameHash: string): Key => ({ PK: `RESERVED#${nameHash}`, SK: 'RESERVED' });
export const auditKey = (at: string, auditId: string): Key => ({ PK: AUDIT_PARTITION, SK: `${at}#${auditId}` });

/** The policy-number index's key of an item record (its policy's number, under the client). */
export const policyLookupKey = (clientId: string, policyNumber: string): string => `CLIENT#${clientId}#POLICY#${policyNumber}`;

export const idempotencyKey = (clientId: string, key: string): Key => ({ PK: `CLIENT#${clientId}#IDEMPOTENCY#${key}`, SK: 'IDEMPOTENCY' });

export const checkoutKey = (clientId: string, orderHash: string): Key => ({ PK: `CHECKOUT#${clientId}#${orderHash}`, SK: 'CHECKOUT' });
export const dayCounterKey = (clientId: string, day: string): Key => ({ PK: `CLIENT#${clientId}`, SK: `DAY#${day}` });
export const DAY_PREFIX = 'DAY#';

/** A client's webhook endpoints, one partition (at most MAX_ENDPOINTS, shared/webhooks), and its count of them. */
export const webhookEndpointKey = (clientId: string, id: string): Key => ({ PK: `CLIENT#${clientId}#WEBHOOKS`, SK: `ENDPOINT#${id}` });
export const webhookCountKey = (clientId: string): Key => ({ PK: `CLIENT#${clientId}#WEBHOOKS`, SK: 'COUNT' });
/** The test events asked for one endpoint in one window (TEST_EVENTS_PER_ENDPOINT), beside the client's endpoints. */
export const webhookTestWindowKey = (clientId: string, endpointId: string, window: number): Key => ({
  PK: `CLIENT#${clientId}#WEBHOOKS`,
  SK: `TESTS#${endpointId}#${window}`,
});

/** The test events asked for all of a client's endpoints in one window (TEST_EVENTS_PER_CLIENT), beside them. */
export const webhookClientTestWindowKey = (clientId: string, window: number): Key => ({
  PK: `CLIENT#${clientId}#WEBHOOKS`,
  SK: `CLIENT_TESTS#${window}`,
});

/** A webhook event and its deliveries (one record per endpoint): one partition per event. */
export const webhookEventKey = (clientId: string, eventId: string): Key => ({ PK: `CLIENT#${clientId}#EVENT#${eventId}`, SK: 'EVENT' });
export const webhookDeliveryKey = (clientId: string, eventId: string, endpointId: string): Key => ({
  PK: `CLIENT#${clientId}#EVENT#${eventId}`,
  SK: `DELIVERY#${endpointId}`,
});
/** A test event asked for (POST /webhook_endpoints/{id}/test), in its event's partition: the stream carries it to the dispatcher. */
export const webhookTestKey = (clientId: string, eventId: string): Key => ({ PK: `CLIENT#${clientId}#EVENT#${eventId}`, SK: 'TEST' });
/**
 * The retry index's shards: a pending delivery is in one of RETRY_SHARDS partitions (hash of its
 * event id). Every delivery enters it when recorded (due for the sweep should no attempt follow)
 * and leaves it when it ends: two index writes a delivery, so at 10,000 deliveries/s RETRY_SHARDS
 * shards take 20,000 ÷ RETRY_SHARDS writes/s each (about 310), far below a key's 1,000.
 */
export const RETRY_SHARDS = 64;
export const retryKey = (eventId: string): string => `RETRY#${shardSuffix(listShard(eventId) % RETRY_SHARDS)}`;

/** The events index's keys of an event record: the client's events, newest first, in the shard of its order. */
export const eventListKey = (clientId: string, shard: number): string => `CLIENT#${clientId}#EVENTS#${shardSuffix(shard)}`;
export const eventListSort = (created: string, eventId: string): string => `${created}#${eventId}`;

/** The hold index's keys of a pending delivery: an order's pending deliveries to one endpoint, oldest event first. */
export const holdKey = (clientId: string, orderId: string, endpointId: string): string => `CLIENT#${clientId}#ORDER#${orderId}#TO#${endpointId}`;
export const holdSort = (created: string, eventId: string): string => `${created}#${eventId}`;

/**
 * A claim: its facts (`CLAIM`) and its text (`TEXT`: description and messages, erased by TTL 90
 * days after the claim closes), one partition per claim, found by its id alone (the operator's
 * routes know nothing else).
 */
export const claimKey = (claimId: string): Key => ({ PK: `CLAIM#${claimId}`, SK: 'CLAIM' });
export const claimTextKey = (claimId: string): Key => ({ PK: `CLAIM#${claimId}`, SK: 'TEXT' });
/** A customer's claims at every merchant, newest last, by the keyed hash of their e-mail (the claimed-elsewhere signal). */
export const customerClaimsPartition = (customerKey: string): string => `CUSTOMER#${customerKey}#CLAIMS`;
export const customerClaimKey = (customerKey: string, created: string, claimId: string): Key => ({
  PK: customerClaimsPartition(customerKey),
  SK: `${created}#${claimId}`,
});
/** A claim's files, in a partition of their own (reading the claim never reads them), with their count. */
export const claimFilesPartition = (claimId: string): string => `CLAIM#${claimId}#FILES`;
export const claimFileKey = (claimId: string, fileId: string): Key => ({ PK: claimFilesPartition(claimId), SK: `FILE#${fileId}` });
export const claimFilesCountKey = (claimId: string): Key => ({ PK: claimFilesPartition(claimId), SK: 'COUNT' });
/** The claims whose files are erased on one day. */
export const evidenceErasePartition = (day: string): string => `EVIDENCE_ERASE#${day}`;
export const evidenceEraseKey = (day: string, claimId: string): Key => ({ PK: evidenceErasePartition(day), SK: `CLAIM#${claimId}` });
/**
 * The operator's queue: claims by status, oldest first. Unsharded: claims come a few per thousand
 * orders, and each is written a handful of times over days, far from a key's 1,000 writes/s.
 */
export const claimQueueKey = (status: string): string => `CLAIMS#${status}`;
export const claimQueueSort = (created: string, claimId: string): string => `${created}#${claimId}`;

/** Failed claim-session attempts of one scope in one window (TTL). */
export const attemptWindowKey = (scope: string, window: number): Key => ({ PK: `ATTEMPTS#${scope}`, SK: `WINDOW#${window}` });

/**
 * The relations the shard counts break (none when they hold): every shard has a name of `digits`
 * digits, and a retry shard is a list shard modulo the retry shards, so they spread evenly only
 * if their count divides the list shards'. Pure: a test tries other numbers.
 */
export function shardViolations(listShards: number, retryShards: number, digits: number = SHARD_DIGITS): string[] {
  return [
    ...(listShards > 10 ** digits ? [`${listShards} list shards cannot all be named with ${digits} digits`] : []),
    ...(listShards % retryShards !== 0 ? [`${retryShards} retry shards do not divide ${listShards} list shards`] : []),
  ];
}
const violations = shardViolations(LIST_SHARDS, RETRY_SHARDS);
if (violations.length > 0) throw new Error(`keys.ts: ${violations.join('; ')}`);
