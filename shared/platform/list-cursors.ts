/**
 * Where a list continues: an opaque cursor sealed to the client and the list's filters (so another
 * client's, a tampered or a mismatched cursor is refused), around a position only the store reads.
 */
export type ListFilters = Record<string, string | undefined>;

export interface ListCursors {
  seal(clientId: string, filters: ListFilters, position: string): Promise<string>;
  open(clientId: string, filters: ListFilters, cursor: string): Promise<string>;
}
