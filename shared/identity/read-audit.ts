import type { AuditRecord } from './audit.js';
import type { AuditLog } from './ports.js';

export interface AuditDeps {
  log: AuditLog;
  cursors: { seal(position: string): Promise<string>; open(cursor: string): Promise<string> };
}

/** GET /admin/audit: a page of staff actions, newest first; the cursor is sealed (another list's or a tampered one is refused). */
export async function readAudit(deps: AuditDeps, query: { cursor?: string; limit: number }): Promise<{ records: AuditRecord[]; nextCursor?: string }> {
  const after = query.cursor === undefined ? undefined : await deps.cursors.open(query.cursor);
  const page = await deps.log.page(query.limit, after);
  return { records: page.records, ...(page.next === undefined ? {} : { nextCursor: await deps.cursors.seal(page.next) }) };
}
