import type { AuditRecord } from '../identity/index.js';
import type { RatePpm } from '../platform/money/index.js';
import { firstVersionOf, inForceAt, liveTermsOf, MAX_LOOK_PERIOD_DAYS, type LiveTerms, type TermsVersion } from '../terms/index.js';

export { MAX_LOOK_PERIOD_DAYS };

/** A merchant using the API. Secrets are only ever held as hashes. */
export interface Client {
  client_id: string;
  name: string;
  public_key: string;
  secret_hash: string;
  rate_ppm: RatePpm;
  /** Days after a policy's creation during which it may be voided (premium refunded). */
  look_period_days: number;
  created: string;
  /** The terms versions live when the client's head was last written (shared/terms): the one in force then and those scheduled. */
  terms_live?: LiveTerms[];
  /** Finance suspended its quotes (on the client's record and its public key's). */
  suspended?: Suspension;
}

/**
 * Finance's suspension of a client's quotes, with since when and why: its quotes answer 403
 * `client_suspended` (the widget offers nothing and the checkout goes on) until it is resumed;
 * its sold policies live on (changes, cancels, voids, claims).
 */
export interface Suspension {
  at: string;
  reason: string | null;
}

export const DEFAULT_LOOK_PERIOD_DAYS = 14;

/**
 * The terms version a client prices under at `at`. A client from before versioned terms has none
 * until `npm run migrate` writes its version 1; until then it prices under what that version 1
 * will be (its rate and look period), so a deploy never stops its quotes.
 */
export function termsInForce(
  client: Pick<Client, 'client_id' | 'rate_ppm' | 'terms_live'> & Partial<Pick<Client, 'look_period_days' | 'created'>>,
  at: Date,
): LiveTerms {
  const live = client.terms_live ? inForceAt(client.terms_live, at) : undefined;
  if (live) return live;
  const first = firstVersionOf(
    {
      client_id: client.client_id,
      rate_ppm: client.rate_ppm,
      look_period_days: client.look_period_days ?? DEFAULT_LOOK_PERIOD_DAYS,
      created: client.created ?? at.toISOString(),
    },
    { sub: 'migration', email: null },
    at,
  );
  return liveTermsOf(first);
}
const DAY_MS = 86_400_000;

/** The end of the void window of a policy sold at `soldAt` under a look period of `days`. */
export const voidWindowEnd = (soldAt: Date, days: number): string => new Date(soldAt.getTime() + days * DAY_MS).toISOString();

/** A look period in whole days, 0 to MAX_LOOK_PERIOD_DAYS; undefined for anything else. */
export function parseLookPeriodDays(text: string): number | undefined {
  if (!/^\d{1,2}$/.test(text)) return undefined;
  const days = Number(text);
  return days <= MAX_LOOK_PERIOD_DAYS ? days : undefined;
}

/**
 * Whether a client's access tokens still hold: rotating the secret moves `key_generation` on
 * (tokens carry the generation they were issued at), disabling a client stops them all.
 */
export interface ClientStatus {
  key_generation: number;
  disabled: boolean;
}

/** A new client's key generation; each rotation of its secret adds one. */
export const FIRST_KEY_GENERATION = 1;

/** What authentication and pricing need, readable in one lookup by public key. */
export type ClientCredentials = Pick<Client, 'client_id' | 'secret_hash' | 'rate_ppm' | 'terms_live' | 'suspended'> &
  ClientStatus & {
    /** Epoch ms until which the public key refuses every sign-in (brute-force lockout). */
    locked_until?: number;
    /** Epoch ms of the latest failed sign-ins, oldest first (a short list). */
    failed_sign_ins: number[];
  };

export interface ClientStore {
  /** The client, its public key, its place in the register, its first terms version and, when staff create it, the audit record: one transaction. */
  create(client: Client, firstTerms: TermsVersion, audit?: AuditRecord): Promise<void>;
  findByPublicKey(publicKey: string): Promise<ClientCredentials | undefined>;
  /** The client; `consistent`: a strongly consistent read (after a write that lost to another). */
  get(clientId: string, consistent?: boolean): Promise<Client | undefined>;
  /** Replaces the secret's hash and moves the key generation on, in one transaction. */
  replaceSecretHash(clientId: string, secretHash: string): Promise<void>;
  /**
   * Suspends the client's quotes (`suspension`) or resumes them (null), on both its records, with
   * the audit record: one transaction, only if the client is not (to suspend) or is (to resume)
   * suspended now. False when it was not written: a concurrent request moved the client first.
   */
  setSuspension(clientId: string, suspension: Suspension | null, audit: AuditRecord): Promise<boolean>;
}

/** A merchant as the operator's pages name it: its name, and whether its money is real (`live`) or a test client's. */
export interface ClientLabel {
  name: string;
  mode: 'test' | 'live';
}

/** Merchants' names for the operator's pages. */
/** A merchant as the operator's console lists it: never its keys' secrets. */
export interface ClientSummary {
  client_id: string;
  name: string;
  mode: 'test' | 'live';
  rate_ppm: RatePpm;
  look_period_days: number;
  disabled: boolean;
  created: string;
  terms_live?: LiveTerms[];
  suspended?: Suspension;
}

/** The register of clients, a page at a time in id order (`after`: the last id of the previous page). */
export interface ClientRegister {
  page(limit: number, after?: string): Promise<{ clients: ClientSummary[]; next?: string }>;
}

export interface ClientNames {
  /** Each existing client's label by its id (one batched read, not a read per client). */
  names(clientIds: readonly string[]): Promise<Map<string, ClientLabel>>;
}

/** Revocation: the operator's switch, and the authorizer's read of a client's status. */
export interface ClientStatusStore {
  /** Both of the client's items, and the audit record when staff disable it: one transaction. */
  disable(clientId: string, audit?: AuditRecord): Promise<void>;
  status(clientId: string): Promise<ClientStatus | undefined>;
}

/** Failed sign-ins per public key, for the brute-force lockout. */
export interface FailedSignIns {
  /** Appends one failed attempt's time, atomically; returns every recorded time, this one last. */
  recordFailedSignIn(publicKey: string, at: number): Promise<number[]>;
  lockSignIns(publicKey: string, until: number): Promise<void>;
  /** Drops the oldest recorded times down to `keep`, unless the list no longer has `seen` entries. */
  trimFailedSignIns(publicKey: string, seen: number, keep: number): Promise<void>;
}
