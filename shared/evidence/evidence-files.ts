import { ConflictError, NotFoundError, ValidationError } from '../platform/errors.js';
import type { Claim } from '../claims/index.js';
import { auditRecordOf, type AuditRecord } from '../identity/index.js';
import type { StaffIdentity } from '../platform/staff.js';
import {
  BYTES_REJECTIONS,
  LINK_TTL_SECONDS,
  MAX_FILES_PER_CLAIM,
  MAX_FILE_RECORDS,
  MAX_FILE_BYTES,
  MAX_LANDINGS,
  OPEN_FOR_FILES,
  UPLOAD_TTL_SECONDS,
  cleanCopyOf,
  downloadName,
  filesErased,
  objectOf,
  storedKey,
  uploadKey,
  type EvidenceFile,
  type Landing,
  type Rejection,
} from './evidence.js';
import { sniff, withoutMetadata } from './file-bytes.js';
import type { ClaimFacts, EvidenceObjects, EvidenceSigner, EvidenceStore, PresignedUpload, ScanVerdict } from './ports.js';
import type { UploadRequest } from './schemas.js';

export interface EvidenceDeps {
  claims: ClaimFacts;
  /** Who opened which customer's file (staff's links). */
  audit: { write(record: AuditRecord): Promise<void> };
  auditId: () => string;
  files: EvidenceStore;
  /** Signs the customer's POSTs and staff's links (the routes' functions). */
  signer: EvidenceSigner;
  /** Reads, writes and removes objects (the checks and the eraser). */
  objects: EvidenceObjects;
  now: () => Date;
  fileId: () => string;
}

/** A customer's session: the order whose claims it may touch. */
export interface Session {
  clientId: string;
  orderId: string;
}

const claimNotFound = () => new NotFoundError('claim_not_found', 'No claim with this id.', 'claim_id');
const fileNotFound = () => new NotFoundError('file_not_found', 'This claim has no file with this id.', 'file_id');

/** The claim, when the session's order holds it (another's is the same 404 as none). */
async function claimFor(deps: Pick<EvidenceDeps, 'claims'>, claimId: string, session?: Session): Promise<Claim> {
  const claim = await deps.claims.claimOf(claimId);
  if (!claim || (session && (claim.client_id !== session.clientId || claim.service_order_id !== session.orderId))) throw claimNotFound();
  return claim;
}

/**
 * POST /api/v2/claims/{id}/files: a place for one file and a presigned POST for its bytes (valid
 * UPLOAD_TTL_SECONDS), while the claim is Submitted or DocumentsRequested; the claim's 11th file
 * that is not rejected or infected, or its 31st in all → 422 too_many_files, its message naming which.
 */
export async function requestUpload(
  deps: Pick<EvidenceDeps, 'claims' | 'files' | 'signer' | 'now' | 'fileId'>,
  session: Session,
  claimId: string,
  request: UploadRequest,
): Promise<{ file: EvidenceFile; upload: PresignedUpload }> {
  const claim = await claimFor(deps, claimId, session);
  if (!OPEN_FOR_FILES.includes(claim.status))
    throw new ConflictError('claim_not_open', `This claim is ${claim.status}: files are added only while it is Submitted or DocumentsRequested.`);
  const now = deps.now();
  // A POST that expired without bytes gives its file's place back (a dropped upload, one S3 refused).
  for (const stale of (await deps.files.list(claimId)).filter((file) => file.status === 'awaiting_upload' && uploadExpired(file, now)))
    await deps.files.move(stale, moved(stale, 'rejected', now, { rejection: 'upload_expired', counted: false }));
  const expires = new Date(now.getTime() + UPLOAD_TTL_SECONDS * 1000);
  const file: EvidenceFile = {
    file_id: deps.fileId(),
    claim_id: claimId,
    client_id: claim.client_id,
    filename: request.filename,
    content_type: request.content_type,
    size: request.size,
    status: 'awaiting_upload',
    created: now.toISOString(),
    updated: now.toISOString(),
    upload_expires_at: expires.toISOString(),
    landings: 0,
    counted: true,
  };
  const added = await deps.files.add(file);
  if (added === 'records_full')
    throw new ValidationError(
      `A claim takes at most ${MAX_FILE_RECORDS} files in all, rejected and infected ones included, and this one has had them all.`,
      'files',
      'too_many_files',
    );
  if (added === 'places_full')
    throw new ValidationError(`A claim holds at most ${MAX_FILES_PER_CLAIM} files that are not rejected or infected.`, 'files', 'too_many_files');
  const upload = await deps.signer.presignUpload(uploadKey(claimId, file.file_id), file.content_type, file.size, expires);
  return { file, upload };
}

/** GET /api/v2/claims/{id}/files (the customer) and the staff's claim: the claim's files, oldest first (none once erased). */
export async function listFiles(deps: Pick<EvidenceDeps, 'claims' | 'files' | 'now'>, claimId: string, session?: Session): Promise<EvidenceFile[]> {
  const claim = await claimFor(deps, claimId, session);
  if (filesErased(claim, deps.now())) return [];
  return deps.files.list(claimId);
}

/**
 * GET /api/v2/admin/claims/{id}/files/{file_id}/link (role claims): a presigned GET of the copy
 * scanned clean, valid LINK_TTL_SECONDS, as an attachment with its stored type; 409 file_not_clean
 * for any other status. A customer's document (a doctor's note) is opened on the record: the audit
 * log keeps who opened which file before the link is given (no record, no link).
 */
export async function staffLink(
  deps: Pick<EvidenceDeps, 'claims' | 'files' | 'signer' | 'now' | 'audit' | 'auditId'>,
  actor: StaffIdentity,
  claimId: string,
  fileId: string,
) {
  const claim = await claimFor(deps, claimId);
  const file = filesErased(claim, deps.now()) ? undefined : await deps.files.get(claimId, fileId);
  if (!file) throw fileNotFound();
  if (file.status !== 'clean') throw new ConflictError('file_not_clean', `This file is ${file.status}: only a file scanned clean can be opened.`, 'file_id');
  await deps.audit.write(auditRecordOf(actor, 'evidence.opened', { type: 'claim', id: claimId, detail: fileId }, deps.now(), deps.auditId));
  const url = await deps.signer.link(
    storedKey(claimId, fileId, cleanCopyOf(file)),
    downloadName(file.filename, file.content_type),
    file.content_type,
    LINK_TTL_SECONDS,
  );
  return { url, expires_at: new Date(deps.now().getTime() + LINK_TTL_SECONDS * 1000).toISOString() };
}

/** How late after its POST expired a landing may be told (S3 checked the expiry at the upload; the event may come later). */
export const LANDING_GRACE_MS = 5 * 60 * 1000;
const uploadExpired = (file: EvidenceFile, now: Date): boolean => now.getTime() > Date.parse(file.upload_expires_at) + LANDING_GRACE_MS;

/**
 * The checks of bytes scanned clean: the size and type the POST declared, the bytes' own type
 * (magic numbers), an image's metadata stripped. Pure.
 */
export function judgeBytes(file: EvidenceFile, bytes: Uint8Array): Landing {
  if (bytes.length !== file.size || bytes.length > MAX_FILE_BYTES) return { ok: false, rejection: 'size_mismatch' };
  if (sniff(bytes) !== file.content_type) return { ok: false, rejection: 'type_mismatch' };
  const cleaned = withoutMetadata(file.content_type, bytes);
  return cleaned ? { ok: true, bytes: cleaned } : { ok: false, rejection: 'unreadable' };
}

/** A move of the file to `status` (and its place given back when it no longer counts). */
function moved(file: EvidenceFile, status: EvidenceFile['status'], at: Date, extra: Partial<EvidenceFile> = {}): EvidenceFile {
  const next: EvidenceFile = { ...file, status, updated: at.toISOString(), ...extra };
  if (status !== 'rejected') delete next.rejection;
  // Only a clean file, or one pending over a clean copy, has a copy for staff.
  if (status !== 'clean' && status !== 'pending') delete next.clean_landing;
  return next;
}

/** Bytes already judged, posted again (a double-clicked or retried upload): their verdict stands. */
const judgedAlready = (file: EvidenceFile, etag: string): boolean =>
  file.landed_etag === etag &&
  (file.status === 'clean' || file.status === 'infected' || (file.status === 'rejected' && BYTES_REJECTIONS.includes(file.rejection!)));

/**
 * Bytes landed under `uploads/` (S3's Object Created event; locally the same from s3rver): what S3
 * says of them is checked at once (the declared size and type, the POST's expiry: a tampered or late
 * upload is rejected and removed); otherwise the file is `pending` its scan, which reads the upload
 * itself. The same bytes told again change nothing; new bytes posted over a judged file are judged
 * again (a rejected or infected file takes its place back if one is free, else it is rejected).
 */
export async function fileLanded(deps: Pick<EvidenceDeps, 'claims' | 'files' | 'objects' | 'now'>, key: string): Promise<EvidenceFile['status'] | 'ignored'> {
  const named = objectOf(key);
  if (named?.kind !== 'upload') return 'ignored';
  const landed = await deps.objects.head(key);
  if (!landed) return 'ignored'; // judged and removed already
  const file = await deps.files.get(named.claimId, named.fileId);
  if (!file || file.landings >= MAX_LANDINGS) {
    await deps.objects.remove(key);
    return 'ignored';
  }
  if (file.status === 'pending' && file.landed_etag === landed.etag) return 'ignored'; // this landing, told again
  if (judgedAlready(file, landed.etag)) {
    // Not judged again: a scan's clean-up (If-Match on the ETag) could remove these bytes under a
    // second verdict, and the file would wait for one that never comes.
    await deps.objects.remove(key, landed.etag);
    return 'ignored';
  }
  const now = deps.now();
  // Once the claim is decided its evidence stands as staff saw it: bytes posted after that change nothing.
  const claim = await deps.claims.claimOf(file.claim_id);
  if (!claim || !OPEN_FOR_FILES.includes(claim.status)) {
    await deps.objects.remove(key, landed.etag);
    if (file.status !== 'awaiting_upload') return 'ignored';
    await deps.files.move(file, moved(file, 'rejected', now, { rejection: 'claim_decided', counted: false, landings: file.landings + 1 }));
    return 'rejected';
  }
  const landing = { landings: file.landings + 1, landed_etag: landed.etag };
  let rejection: Rejection | undefined;
  if (uploadExpired(file, now)) rejection = 'upload_expired';
  else if (landed.size !== file.size || landed.size > MAX_FILE_BYTES) rejection = 'size_mismatch';
  else if (landed.contentType !== file.content_type) rejection = 'type_mismatch';
  // Pending over a clean file, its checked copy is kept (never served while pending) until these bytes' verdict.
  const kept = file.status === 'clean' ? cleanCopyOf(file) : file.status === 'pending' ? file.clean_landing : undefined;
  let outcome = await deps.files.move(
    file,
    rejection
      ? moved(file, 'rejected', now, { ...landing, rejection, counted: false })
      : moved(file, 'pending', now, { ...landing, counted: true, ...(kept !== undefined ? { clean_landing: kept } : {}) }),
  );
  if (outcome === 'full') {
    rejection = 'too_many_files';
    outcome = await deps.files.move(file, moved(file, 'rejected', now, { ...landing, rejection, counted: false }));
  }
  if (outcome === 'stale') return 'ignored'; // another telling moved it first
  if (rejection) {
    // Bytes refused over a clean file: its earlier copy is never served again.
    if (kept !== undefined) await deps.objects.remove(storedKey(file.claim_id, file.file_id, kept));
    await deps.objects.remove(key);
    return 'rejected';
  }
  return 'pending';
}

/**
 * A scan's verdict on an upload (GuardDuty Malware Protection for S3's Object Scan Result; locally
 * ClamAV's, told the same way), naming the bytes it scanned by their ETag. Infected: the bytes are
 * deleted at once. Clean: exactly those bytes are read (If-Match: bytes posted since are another
 * landing, judged by their own scan), checked (size, magic numbers, an image's metadata stripped)
 * and written as the checked copy under `files/`, the only bytes a link ever serves; the upload is
 * removed, and so is the copy of the bytes these replace. `UNSUPPORTED` is rejected as unreadable;
 * `FAILED` and `ACCESS_DENIED` leave it pending for the operator (the scan is alarmed deployed).
 * Once the claim is decided its evidence stands as staff saw it: bytes whose verdict comes after
 * the decision change nothing (the file keeps the copy it had, or is rejected `claim_decided`).
 */
export async function fileScanned(
  deps: Pick<EvidenceDeps, 'claims' | 'files' | 'objects' | 'now'>,
  key: string,
  etag: string,
  verdict: ScanVerdict,
): Promise<EvidenceFile['status'] | 'ignored'> {
  const named = objectOf(key);
  if (named?.kind !== 'upload') return 'ignored';
  const file = await deps.files.get(named.claimId, named.fileId);
  if (verdict === 'THREATS_FOUND') await deps.objects.remove(key, etag);
  if (!file || file.status !== 'pending' || file.landed_etag !== etag) return 'ignored';
  const now = deps.now();
  const kept = file.clean_landing;
  const claim = await deps.claims.claimOf(file.claim_id);
  let next: EvidenceFile;
  if (!claim || !OPEN_FOR_FILES.includes(claim.status)) {
    next = kept !== undefined ? moved(file, 'clean', now) : moved(file, 'rejected', now, { rejection: 'claim_decided', counted: false });
  } else if (verdict === 'THREATS_FOUND') next = moved(file, 'infected', now, { counted: false });
  else if (verdict === 'UNSUPPORTED') next = moved(file, 'rejected', now, { rejection: 'unreadable', counted: false });
  else if (verdict !== 'NO_THREATS_FOUND') return 'pending';
  else {
    const bytes = await deps.objects.read(key, etag);
    if (!bytes) return 'ignored'; // replaced since the scan: that landing's own scan decides
    const judged = judgeBytes(file, bytes);
    if (judged.ok) await deps.objects.write(storedKey(file.claim_id, file.file_id, file.landings), judged.bytes, file.content_type);
    next = judged.ok
      ? moved(file, 'clean', now, { clean_landing: file.landings })
      : moved(file, 'rejected', now, { rejection: judged.rejection, counted: false });
  }
  const outcome = await deps.files.move(file, next);
  if (outcome !== 'moved') return 'ignored';
  if (verdict !== 'THREATS_FOUND') await deps.objects.remove(key, etag);
  // The copy these bytes replace (or that a refusal ends) is never served again.
  if (kept !== undefined && next.clean_landing !== kept) await deps.objects.remove(storedKey(file.claim_id, file.file_id, kept));
  return next.status;
}
