import type { AuditRecord } from '../identity/index.js';
import type { LiveTerms, TermsVersion } from './terms.js';

/** A client's terms as its records hold them: the latest version's number and the versions a quote may still need. */
export interface TermsHead {
  client_id: string;
  /** The client's public key, whose record the quotes read the live versions from. */
  public_key: string;
  /** 0 before the first version. */
  latest: number;
  /** The version in force when this was written, and every version scheduled after it (oldest first). */
  live: LiveTerms[];
}

export interface TermsStore {
  /** The client's head; undefined when there is no such client. */
  head(clientId: string): Promise<TermsHead | undefined>;
  /**
   * Writes the version, the client's new head (only if its latest is still `head.latest`) and the
   * audit record, in one transaction: 'stale' when another publish won the race, nothing written.
   */
  publish(version: TermsVersion, head: TermsHead, live: LiveTerms[], audit?: AuditRecord): Promise<'published' | 'stale'>;
  /** Versions newest first, a page at a time (`before`: the last version number of the previous page). */
  page(clientId: string, limit: number, before?: number): Promise<{ versions: TermsVersion[]; next?: number }>;
  /** One version; immutable, so callers may keep it as long as they like. */
  get(clientId: string, version: number): Promise<TermsVersion | undefined>;
}
