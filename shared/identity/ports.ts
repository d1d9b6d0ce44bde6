import type { AuditRecord } from './audit.js';

/** Reading the audit log (its records are written by each change's own store, in the change's transaction). */
export interface AuditLog {
  /** Newest first; `after` is the position the previous page ended at. */
  page(limit: number, after?: string): Promise<{ records: AuditRecord[]; next?: string }>;
}
