/**
 * Bordereaux: a month's premium and claims lists for the insurer, streamed as CSV into S3 and
 * reached through a presigned link (docs/bordereaux.md).
 */
export { BORDEREAU_KINDS, CLAIMS_COLUMNS, PREMIUM_COLUMNS, csvLine, isLiveClient } from './bordereau.js';
export type { BordereauExport, BordereauKind } from './bordereau.js';
export { listExports, readExport, runExport, startExport, URL_VALID_SECONDS } from './export-bordereau.js';
