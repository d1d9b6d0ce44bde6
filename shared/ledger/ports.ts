import type { LedgerEntry, StatementBatch, StatementTotals, EntryType } from './ledger.js';

/** A page of a client's ledger of one month, newest first; `next` is where the next page starts. */
export interface LedgerPage {
  entries: LedgerEntry[];
  next?: string;
}

export interface LedgerStore {
  /**
   * Writes each entry once: an entry already written (the stream gave its change again) is left as
   * it is. Answers the ids of those an opening balance wrote (and counted in its statement already).
   */
  record(entries: readonly LedgerEntry[]): Promise<Set<string>>;
  /** An opening-balance entry and its statement figures, in one transaction, unless the entry exists: true when written. */
  open(entry: LedgerEntry): Promise<boolean>;
  /** Adds a batch's figures to a statement once per stream position (`source`: the stream shard). */
  addToStatement(source: string, batch: StatementBatch): Promise<void>;
  list(clientId: string, query: { period: string; type?: EntryType; after?: string; limit: number }): Promise<LedgerPage>;
  statement(clientId: string, period: string): Promise<{ currency: string; figures: StatementTotals }[]>;
}
