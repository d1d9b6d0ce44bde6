import { claimSessionOf } from '#shared/claims/claim-tokens.js';
import { claimIdOf } from '#shared/claims/schemas.js';
import { systemClock } from '#shared/platform/clock.js';
import { jsonResponse } from '#shared/platform/http/envelope.js';
import { httpHandler } from '#shared/platform/http/middleware.js';
import { parseInput } from '#shared/platform/http/validation.js';
import { listFiles, requestUpload } from '#shared/evidence/index.js';
import { evidenceDeps } from '#shared/evidence/evidence-deps.js';
import { fileView, uploadView } from '#shared/evidence/file-view.js';
import { UploadRequest } from '#shared/evidence/schemas.js';

const deps = evidenceDeps();
/** An upload's answer carries a signed form, a credential for 10 minutes: no cache keeps it. */
const NO_STORE = { 'cache-control': 'no-store' };

/**
 * The customer's files of a claim, with the claim token of their session: POST
 * /api/v2/claims/{id}/files {filename, content_type, size} → 201 a presigned POST for the bytes
 * (which go straight to S3), GET …/files → the claim's files and their status.
 */
export const handler = httpHandler(
  async (event) => {
    const session = await claimSessionOf(event.headers.authorization, systemClock.now());
    const claimId = claimIdOf(event.pathParameters);
    if (event.routeKey.startsWith('POST ')) {
      const { file, upload } = await requestUpload(deps, session, claimId, parseInput(UploadRequest, event.body));
      return jsonResponse(201, uploadView(file, upload), NO_STORE);
    }
    return jsonResponse(200, { data: (await listFiles(deps, claimId, session)).map(fileView) });
  },
  { jsonBody: 'optional' },
);
