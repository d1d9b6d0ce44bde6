import type { ClaimActivity, LedgerEntry, StatementBatch, StatementTotals, EntryType } from './ledger.js';

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
