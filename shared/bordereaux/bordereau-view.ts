import { statementStatus } from '../ledger/index.js';
import type { BordereauExport } from './bordereau.js';

/** An export as the operator reads it: the link (valid 15 minutes from this answer) once done. */
export const exportView = (exported: BordereauExport, now: Date, link?: { url?: string; expires_at?: string }) => ({
  export_id: exported.export_id,
  period: exported.period,
  /** A bordereau of an open month may still grow: late changes of the month land until the 5th of the next. */
  period_status: statementStatus(exported.period, now),
  kind: exported.kind,
  status: exported.status,
  created: exported.created,
  finished: exported.finished ?? null,
  rows: exported.rows ?? null,
  url: link?.url ?? null,
  url_expires_at: link?.expires_at ?? null,
  failure: exported.failure ?? null,
});
