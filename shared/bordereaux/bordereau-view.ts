import { statementStatus } from '../ledger/index.js';
import type { BordereauExport } from './bordereau.js';

/** An export as the operator reads it: the link (valid 15 minutes from this answer) once done. */
export const exportView = (exported: BordereauExport, now: Date, link?: { url?: string; expires_at?: string }) => ({
  export_id: exported.export_id,
  period: exported.period,
  /**
   * The month's state when the export read it (until it has: now): a file of an open month may miss
   * moves that land until the 5th of the next; a closed month's file is final.
   */
  period_status: exported.period_status ?? (statementStatus(exported.period, now) === 'closed' ? 'closed' : 'open'),
  kind: exported.kind,
  status: exported.status,
  created: exported.created,
  finished: exported.finished ?? null,
  rows: exported.rows ?? null,
  url: link?.url ?? null,
  url_expires_at: link?.expires_at ?? null,
  failure: exported.failure ?? null,
});

/** An export as the list of past exports shows it: the GET-one view without the link (only a GET of one signs one), and who started it. */
export const exportSummaryView = (exported: BordereauExport, now: Date) => {
  const { url: _url, url_expires_at: _expires, ...view } = exportView(exported, now);
  return { ...view, requested_by: exported.requested_by };
};
