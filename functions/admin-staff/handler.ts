import { loadConfig } from '#shared/platform/config.js';
import { systemClock } from '#shared/platform/clock.js';
import { openCursor, sealCursor } from '#shared/platform/keys/cursors.js';
import { jsonResponse } from '#shared/platform/http/envelope.js';
import { httpHandler, staffOf } from '#shared/platform/http/middleware.js';
import { parseInput } from '#shared/platform/http/validation.js';
import { routeRoles } from '#shared/platform/functions.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { AddStaffRequest, DynamoAuditLog, StaffQuery, addStaffUser, listStaff, newAuditId } from '#shared/identity/index.js';
import { staffDirectoryFromEnv } from '#shared/identity/staff-directory-deps.js';

const config = loadConfig();
const audit = new DynamoAuditLog(sharedDocumentClient(), config.tableName);
const clients = new DynamoClientStore(sharedDocumentClient(), config.tableName);
// The list's cursors are sealed like every list cursor, under a scope of their own.
const SCOPE = 'admin:staff';
const cursors = { seal: (position: string) => sealCursor(SCOPE, {}, position), open: (cursor: string) => openCursor(SCOPE, {}, cursor) };
/** A new person's first password is never in an answer; the list and the answer are not cached either. */
const NO_STORE = { 'cache-control': 'no-store' };

/**
 * People who may sign in (role `admin`): POST /api/v2/admin/staff adds one (201, with how they get
 * their first password), GET lists them with their groups. The directory is the Cognito user pool
 * deployed, npm start's `.local/staff.json` locally (staffDirectoryFromEnv).
 */
export const handler = httpHandler(
  async (event, info) => {
    const directory = staffDirectoryFromEnv();
    if (event.routeKey === 'POST /api/v2/admin/staff') {
      const request = parseInput(AddStaffRequest, event.body);
      const added = await addStaffUser({ directory, clients, audit, now: () => systemClock.now(), newAuditId }, staffOf(info), {
        email: request.email,
        groups: request.groups,
        ...(request.client_id === undefined ? {} : { clientId: request.client_id }),
      });
      // The password (npm start only) stays in the directory's file: the answer says where it is.
      return jsonResponse(201, { ...added.view, invitation: directory.invitation }, NO_STORE);
    }
    const query = parseInput(StaffQuery, event.queryStringParameters ?? {});
    const page = await listStaff({ directory, cursors }, query);
    return jsonResponse(200, { data: page.users, has_more: page.nextCursor !== undefined, next_cursor: page.nextCursor ?? null }, NO_STORE);
  },
  { jsonBody: 'optional', staff: routeRoles('admin-staff') },
);
