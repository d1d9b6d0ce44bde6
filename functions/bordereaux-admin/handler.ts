import { loadConfig } from '#shared/platform/config.js';
import { systemClock } from '#shared/platform/clock.js';
import { prefixedId } from '#shared/platform/ids.js';
import { listExports, readExport, startExport } from '#shared/bordereaux/index.js';
import { openCursor, sealCursor } from '#shared/platform/keys/cursors.js';
import { exportSummaryView, exportView } from '#shared/bordereaux/bordereau-view.js';
import { exportIdOf, ListExportsQuery, StartExportRequest } from '#shared/bordereaux/schemas.js';
import { DynamoExportStore } from '#shared/bordereaux/dynamo-export-store.js';
import { S3Links } from '#shared/platform/s3/s3-links.js';
import { signingCredentials } from '#shared/platform/s3/s3-client.js';
import { jsonResponse } from '#shared/platform/http/envelope.js';
import { httpHandler, staffOf } from '#shared/platform/http/middleware.js';
import { routeRoles } from '#shared/platform/functions.js';
import { parseInput } from '#shared/platform/http/validation.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';

const config = loadConfig();
const exports = new DynamoExportStore(sharedDocumentClient(), config.tableName);
const links = new S3Links(
  { bucket: config.bordereauxBucket, region: config.region, ...(config.s3Endpoint ? { endpoint: config.s3Endpoint } : {}) },
  signingCredentials(config.s3Endpoint),
);
const newId = () => prefixedId('bx');
/** A done export's answer carries a link that is a credential for 15 minutes: no cache keeps it. */
const NO_STORE = { 'cache-control': 'no-store' };
// The list's cursors are sealed like every list cursor, under a scope of their own instead of a client.
const LIST_SCOPE = 'operator:bordereaux';
const cursors = {
  seal: (filters: Record<string, string>, position: string) => sealCursor(LIST_SCOPE, filters, position),
  open: (filters: Record<string, string>, cursor: string) => openCursor(LIST_SCOPE, filters, cursor),
};

/**
 * The operator's bordereaux (the staff sign-in, by role: shared/platform/functions.ts):
 * POST /api/v2/admin/bordereaux starts an export (202), GET …/{export_id} reads it, with its link once done,
 * GET /api/v2/admin/bordereaux lists the past exports newest first (without links).
 */
export const handler = httpHandler(
  async (event, info) => {
    const actor = staffOf(info);
    if (event.routeKey === 'POST /api/v2/admin/bordereaux') {
      const request = parseInput(StartExportRequest, event.body);
      const exported = await startExport({ exports, clock: systemClock, newId }, request, actor);
      return jsonResponse(202, exportView(exported, systemClock.now()), NO_STORE);
    }
    if (event.routeKey === 'GET /api/v2/admin/bordereaux') {
      const query = parseInput(ListExportsQuery, event.queryStringParameters ?? {});
      const page = await listExports({ exports, cursors }, query);
      const now = systemClock.now();
      return jsonResponse(200, {
        data: page.exports.map((exported) => exportSummaryView(exported, now)),
        has_more: page.nextCursor !== undefined,
        next_cursor: page.nextCursor ?? null,
      });
    }
    const { exported, ...link } = await readExport({ exports, links, clock: systemClock }, exportIdOf(event.pathParameters));
    return jsonResponse(200, exportView(exported, systemClock.now(), link), NO_STORE);
  },
  { jsonBody: 'optional', staff: routeRoles('bordereaux-admin') },
);
