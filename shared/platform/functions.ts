import type { KeyKind } from './keys/signing-keys.js';
import type { StaffRole } from './staff.js';
import {
  EVENT_LIST_INDEX,
  HOLD_INDEX,
  ORDER_LIST_INDEX,
  POLICY_INDEX,
  POLICY_LIST_INDEX,
  RETRY_INDEX,
  CLAIM_QUEUE_INDEX,
  BORDEREAU_LIST_INDEX,
  type TableDefinition,
} from './dynamo/table-definitions.js';

/** Who may call the staff routes (shared/platform/staff.ts names the roles and their duties). */
const CLAIMS: readonly StaffRole[] = ['claims'];
const FINANCE: readonly StaffRole[] = ['finance'];
const ADMIN: readonly StaffRole[] = ['admin'];
const STAFF: readonly StaffRole[] = ['claims', 'finance', 'admin'];

/**
 * The function catalogue: every Lambda function of the service, the routes it serves and what it
 * may touch. The CDK stack (`lib/`) derives the routes, environment and least-privilege grants
 * from it, the local server its routes, the bench its list, the tests their types: adding a
 * function is one entry here (and its `functions/<name>/handler.ts`).
 */
export interface RouteDefinition {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** API Gateway path syntax, without trailing slash; every path is served with and without one. */
  path: string;
  /**
   * `access-token`: behind the merchant routes' authorizer (a client's access token; on `portal`
   * routes a merchant user's sign-in too). `staff`: API Gateway's JWT authorizer (the staff
   * sign-in's issuer) deployed, npm start's gateway locally, then the handler checks `roles`.
   * `public-key` / `claim-token` / `none`: no authorizer (the handler checks the public key or the
   * claim token itself).
   */
  auth: 'access-token' | 'staff' | 'claim-token' | 'public-key' | 'none';
  /** `staff` routes: the roles that may call it (any one of them). */
  roles?: readonly StaffRole[];
  /** `access-token` routes a merchant user signed in to the portal may call too (with the client its token names). */
  portal?: boolean;
  /** Browser-facing routes answer CORS preflights. */
  cors?: boolean;
}

export type BordereauxUse = 'read' | 'write';
export type EvidenceUse = 'upload' | 'check' | 'link' | 'erase';
/** S3 actions a use of a bucket grants, each on its key prefixes only. */
export type ObjectGrant = { readonly actions: readonly string[]; readonly prefixes: readonly string[] };

/** The bordereaux' objects are all under this prefix of their bucket. */
export const BORDEREAUX_PREFIX = 'bordereaux/';
/** What each use of the bordereaux bucket grants (the stack's statements, and npm start's check of them). */
export const BORDEREAUX_GRANTS: Record<BordereauxUse, readonly ObjectGrant[]> = {
  read: [{ actions: ['s3:GetObject'], prefixes: [BORDEREAUX_PREFIX] }],
  write: [{ actions: ['s3:PutObject', 's3:AbortMultipartUpload'], prefixes: [BORDEREAUX_PREFIX] }],
};
/** What each use of the evidence bucket grants. */
export const EVIDENCE_GRANTS: Record<EvidenceUse, readonly ObjectGrant[]> = {
  upload: [{ actions: ['s3:PutObject'], prefixes: ['uploads/'] }],
  check: [
    { actions: ['s3:GetObject', 's3:DeleteObject'], prefixes: ['uploads/', 'files/'] },
    { actions: ['s3:PutObject'], prefixes: ['files/'] },
  ],
  link: [{ actions: ['s3:GetObject'], prefixes: ['files/'] }],
  erase: [{ actions: ['s3:DeleteObject'], prefixes: ['uploads/', 'files/'] }],
};

export interface FunctionDefinition {
  routes: readonly RouteDefinition[];
  /** DynamoDB actions per table (a TransactWriteItems needs the action of each of its parts). */
  tables?: Partial<Record<TableDefinition['id'], readonly string[]>>;
  /** Global secondary indexes the function queries, per table, by name. */
  indexes?: Partial<Record<TableDefinition['id'], readonly string[]>>;
  /** Keys the function reads (signing keys, the order-number hash key). */
  keys?: readonly KeyKind[];
  /**
   * A consumer of a table's stream (no route): deployed, an event source mapping with a tumbling
   * window (so that each batch names its shard), retries and a dead-letter queue; locally, the
   * stream pump of scripts/local/local-streams.ts. `entities`: the records it is given; `inserts`: only
   * their INSERTs (else every change).
   */
  stream?: {
    table: TableDefinition['id'];
    entities: readonly string[];
    inserts: boolean;
    also?: Record<string, string>;
    /** Batches fill for up to this long (default 0: at once). */
    batchingWindowSeconds?: number;
    /** A tumbling window, only so that each event names its shard (the day counts' watermark). */
    shardNamed?: boolean;
    /** Batches of one shard at once; order per partition key holds at any factor (default 1). */
    parallelization?: number;
  };
  /**
   * The bordereaux bucket, under its `bordereaux/` prefix only: `read` (GetObject, which a presigned
   * link carries), `write` (PutObject and the multipart upload's parts, AbortMultipartUpload).
   */
  bucket?: readonly BordereauxUse[];
  /**
   * The evidence bucket: `upload` (PutObject under `uploads/`, which a presigned POST carries),
   * `check` (GetObject and DeleteObject under `uploads/` and `files/`, PutObject under `files/`),
   * `link` (GetObject under `files/`, which a presigned GET carries), `erase` (DeleteObject under both).
   */
  evidence?: readonly EvidenceUse[];
  /** Told by EventBridge (no route): `evidence`, the evidence bucket's Object Created events and GuardDuty's scan results on it. */
  events?: 'evidence';
  /** Seconds a run may take (default 10). */
  timeoutSeconds?: number;
  /** Run on a schedule (no route): deployed an EventBridge rule; npm start an interval. */
  schedule?: { deployedEverySeconds: number; localEverySeconds: number };
  /** The staff directory: deployed the user pool's id in its environment and the cognito-idp actions of shared/identity's Cognito adapter on that pool. */
  staffDirectory?: true;
  /** Calls out of the service: `webhooks`, signed POSTs to merchants' receivers (docs/architecture.md's map shows it). */
  sends?: 'webhooks';
}

/**
 * Memory of every function, MB. The bench's cost section prices it and shows the alternatives
 * (bench/sections/cost.ts): the handlers wait on DynamoDB more than they compute, so less memory
 * would save cents per million requests but stretch each request's CPU time and every cold start.
 */
export const FUNCTION_MEMORY_MB = 512;

export const FUNCTIONS = {
  // No route: API Gateway calls it before every access-token route. GetItem: the client's status
  // (revocation), once per client per minute per container.
  authorizer: { routes: [], tables: { main: ['GetItem'] }, keys: ['access'] },
  // UpdateItem: recording a wrong secret and locking the public key (brute-force lockout).
  'auth-token': {
    routes: [{ method: 'POST', path: '/api/v2/auth/token', auth: 'none' }],
    tables: { main: ['GetItem', 'UpdateItem'] },
    keys: ['access'],
  },
  'quotes-create': {
    routes: [{ method: 'POST', path: '/api/v2/quotes', auth: 'public-key', cors: true }],
    tables: { main: ['GetItem'] },
    keys: ['quote'],
  },
  // The merchant back-end checks a widget token (and its cart) before charging. GetItem: the quote's
  // redemption (an opt-in token), and for a cart the sealed terms version (or, before versions, the client).
  // `/quote/decode` is Teak's spelling of the same request.
  'quotes-decode': {
    routes: [
      { method: 'GET', path: '/api/v2/quotes/decode', auth: 'access-token' },
      { method: 'GET', path: '/api/v2/quote/decode', auth: 'access-token' },
      { method: 'POST', path: '/api/v2/quotes/decode', auth: 'access-token' },
    ],
    tables: { main: ['GetItem'] },
    keys: ['quote'],
  },
  // GetItem: the client's terms and idempotency records; Query: the order a keyed request replays;
  // DeleteItem: releasing an idempotency key. Metrics GetItem: what holds a repeated opt-out's order number.
  'orders-create': {
    routes: [{ method: 'POST', path: '/api/v2/orders', auth: 'access-token' }],
    tables: { main: ['GetItem', 'PutItem', 'DeleteItem', 'Query'], metrics: ['PutItem', 'GetItem'] },
    keys: ['quote', 'order-number'],
  },
  'orders-read': {
    routes: [{ method: 'GET', path: '/api/v2/orders/{id}', auth: 'access-token' }],
    tables: { main: ['Query'] },
  },
  'orders-change': {
    routes: [{ method: 'PATCH', path: '/api/v2/orders/{id}', auth: 'access-token' }],
    tables: { main: ['Query', 'GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  },
  // The metrics stream → the day counts: UpdateItem adds a batch to a day, GetItem reads a day's
  // watermark when a batch comes again.
  'metrics-aggregate': {
    routes: [],
    tables: { metrics: ['GetItem', 'UpdateItem'] },
    stream: { table: 'metrics', entities: ['checkout'], inserts: true, also: { counted_by: 'stream' }, batchingWindowSeconds: 30, shardNamed: true },
  },
  // The main stream → the ledger (issue 28): PutItem writes an entry once (attribute_not_exists);
  // UpdateItem adds a batch to a month's statement after its per-shard watermark, GetItem reads the
  // watermark when part of a batch was counted before. In order per shard: parallelization 1.
  'ledger-record': {
    routes: [],
    tables: { main: ['PutItem', 'UpdateItem', 'GetItem'] },
    // Batched like the day counts: an entry may be 30 s late, a statement is monthly.
    stream: { table: 'main', entities: ['item', 'claim', 'remittance'], inserts: false, batchingWindowSeconds: 30, shardNamed: true },
  },
  // Query: a month's entries (one per shard, 64) or its statement (one), and the months its balance walks.
  'ledger-read': {
    routes: [
      { method: 'GET', path: '/api/v2/ledger', auth: 'access-token', portal: true },
      { method: 'GET', path: '/api/v2/statements/{period}', auth: 'access-token', portal: true },
    ],
    // GetItem: a closed month's close (its balances and standing).
    tables: { main: ['Query', 'GetItem'] },
    keys: ['order-number'], // its list's cursors are sealed with it
  },
  'metrics-conversion': {
    routes: [{ method: 'GET', path: '/api/v2/metrics/conversion', auth: 'access-token', portal: true }],
    tables: { metrics: ['Query'] },
  },
  // The order-list index gives a page of whole orders; an order_number is found through its
  // checkout record (GetItem on the metrics table, by the number's keyed hash).
  'orders-list': {
    routes: [{ method: 'GET', path: '/api/v2/orders', auth: 'access-token' }],
    tables: { main: ['Query'], metrics: ['GetItem'] },
    indexes: { main: [ORDER_LIST_INDEX] },
    keys: ['order-number'],
  },
  // GetItem: the currency of an item written before items carried it (from its order's header).
  'policies-list': {
    routes: [{ method: 'GET', path: '/api/v2/policies', auth: 'access-token' }],
    tables: { main: ['GetItem'] },
    indexes: { main: [POLICY_LIST_INDEX] },
    keys: ['order-number'],
  },
  // Query: the order; GetItem: the client's look period and idempotency records.
  'orders-cancel': {
    routes: [{ method: 'POST', path: '/api/v2/orders/{id}/cancel', auth: 'access-token' }],
    tables: { main: ['Query', 'GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  },
  // The policy-number index finds the policy; GetItem reads it consistently (and the client's look
  // period, idempotency records); UpdateItem moves it and its order's `updated`.
  'policies-settle': {
    routes: [
      { method: 'PUT', path: '/api/v2/policies/{policy_number}/cancel', auth: 'access-token' },
      { method: 'POST', path: '/api/v2/policies/{policy_number}/cancel', auth: 'access-token' },
      { method: 'POST', path: '/api/v2/policies/{policy_number}/void', auth: 'access-token' },
    ],
    tables: { main: ['GetItem', 'UpdateItem', 'PutItem', 'DeleteItem'] },
    indexes: { main: [POLICY_INDEX] },
  },
  // A cancellation preview's confirm: GetItem reads the preview (and the client's look period,
  // idempotency records); the order's Query or the policy-number index finds what it moves;
  // UpdateItem moves it with the preview's confirmed mark in one transaction.
  'cancellations-confirm': {
    routes: [{ method: 'POST', path: '/api/v2/cancellations/{id}/confirm', auth: 'access-token' }],
    tables: { main: ['Query', 'GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
    indexes: { main: [POLICY_INDEX] },
  },
  // Webhook endpoints (issue 18): one partition per client with their count. TransactWriteItems
  // needs the action of each part: UpdateItem (the count), PutItem / DeleteItem (the endpoint).
  'webhook-endpoints': {
    routes: [
      { method: 'POST', path: '/api/v2/webhook_endpoints', auth: 'access-token', portal: true },
      { method: 'GET', path: '/api/v2/webhook_endpoints', auth: 'access-token', portal: true },
      { method: 'GET', path: '/api/v2/webhook_endpoints/{id}', auth: 'access-token', portal: true },
      { method: 'DELETE', path: '/api/v2/webhook_endpoints/{id}', auth: 'access-token', portal: true },
      { method: 'POST', path: '/api/v2/webhook_endpoints/{id}/rotate_secret', auth: 'access-token', portal: true },
      { method: 'POST', path: '/api/v2/webhook_endpoints/{id}/enable', auth: 'access-token', portal: true },
      { method: 'POST', path: '/api/v2/webhook_endpoints/{id}/test', auth: 'access-token', portal: true },
    ],
    // A test request is one transaction: ConditionCheckItem (the endpoint, enabled) and PutItem.
    // A delete cancels the endpoint's pending deliveries: the retry index (Query) and UpdateItem each.
    tables: { main: ['Query', 'GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'] },
    indexes: { main: [RETRY_INDEX] },
  },
  // The delivery log: the events index (a page), an event's partition (Query), its deliveries due
  // again (UpdateItem) for a redelivery; the client's endpoints (Query); list cursors are sealed.
  events: {
    routes: [
      { method: 'GET', path: '/api/v2/events', auth: 'access-token', portal: true },
      { method: 'GET', path: '/api/v2/events/{id}', auth: 'access-token', portal: true },
      { method: 'POST', path: '/api/v2/events/{id}/redeliver', auth: 'access-token', portal: true },
    ],
    tables: { main: ['Query', 'UpdateItem'] },
    indexes: { main: [EVENT_LIST_INDEX] },
    keys: ['order-number'],
  },
  // The main table's stream → webhook deliveries: Query/GetItem read endpoints, orders' numbers and
  // kept events; BatchWriteItem keeps the deliveries, UpdateItem the event and each attempt.
  'webhooks-dispatch': {
    routes: [],
    tables: { main: ['Query', 'GetItem', 'BatchWriteItem', 'PutItem', 'UpdateItem'] },
    indexes: { main: [HOLD_INDEX] },
    // Sends wait at most 10 s each, several at once, and stop starting after 40 s: 60 s a run.
    // `webhook_test`: a test event asked for (POST /webhook_endpoints/{id}/test), sent from here like the others.
    stream: { table: 'main', entities: ['order', 'item', 'claim', 'webhook_test', 'statement_closing'], inserts: false, parallelization: 10 },
    timeoutSeconds: 60,
    sends: 'webhooks',
  },
  // The metrics stream → order.opted_out: as webhooks-dispatch, and the order-number key opens the
  // sealed order number of the opt-out's record.
  'webhooks-optouts': {
    routes: [],
    tables: { main: ['Query', 'GetItem', 'BatchWriteItem', 'PutItem', 'UpdateItem'] },
    indexes: { main: [HOLD_INDEX] },
    keys: ['order-number'],
    stream: { table: 'metrics', entities: ['checkout'], inserts: true, also: { counted_by: 'stream' }, parallelization: 10 },
    timeoutSeconds: 60,
    sends: 'webhooks',
  },
  // The retry sweep: due deliveries from the retry index, then as the dispatcher (the order-number
  // key opens an opt-out's number, which the kept event holds only sealed, into the body it sends).
  'webhooks-retry': {
    routes: [],
    tables: { main: ['Query', 'GetItem', 'UpdateItem'] },
    indexes: { main: [RETRY_INDEX, HOLD_INDEX] },
    keys: ['order-number'],
    // Locally every 5 s while requests come: the first retry is due 5 s after a failure (RETRY_SCHEDULE_MS),
    // and each sweep reads all RETRY_SHARDS shards (every second, that was most of a browser test's DynamoDB work).
    schedule: { deployedEverySeconds: 60, localEverySeconds: 5 },
    timeoutSeconds: 60,
    sends: 'webhooks',
  },
  // Claims (docs/api.md "Claims"). The customer's session: the public key's client (GetItem), the
  // attempt counters (BatchGetItem, UpdateItem), the order number's checkout record (metrics
  // GetItem), the order (Query) and its claims (BatchGetItem).
  'claims-session': {
    routes: [{ method: 'POST', path: '/api/v2/claims/sessions', auth: 'none' }],
    tables: { main: ['GetItem', 'Query', 'BatchGetItem', 'UpdateItem'], metrics: ['GetItem'] },
    keys: ['order-number', 'claim'],
  },
  // The customer's claim, with a claim token: filing is the order's Query, the customer's claims at
  // other merchants (Query, by the keyed hash of their e-mail) and one transaction (PutItem: the
  // claim, its text and the customer's mark; UpdateItem: the order's version and each policy's lock);
  // a withdrawal or an answer is the claim's Query and one transaction.
  'claims-customer': {
    routes: [
      { method: 'POST', path: '/api/v2/claims', auth: 'claim-token' },
      { method: 'GET', path: '/api/v2/claims/eligibility', auth: 'claim-token' },
      { method: 'GET', path: '/api/v2/claims/{id}', auth: 'claim-token' },
      { method: 'POST', path: '/api/v2/claims/{id}/withdraw', auth: 'claim-token' },
      { method: 'POST', path: '/api/v2/claims/{id}/respond', auth: 'claim-token' },
    ],
    tables: { main: ['Query', 'PutItem', 'UpdateItem'] },
    // The order-number key also hashes the customer's e-mail (the claimed-elsewhere signal).
    keys: ['claim', 'order-number'],
  },
  // The operator's queue and decisions: the queue index, the claim's Query, one transaction a
  // decision (PutItem: the claim; UpdateItem: its text, its policies, their order); what a claim is
  // shown with (BatchGetItem: its order's header and claimed items, its merchant's name); the search
  // by order number (metrics GetItem: the order's id by its number's keyed hash; GetItem: its claim ids).
  'claims-admin': {
    routes: [
      { method: 'GET', path: '/api/v2/admin/claims', auth: 'staff', roles: CLAIMS },
      { method: 'GET', path: '/api/v2/admin/claims/{id}', auth: 'staff', roles: CLAIMS },
      { method: 'POST', path: '/api/v2/admin/claims/{id}/decision', auth: 'staff', roles: CLAIMS },
      { method: 'POST', path: '/api/v2/admin/claims/{id}/paid', auth: 'staff', roles: CLAIMS },
    ],
    tables: { main: ['Query', 'GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem'], metrics: ['GetItem'] },
    indexes: { main: [CLAIM_QUEUE_INDEX] },
    keys: ['order-number'],
  },
  // Evidence (docs/api.md "Claims judged on evidence"). The customer's files of a claim: the claim
  // (Query of its partition), the files' records (Query, GetItem) and a new one with its claim's
  // count (TransactWriteItems: UpdateItem and PutItem); a presigned POST for the bytes.
  'claims-files': {
    routes: [
      { method: 'POST', path: '/api/v2/claims/{id}/files', auth: 'claim-token' },
      { method: 'GET', path: '/api/v2/claims/{id}/files', auth: 'claim-token' },
    ],
    tables: { main: ['Query', 'GetItem', 'PutItem', 'UpdateItem'] },
    keys: ['claim'],
    evidence: ['upload'],
  },
  // Staff (claims) and a claim's files: the list, and a presigned GET of a file scanned clean.
  'evidence-admin': {
    routes: [
      { method: 'GET', path: '/api/v2/admin/claims/{id}/files', auth: 'staff', roles: CLAIMS },
      { method: 'GET', path: '/api/v2/admin/claims/{id}/files/{file_id}/link', auth: 'staff', roles: CLAIMS },
    ],
    // PutItem: the audit record of a file opened.
    tables: { main: ['Query', 'GetItem', 'PutItem'] },
    evidence: ['link'],
  },
  // Bytes landed, and scans' verdicts (EventBridge): the claim (Query: still open?), the file's
  // record and its claim's count (GetItem; TransactWriteItems: PutItem and UpdateItem), the checked
  // copy written, uploads removed.
  'evidence-check': {
    routes: [],
    tables: { main: ['GetItem', 'Query', 'PutItem', 'UpdateItem'] },
    evidence: ['check'],
    events: 'evidence',
    timeoutSeconds: 30,
  },
  // A claim's files go with its text, 90 days after it closes. The main stream's claims: a closed
  // one with files (GetItem: its count) gets an erasure noted (PutItem). Hourly: the erasures due
  // (Query), each claim's files (Query) and bytes, then its records (TransactWriteItems: DeleteItem).
  'evidence-erase': {
    routes: [],
    tables: { main: ['GetItem', 'PutItem', 'Query', 'DeleteItem'] },
    evidence: ['erase'],
    stream: { table: 'main', entities: ['claim'], inserts: false },
    schedule: { deployedEverySeconds: 3600, localEverySeconds: 60 },
    timeoutSeconds: 300,
  },
  // The merchants, read-only, for every staff role: the register's page of ids (Query), then their
  // records (BatchGetItem, without the secret's hash), and each one's account: its latest closes,
  // months with moves and their statements (Query).
  'admin-clients': {
    routes: [{ method: 'GET', path: '/api/v2/admin/clients', auth: 'staff', roles: STAFF }],
    tables: { main: ['Query', 'BatchGetItem'] },
    keys: ['order-number'], // its list's cursors are sealed with it
  },
  // A client's terms (finance): its versions newest first (GetItem: the head on the client's item;
  // Query: the versions), and a new version published with both heads and its audit record
  // (TransactWriteItems: PutItem and UpdateItem).
  'admin-terms': {
    routes: [
      { method: 'GET', path: '/api/v2/admin/clients/{id}/terms', auth: 'staff', roles: FINANCE },
      { method: 'POST', path: '/api/v2/admin/clients/{id}/terms', auth: 'staff', roles: FINANCE },
      { method: 'POST', path: '/api/v2/admin/clients/{id}/terms/preview', auth: 'staff', roles: FINANCE },
    ],
    // PutItem, GetItem and DeleteItem also keep an Idempotency-Key's answer (the publisher's own).
    tables: { main: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
    keys: ['order-number'], // its list's cursors are sealed with it
  },
  // Collections (finance): a client's remittances, recorded (TransactWriteItems: the payment, its
  // reference's claim and the audit record, PutItem), reversed (the payment's UpdateItem with its
  // audit record) and listed (Query), its statements with
  // their balances (GetItem: the client and a month's close; Query: the months it walks), and the
  // suspension of its quotes (UpdateItem of its record and its public key's, with the audit record).
  'admin-collections': {
    routes: [
      { method: 'GET', path: '/api/v2/admin/clients/{id}/remittances', auth: 'staff', roles: FINANCE },
      { method: 'POST', path: '/api/v2/admin/clients/{id}/remittances', auth: 'staff', roles: FINANCE },
      { method: 'POST', path: '/api/v2/admin/clients/{id}/remittances/reverse', auth: 'staff', roles: FINANCE },
      { method: 'GET', path: '/api/v2/admin/clients/{id}/statements/{period}', auth: 'staff', roles: FINANCE },
      { method: 'POST', path: '/api/v2/admin/clients/{id}/suspend', auth: 'staff', roles: FINANCE },
      { method: 'POST', path: '/api/v2/admin/clients/{id}/resume', auth: 'staff', roles: FINANCE },
    ],
    tables: { main: ['GetItem', 'Query', 'PutItem', 'UpdateItem'] },
    keys: ['order-number'], // its remittance list's cursors are sealed with it
  },
  // A month's close, hourly: each client's months closed since its last (Query: its closes, its
  // months, a month's statement; PutItem: the close), and each unsettled close moved to paid or
  // overdue (UpdateItem). Its writes are on the stream: statement.closed and statement.overdue.
  'statements-close': {
    routes: [],
    tables: { main: ['Query', 'GetItem', 'PutItem', 'UpdateItem'] },
    // Locally every minute: a moved clock (the acceptance test) or the 5th at 00:00 is seen within one.
    schedule: { deployedEverySeconds: 3600, localEverySeconds: 60 },
    timeoutSeconds: 300,
  },
  // The audit log (admin): staff actions, newest first (Query on its partition). Each is written by
  // the function whose change it records, in that change's transaction.
  'admin-audit': {
    routes: [{ method: 'GET', path: '/api/v2/admin/audit', auth: 'staff', roles: ADMIN }],
    tables: { main: ['Query'] },
    keys: ['order-number'], // its list's cursors are sealed with it
  },
  // People who may sign in (admin): the staff directory, deployed the Cognito user pool
  // (`staffDirectory`: its id in the environment and exactly its cognito-idp actions), under npm start
  // the local OpenID Provider's file; a merchant user's client (GetItem) and the audit record of each
  // person added (PutItem: the directory is not DynamoDB, so the record is its own write).
  'admin-staff': {
    routes: [
      { method: 'GET', path: '/api/v2/admin/staff', auth: 'staff', roles: ADMIN },
      { method: 'POST', path: '/api/v2/admin/staff', auth: 'staff', roles: ADMIN },
    ],
    tables: { main: ['GetItem', 'PutItem'] },
    staffDirectory: true,
    keys: ['order-number'], // its list's cursors are sealed with it
  },
  // No route: the staff user pool's pre-token-generation trigger (deployed beside the pool, in
  // lib/identity-stack.ts, not by the API stack): a person's e-mail and a merchant user's client
  // (the pool's custom:client_id) into the access token. Touches nothing.
  'staff-token-claims': { routes: [] },
  // Bordereaux (docs/bordereaux.md). Finance starts an export (PutItem: its record and its audit record, one transaction) and reads it
  // (GetItem); a done export's link is presigned here, so this function may GetObject the bordereaux.
  'bordereaux-admin': {
    routes: [
      { method: 'POST', path: '/api/v2/admin/bordereaux', auth: 'staff', roles: FINANCE },
      { method: 'GET', path: '/api/v2/admin/bordereaux/{export_id}', auth: 'staff', roles: FINANCE },
      { method: 'GET', path: '/api/v2/admin/bordereaux', auth: 'staff', roles: FINANCE },
    ],
    // The past exports, newest first: a Query of the bordereaux' index.
    tables: { main: ['PutItem', 'GetItem', 'Query'] },
    indexes: { main: [BORDEREAU_LIST_INDEX] },
    bucket: ['read'],
    keys: ['order-number'], // its list's cursors are sealed with it
  },
  // An export record's INSERT → the export: the month's clients, entries and claim marks (Query), the
  // clients (GetItem), the claims (BatchGetItem), an older entry's policy (the policy-number index,
  // GetItem); the end of the export (UpdateItem). One function run streams the month into S3: 15
  // minutes fit about 4 million rows at the bench's rate (docs/bordereaux.md).
  'bordereaux-export': {
    routes: [],
    tables: { main: ['Query', 'GetItem', 'BatchGetItem', 'UpdateItem'] },
    indexes: { main: [POLICY_INDEX] },
    bucket: ['write'],
    stream: { table: 'main', entities: ['bordereau'], inserts: true },
    timeoutSeconds: 900,
  },
  // Test helpers (test clients only): the client's mode (GetItem, remembered); an order made older
  // (Query: the order; UpdateItem: its header and items in one transaction); a claim decided as the
  // operator would (Query: the claim; PutItem/UpdateItem: the decision's transaction); an advance's
  // Idempotency-Key (GetItem/PutItem/UpdateItem, DeleteItem: releasing it).
  'test-helpers': {
    routes: [
      { method: 'POST', path: '/api/v2/test_helpers/orders/{id}/advance', auth: 'access-token' },
      { method: 'POST', path: '/api/v2/test_helpers/claims/{id}/decision', auth: 'access-token' },
    ],
    tables: { main: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  },
} as const satisfies Record<string, FunctionDefinition>;

export type FunctionName = keyof typeof FUNCTIONS;
/** The functions API Gateway routes requests to (all with a route: not the authorizer, not the stream consumers). */
export type RoutedFunctionName = { [K in FunctionName]: (typeof FUNCTIONS)[K]['routes'] extends readonly [] ? never : K }[FunctionName];
/** The stream consumers. */
export type StreamFunctionName = { [K in FunctionName]: (typeof FUNCTIONS)[K] extends { stream: object } ? K : never }[FunctionName];
export const streamFunctions = functionNamesWithStream();
/** The scheduled functions. */
export const scheduledFunctions = (Object.entries(FUNCTIONS) as [FunctionName, FunctionDefinition][]).flatMap(([name, definition]) =>
  definition.schedule ? [{ name, schedule: definition.schedule }] : [],
);
function functionNamesWithStream(): { name: StreamFunctionName; stream: NonNullable<FunctionDefinition['stream']> }[] {
  return Object.entries(FUNCTIONS as Record<FunctionName, FunctionDefinition>).flatMap(([name, definition]) =>
    definition.stream ? [{ name: name as StreamFunctionName, stream: definition.stream }] : [],
  );
}

export const functionNames = Object.keys(FUNCTIONS) as FunctionName[];

/** A route of the API with the function that serves it. */
export type Route = RouteDefinition & { function: RoutedFunctionName };

/** Every route of the API. */
export const routes: readonly Route[] = functionNames.flatMap((name) =>
  (FUNCTIONS[name] as FunctionDefinition).routes.map((route) => ({ ...route, function: name as RoutedFunctionName })),
);

/** The roles that may call a staff function's routes (each staff function's routes share theirs; a test holds it). */
export function routeRoles(name: FunctionName): readonly StaffRole[] {
  const roles = (FUNCTIONS[name].routes as readonly RouteDefinition[]).flatMap((route) => route.roles ?? []);
  return [...new Set(roles)];
}

/** The merchant routes the portal calls with a merchant user's sign-in (route keys): conversion, statements, the ledger, webhook endpoints and events. */
export const portalRouteKeys: ReadonlySet<string> = new Set(routes.filter((route) => route.portal).map((route) => `${route.method} ${route.path}`));
