import { eraseAt, type Claim, type ClaimStatus } from '../claims/index.js';

/**
 * Evidence (docs/api.md "Claims judged on evidence"): the files a customer attaches to a claim. Pure:
 * what may be uploaded, where its bytes live, and how a file moves.
 *
 *   awaiting_upload → pending → clean | infected | rejected
 *
 * The customer's browser posts the bytes straight to S3 (a presigned POST for one exact key, type
 * and size; no Lambda sees them) under `uploads/`. When they land, what S3 says of them is checked
 * (the size and type the POST declared) and the file is `pending`; the upload is scanned for
 * malware (GuardDuty deployed, ClamAV locally); bytes scanned clean are checked (magic numbers),
 * an image's metadata is stripped, and the result is written under `files/`, a key of its own per
 * landing: the only bytes a link ever serves. Posting again over a judged file (the POST stays
 * usable until it expires) is judged again from `pending`; the earlier copy is never served again.
 */
export const FILE_STATUSES = ['awaiting_upload', 'pending', 'clean', 'infected', 'rejected'] as const;
export type FileStatus = (typeof FILE_STATUSES)[number];

/** The types a file may have (Stripe's dispute evidence: PDF, JPEG, PNG). */
export const ACCEPTED_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export type AcceptedType = (typeof ACCEPTED_TYPES)[number];

/** A file's size at most: 10 MiB. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** Files a claim may hold that are not rejected or infected. */
export const MAX_FILES_PER_CLAIM = 10;
/** Files a claim may gather over its life, rejected and infected ones included (its records stay bounded). */
export const MAX_FILE_RECORDS = 30;
/** A presigned POST is usable this long. */
export const UPLOAD_TTL_SECONDS = 600;
/** A staff link is usable this long. */
export const LINK_TTL_SECONDS = 300;
/** A file name at most this long (it names the attachment staff download). */
export const MAX_FILENAME_LENGTH = 120;
/** Landings of one file judged at most (each writes a new checked copy). */
export const MAX_LANDINGS = 20;
// A claim's erasure is one transaction (its records, its count, its mark: at most 100 actions); one PUT takes at most 5 GB.
if (!(MAX_FILES_PER_CLAIM <= MAX_FILE_RECORDS) || !(MAX_FILE_RECORDS + 2 <= 100) || !(MAX_FILE_BYTES <= 5 * 1024 ** 3))
  throw new Error('evidence: the limits are out of order');

/** The claim statuses a customer may add files in: before a decision. */
export const OPEN_FOR_FILES: readonly ClaimStatus[] = ['Submitted', 'DocumentsRequested'];

/** Why a landed file was refused. */
export type Rejection = 'type_mismatch' | 'size_mismatch' | 'unreadable' | 'too_many_files' | 'upload_expired' | 'claim_decided';

export interface EvidenceFile {
  file_id: string;
  claim_id: string;
  client_id: string;
  filename: string;
  content_type: AcceptedType;
  /** The size the customer declared, which the POST's policy pins. */
  size: number;
  status: FileStatus;
  created: string;
  updated: string;
  /** When the presigned POST stops being usable. */
  upload_expires_at: string;
  /** Landings judged so far (0 until the bytes first land); names the checked copy's key. */
  landings: number;
  rejection?: Rejection;
  /** Whether the file holds one of the claim's MAX_FILES_PER_CLAIM places (released when rejected or infected). */
  counted: boolean;
  /** The ETag of the bytes of the latest landing (the scan names the bytes it scanned by it). */
  landed_etag?: string;
  /**
   * The landing whose checked copy staff open: set when bytes are judged clean, and kept while
   * newer bytes over it await their verdict, so that a claim decided in between keeps the evidence
   * staff could see. Absent on records from before it (their copy is `landings`').
   */
  clean_landing?: number;
}

/** The landing whose checked copy a clean file serves. */
export const cleanCopyOf = (file: Pick<EvidenceFile, 'landings' | 'clean_landing'>): number => file.clean_landing ?? file.landings;

/** Rejections the bytes alone decide: the same bytes posted again would get the same one. */
export const BYTES_REJECTIONS: readonly Rejection[] = ['type_mismatch', 'size_mismatch', 'unreadable'];

/** The name a file is downloaded under: its own, ending with its type's extension (so `invoice.html` stored as a PDF opens as one). */
export function downloadName(filename: string, type: AcceptedType): string {
  const extensions = EXTENSIONS[type];
  return extensions.some((extension) => filename.toLowerCase().endsWith(extension)) ? filename : filename + extensions[0]!;
}
const EXTENSIONS: Record<AcceptedType, readonly string[]> = { 'application/pdf': ['.pdf'], 'image/jpeg': ['.jpg', '.jpeg'], 'image/png': ['.png'] };

/** Where the customer's POST puts the bytes: one exact key per file. */
export const uploadKey = (claimId: string, fileId: string): string => `uploads/${claimId}/${fileId}`;
/** Where a landing's checked copy lives (written only from bytes scanned clean): a key of its own per landing. */
export const storedKey = (claimId: string, fileId: string, landing: number): string => `files/${claimId}/${fileId}/${landing}`;

/** The claim and file an uploaded or stored object's key names; undefined for any other key. */
export function objectOf(key: string): { kind: 'upload' | 'stored'; claimId: string; fileId: string; landing?: number } | undefined {
  const upload = /^uploads\/(clm_[0-9A-Za-z]{24})\/(fi_[0-9A-Za-z]{24})$/.exec(key);
  if (upload) return { kind: 'upload', claimId: upload[1]!, fileId: upload[2]! };
  const stored = /^files\/(clm_[0-9A-Za-z]{24})\/(fi_[0-9A-Za-z]{24})\/([1-9][0-9]{0,2})$/.exec(key);
  if (stored) return { kind: 'stored', claimId: stored[1]!, fileId: stored[2]!, landing: Number(stored[3]) };
  return undefined;
}

/**
 * A claim's files are erased with its text: ERASE after it closes (the claims' TEXT_KEPT_MS, 90
 * days). From that moment no read shows them and no link opens them; the eraser deletes the
 * records and the bytes.
 */
export const filesErasedAt = (claim: Pick<Claim, 'closed_at'>): string | undefined => (claim.closed_at ? eraseAt(claim.closed_at) : undefined);
export const filesErased = (claim: Pick<Claim, 'closed_at'>, now: Date): boolean => {
  const at = filesErasedAt(claim);
  return at !== undefined && now.getTime() >= Date.parse(at);
};
/** Days the eraser looks back for erasures due (it runs hourly: a month of outages is caught up). */
export const ERASE_DAYS_BACK = 31;
/** Claims one run of the eraser erases at most; the rest wait for the next run. */
export const MAX_ERASED_PER_RUN = 200;

/** What a landing's checks decided: the bytes to store (metadata stripped), or why not. */
export type Landing = { ok: true; bytes: Uint8Array } | { ok: false; rejection: Rejection };
