import { loadConfig } from '#shared/platform/config.js';
import { openCursor, sealCursor } from '#shared/platform/keys/cursors.js';
import { jsonResponse } from '#shared/platform/http/envelope.js';
import { httpHandler } from '#shared/platform/http/middleware.js';
import { parseInput } from '#shared/platform/http/validation.js';
import { routeRoles } from '#shared/platform/functions.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { AuditQuery, DynamoAuditLog, readAudit } from '#shared/identity/index.js';

const config = loadConfig();
const log = new DynamoAuditLog(sharedDocumentClient(), config.tableName);
// Audit cursors are sealed like every list cursor, under a scope of their own.
const SCOPE = 'admin:audit';
const cursors = { seal: (position: string) => sealCursor(SCOPE, {}, position), open: (cursor: string) => openCursor(SCOPE, {}, cursor) };

/** GET /api/v2/admin/audit (role `admin`): staff actions, newest first, a page at a time. */
export const handler = httpHandler(
  async (event) => {
    const query = parseInput(AuditQuery, event.queryStringParameters ?? {});
    const page = await readAudit({ log, cursors }, query);
    return jsonResponse(200, { data: page.records, has_more: page.nextCursor !== undefined, next_cursor: page.nextCursor ?? null });
  },
  { staff: routeRoles('admin-audit') },
);
