import * as v from 'valibot';
import { NotFoundError } from '../platform/errors.js';
import { Period } from '../ledger/index.js';
import { listPage } from '../platform/http/schemas.js';
import { BORDEREAU_KINDS } from './bordereau.js';

/** POST /admin/bordereaux: a month (YYYY-MM, as the ledger's) and a kind. */
export const StartExportRequest = v.strictObject({
  period: Period,
  kind: v.picklist(BORDEREAU_KINDS, `must be one of ${BORDEREAU_KINDS.join(', ')}`),
});

/** GET /admin/bordereaux?limit&cursor: the past exports. */
export const ListExportsQuery = v.strictObject({ limit: listPage.limit, cursor: listPage.cursor });

const EXPORT_ID = /^bx_[0-9A-Za-z]{24}$/;

/** The export id of the path; anything that is not one is a 404, like an unknown one. */
export function exportIdOf(pathParameters: Record<string, string | undefined> | undefined): string {
  const id = pathParameters?.export_id;
  if (id === undefined || !EXPORT_ID.test(id)) throw new NotFoundError('export_not_found', 'No bordereau export with this id.', 'export_id');
  return id;
}
