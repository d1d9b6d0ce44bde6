import * as v from 'valibot';
import { listPage } from '../platform/http/schemas.js';

/** GET /admin/audit's query: `limit` 1–100 (default 20) and the cursor. */
export const AuditQuery = v.strictObject({ limit: listPage.limit, cursor: listPage.cursor });
