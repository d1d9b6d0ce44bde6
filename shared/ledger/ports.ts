import type { AuditRecord } from '../identity/index.js';
import type { MonthFigures, StatementClosing, StatementStanding } from './collections.js';
import type { ClaimActivity, LedgerEntry, Remittance, StatementBatch, StatementTotals, EntryType } from './ledger.js';

/** A page of a client's ledger of one month, newest first; `next` is where the next page starts. */
export interface LedgerPage {
  entries: LedgerEntry[];
  next?: string;
}

export interface LedgerStore {
  /**
   * Writes each entry once, its id alone deciding whether it exists (whatever month and time it was
   * booked at): an entry already written (the stream gave its change again) is left as it is.
   * Answers the ids of those an opening balance wrote (and counted in its statement already).
   */
  record(entries: readonly LedgerEntry[]): Promise<Set<string>>;
  /** An opening-balance entry and its statement figures, in one transaction, unless an entry of its id exists: true when written. */
  open(entry: LedgerEntry): Promise<boolean>;
  /** Gives an entry written before entries had id records its own; 'duplicate' when the id already names another key. */
  adopt(entry: LedgerEntry & { opening?: boolean }): Promise<'written' | 'had' | 'duplicate'>;
  /** Adds a batch's figures to a statement once per stream position (`source`: the stream shard). */
  addToStatement(source: string, batch: StatementBatch): Promise<void>;
  /** Marks that these clients had moves in these months (the bordereaux list a month's clients by them). */
  notePeriods(moves: readonly { client_id: string; period: string }[]): Promise<void>;
  /** Marks each claim as active in its month (the claims bordereau lists them by it). */
  noteClaimActivity(activity: readonly ClaimActivity[]): Promise<void>;
  list(clientId: string, query: { period: string; type?: EntryType; after?: string; limit: number }): Promise<LedgerPage>;
  statement(clientId: string, period: string): Promise<{ currency: string; figures: StatementTotals }[]>;
}

/** What a month's bordereau reads off the ledger, a record at a time (a month may hold millions). */
export interface LedgerExportSource {
  /** The clients with a move in the month. */
  clientsOf(period: string): AsyncIterable<string>;
  /** The client's entries of the month whose type starts with `typePrefix`, newest first. */
  entriesOf(clientId: string, period: string, typePrefix: string): AsyncIterable<LedgerEntry>;
  /** The ids of the client's claims with a move in the month. */
  claimsActiveIn(clientId: string, period: string): AsyncIterable<string>;
}

/** A remittance as recorded: the one the reference names, its request's fingerprint, and whether it was recorded before. */
export interface RecordedRemittance {
  remittance: Remittance;
  fingerprint: string;
  replayed: boolean;
}

/** What collections read and write: the months a client had moves in, its months' closes, its remittances. */
export interface CollectionsStore {
  /** The months after `after` (from the first when undefined) through `through` the client had a move in, oldest first, at most `limit`. */
  monthsWithMoves(clientId: string, after: string | undefined, through: string, limit: number): Promise<string[]>;
  /** A month's figures per currency (its statement records summed). */
  figures(clientId: string, period: string): Promise<MonthFigures>;
  closing(clientId: string, period: string): Promise<StatementClosing | undefined>;
  /** The latest close of a month before `before`. */
  latestClosing(clientId: string, before: string): Promise<StatementClosing | undefined>;
  /** The latest closes, newest first. */
  recentClosings(clientId: string, limit: number): Promise<StatementClosing[]>;
  /** Writes a month's close unless written: true when written now. */
  writeClosing(closing: StatementClosing): Promise<boolean>;
  /** Moves a close's standing from `from` to `to`: true when it stood at `from` (each move happens once). */
  moveClosing(clientId: string, period: string, from: StatementStanding, to: StatementStanding, at: string): Promise<boolean>;
  /** Every client's id (the register of clients). */
  clientIds(): AsyncIterable<string>;
  clientExists(clientId: string): Promise<boolean>;
  /** Records a remittance with its audit record unless its reference is taken; then answers the one that took it. */
  recordRemittance(remittance: Remittance, referenceHash: string, fingerprint: string, audit: AuditRecord): Promise<RecordedRemittance>;
  /**
   * Marks a remittance reversed with its audit record unless it already is: the remittance as it
   * now stands and whether this call reversed it; undefined when the client has no such reference.
   * The audit record is made from the payment as read (its amount goes into the record's detail).
   */
  reverseRemittance(
    clientId: string,
    referenceHash: string,
    reversal: NonNullable<Remittance['reversal']>,
    audit: (remittance: Remittance) => AuditRecord,
  ): Promise<{ remittance: Remittance; reversedNow: boolean } | undefined>;
  /** The client's remittances, newest recorded first, a page at a time. */
  remittances(clientId: string, limit: number, before?: string): Promise<{ remittances: Remittance[]; next?: string }>;
}
