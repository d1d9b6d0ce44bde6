import { claimIdOf } from '#shared/claims/schemas.js';
import { jsonResponse } from '#shared/platform/http/envelope.js';
import { httpHandler, staffOf } from '#shared/platform/http/middleware.js';
import { routeRoles } from '#shared/platform/functions.js';
import { listFiles, staffLink } from '#shared/evidence/index.js';
import { evidenceDeps } from '#shared/evidence/evidence-deps.js';
import { fileView } from '#shared/evidence/file-view.js';
import { fileIdOf } from '#shared/evidence/schemas.js';

const deps = evidenceDeps();
/** A link is a credential for 5 minutes: no cache keeps it. */
const NO_STORE = { 'cache-control': 'no-store' };

/**
 * Staff with the `claims` role and a claim's evidence: GET /api/v2/admin/claims/{id}/files (its
 * files and their status) and GET …/files/{file_id}/link (a presigned GET of a file scanned clean,
 * valid 5 minutes, as an attachment, the opening kept in the audit log; 409 file_not_clean otherwise).
 */
export const handler = httpHandler(
  async (event, info) => {
    const claimId = claimIdOf(event.pathParameters);
    if (event.routeKey.endsWith('/link')) return jsonResponse(200, await staffLink(deps, staffOf(info), claimId, fileIdOf(event.pathParameters)), NO_STORE);
    return jsonResponse(200, { data: (await listFiles(deps, claimId)).map(fileView) });
  },
  { staff: routeRoles('evidence-admin') },
);
