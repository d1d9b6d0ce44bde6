import type { EvidenceFile } from './evidence.js';
import type { PresignedUpload } from './ports.js';

/** A file as the customer and staff see it: never its keys, its count or its client. */
export const fileView = (file: EvidenceFile) => ({
  file_id: file.file_id,
  claim_id: file.claim_id,
  filename: file.filename,
  content_type: file.content_type,
  size: file.size,
  status: file.status,
  // Why a landed file was refused (null unless rejected).
  rejection: file.status === 'rejected' ? (file.rejection ?? null) : null,
  created: file.created,
  updated: file.updated,
});

/** POST /claims/{id}/files: the file awaiting its upload, where to post it, and until when. */
export const uploadView = (file: EvidenceFile, upload: PresignedUpload) => ({
  ...fileView(file),
  upload: { url: upload.url, fields: upload.fields },
  expires_at: file.upload_expires_at,
});
