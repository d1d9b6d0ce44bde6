import * as v from 'valibot';
import { listPage } from '../platform/http/schemas.js';
import { MAX_STAFF_PAGE } from './manage-staff.js';
import { MAX_EMAIL_LENGTH } from './staff-users.js';
import { STAFF_ROLES } from '../platform/staff.js';

/** GET /admin/audit's query: `limit` 1–100 (default 20) and the cursor. */
export const AuditQuery = v.strictObject({ limit: listPage.limit, cursor: listPage.cursor });

/** POST /admin/staff's body: the rules themselves are validateNewStaffUser's (it names the field it refuses). */
export const AddStaffRequest = v.strictObject({
  email: v.pipe(v.string(), v.maxLength(MAX_EMAIL_LENGTH, `must be at most ${MAX_EMAIL_LENGTH} characters`)),
  groups: v.pipe(v.array(v.pipe(v.string(), v.maxLength(32))), v.maxLength(STAFF_ROLES.length, `must name at most ${STAFF_ROLES.length} groups`)),
  client_id: v.optional(v.pipe(v.string(), v.maxLength(64, 'must be at most 64 characters'))),
});

/** GET /admin/staff's query: `limit` 1–60 (Cognito's largest page; default 20) and the cursor. */
export const StaffQuery = v.strictObject({
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^[1-9]\d?$/, `must be a whole number from 1 to ${MAX_STAFF_PAGE}`),
      v.transform((text) => Number(text)),
      v.maxValue(MAX_STAFF_PAGE, `must be a whole number from 1 to ${MAX_STAFF_PAGE}`),
    ),
    '20',
  ),
  cursor: listPage.cursor,
});
