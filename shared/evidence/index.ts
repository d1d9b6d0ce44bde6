/**
 * Evidence: the files a customer attaches to a claim, uploaded straight to S3 by a presigned POST,
 * checked when they land (size, type, magic numbers; an image's metadata stripped), scanned for
 * malware, and opened by staff through a short presigned GET of a copy scanned clean.
 */
export { ACCEPTED_TYPES, FILE_STATUSES, LINK_TTL_SECONDS, MAX_FILE_BYTES, MAX_FILES_PER_CLAIM, UPLOAD_TTL_SECONDS, objectOf } from './evidence.js';
export type { EvidenceFile, FileStatus } from './evidence.js';
export { fileLanded, fileScanned, listFiles, requestUpload, staffLink } from './evidence-files.js';
export type { EvidenceDeps } from './evidence-files.js';
export { eraseDueEvidence, noteClosedClaims } from './erase-evidence.js';
export type { ScanVerdict } from './ports.js';
