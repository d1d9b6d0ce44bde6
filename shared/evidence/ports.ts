import type { Claim } from '../claims/index.js';
import type { AcceptedType, EvidenceFile } from './evidence.js';

/** A claim's facts, as the evidence needs them (the claims room's store answers). */
export interface ClaimFacts {
  claimOf(claimId: string): Promise<Claim | undefined>;
}

/** The files' records: one per file in its claim's partition, and the claim's count of places taken. */
export interface EvidenceStore {
  /**
   * Adds a file awaiting its upload and takes one of the claim's places, one transaction; refused
   * with the limit that stops it: 'records_full' when the claim has had MAX_FILE_RECORDS files in
   * all, else 'places_full' when it holds MAX_FILES_PER_CLAIM counted files.
   */
  add(file: EvidenceFile): Promise<'added' | 'places_full' | 'records_full'>;
  get(claimId: string, fileId: string): Promise<EvidenceFile | undefined>;
  /** The claim's files, oldest first (at most MAX_FILE_RECORDS). */
  list(claimId: string): Promise<EvidenceFile[]>;
  /**
   * Moves a file from the version read to `after`, taking a place when `after` counts and `before`
   * did not, giving it back in the other case, one transaction: 'stale' when the file moved first,
   * 'full' when it would take a place and none is left.
   */
  move(before: EvidenceFile, after: EvidenceFile): Promise<'moved' | 'stale' | 'full'>;
  /** Whether the claim ever had a file (its count exists). */
  hasFiles(claimId: string): Promise<boolean>;
  /** Notes that the claim's files are to be erased at `eraseAt` (once: noting again changes nothing). */
  markForErasure(claimId: string, eraseAt: string): Promise<void>;
  /** The claims whose files are due for erasure on `day` (YYYY-MM-DD), at most `limit`. */
  dueForErasure(day: string, limit: number): Promise<{ claimId: string; eraseAt: string }[]>;
  /** Deletes the claim's file records, its count and its erasure mark of `day`. */
  eraseRecords(claimId: string, fileIds: readonly string[], day: string): Promise<void>;
}

/** What a presigned POST hands the browser: where to post, and the form fields to post with the file. */
export interface PresignedUpload {
  url: string;
  fields: Record<string, string>;
}

/** What the evidence bucket lets through signed forms and links (no S3 client: the customer's and staff's routes only sign). */
export interface EvidenceSigner {
  /** A presigned POST for exactly this key, this type and exactly this many bytes, until `expires`. */
  presignUpload(key: string, contentType: AcceptedType, size: number, expires: Date): Promise<PresignedUpload>;
  /** A presigned GET as an attachment named `filename`, with the stored type. */
  link(key: string, filename: string, contentType: AcceptedType, seconds: number): Promise<string>;
}

/** The evidence bucket's objects (the checks and the eraser). */
export interface EvidenceObjects {
  /** What landed under the key: its size, stored type and ETag; undefined when nothing is there. */
  head(key: string): Promise<{ size: number; contentType: string; etag: string } | undefined>;
  /** The object's bytes if they are still those of `etag` (the caller has checked their size); else undefined. */
  read(key: string, etag: string): Promise<Uint8Array | undefined>;
  write(key: string, bytes: Uint8Array, contentType: AcceptedType): Promise<void>;
  /** Removes the object (only if still the bytes of `etag`, when given). */
  remove(key: string, etag?: string): Promise<void>;
}

/** A malware scan's verdict, as GuardDuty Malware Protection for S3 reports it. */
export type ScanVerdict = 'NO_THREATS_FOUND' | 'THREATS_FOUND' | 'UNSUPPORTED' | 'ACCESS_DENIED' | 'FAILED';
