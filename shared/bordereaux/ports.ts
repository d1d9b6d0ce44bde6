import type { AuditRecord } from '../identity/index.js';
import type { Claim } from '../claims/index.js';
import type { LedgerEntry, LedgerExportSource } from '../ledger/index.js';
import type { BordereauExport, PolicyFacts } from './bordereau.js';

/** The exports, one record each: started running, finished once (done or failed). */
export interface ExportStore {
  /** The export's record and the audit record of the staff action that started it, in one transaction. */
  create(exported: BordereauExport, audit: AuditRecord): Promise<void>;
  get(exportId: string): Promise<BordereauExport | undefined>;
  /** The exports, newest first, after the position `after`; `next` is where the next page starts, absent on the last. */
  list(query: { after?: string; limit: number }): Promise<{ exports: BordereauExport[]; next?: string }>;
  /** Moves a running export to its end; false when it is not running any more (an earlier run finished it). */
  finish(exportId: string, outcome: Pick<BordereauExport, 'status' | 'finished' | 'rows' | 'object_key' | 'failure' | 'period_status'>): Promise<boolean>;
}

/** Where bordereaux are kept (S3 deployed, s3rver locally). */
export interface ObjectStore {
  /** Streams `body` into one object (a multipart upload) without holding it: memory stays a few parts whatever its size. */
  put(key: string, body: AsyncIterable<Buffer>): Promise<void>;
}

/** Links to the kept bordereaux. */
export interface ObjectLinks {
  /** A GET URL of the object valid `seconds`, saved by a browser as `fileName`. */
  presign(key: string, seconds: number, fileName: string, signedAt?: Date): Promise<string>;
}

/** What an export reads: the ledger's month, the clients' modes, the claims, and the facts an older entry lacks. */
export interface BordereauSources {
  ledger: LedgerExportSource;
  clients: { get(clientId: string): Promise<{ public_key: string } | undefined> };
  claims: { getMany(claimIds: readonly string[]): Promise<Claim[]> };
  /** The order number, cover and risk start of an entry's policy, read from its item and order (for entries that do not carry them). */
  policyFacts(clientId: string, entry: LedgerEntry): Promise<PolicyFacts>;
}
