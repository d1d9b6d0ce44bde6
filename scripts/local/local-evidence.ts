import { GetObjectCommand } from '@aws-sdk/client-s3';
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { objectOf, type ScanVerdict } from '#shared/evidence/index.js';
import { createS3Client } from '#shared/platform/s3/s3-client.js';
import { CLAMSCAN } from '../ensure-test-tools.js';
import type { LocalS3 } from './local-s3.js';
import { logger } from '#shared/platform/http/logger.js';
import { asFunction } from './local-grants.js';

/**
 * The evidence bucket's events locally, as EventBridge carries them deployed: the local S3 tells of
 * each object written; an upload under `uploads/` goes to the `evidence-check` function as S3's
 * Object Created event, and a checked copy under `files/` is scanned by ClamAV (Debian's `clamav`,
 * standing in for GuardDuty Malware Protection for S3) whose verdict goes to the same function as
 * GuardDuty's Object Scan Result event. The function is the deployed code, told the same events.
 *
 * ClamAV's signatures: the system's database (`/var/lib/clamav`, which `freshclam` fills) when it
 * holds one; otherwise, with no network to fetch it, the project's own test signature set
 * (scripts/local/clamav: the EICAR test file only), and npm start says so once.
 */
export interface Scanner {
  /** Why scans are limited or off, said once (undefined: the full signature database). */
  note?: string;
  scan(bytes: Uint8Array): Promise<ScanVerdict>;
}

const SYSTEM_DATABASE = '/var/lib/clamav';
const TEST_SIGNATURES = fileURLToPath(new URL('./clamav/', import.meta.url));
/** A scan takes at most this long (a clamscan with the full database loads it first: seconds). */
const SCAN_TIMEOUT_MS = 120_000;

const hasDatabase = (dir: string): boolean => {
  try {
    return readdirSync(dir).some((name) => /\.(cvd|cld|cud)$/.test(name));
  } catch {
    return false;
  }
};

/** ClamAV when it is installed; undefined (and files stay pending) when it is not. */
export function clamavScanner(): Scanner | undefined {
  if (spawnSync(CLAMSCAN, ['--version']).status !== 0) return undefined;
  const full = hasDatabase(SYSTEM_DATABASE);
  const database = full ? SYSTEM_DATABASE : TEST_SIGNATURES;
  return {
    ...(full
      ? {}
      : {
          note: `ClamAV has no signature database in ${SYSTEM_DATABASE} (sudo freshclam fetches it): files are scanned with the project's test signature only (the EICAR test file)`,
        }),
    scan: (bytes) =>
      new Promise((resolve) => {
        const child = spawn(CLAMSCAN, ['--no-summary', '--infected', '-d', database, '-'], { stdio: ['pipe', 'ignore', 'ignore'], timeout: SCAN_TIMEOUT_MS });
        child.on('error', () => resolve('FAILED'));
        child.on('close', (code) => resolve(code === 0 ? 'NO_THREATS_FOUND' : code === 1 ? 'THREATS_FOUND' : 'FAILED'));
        child.stdin.on('error', () => {}); // clamscan may close its input early on a verdict
        child.stdin.end(bytes);
      }),
  };
}

/** S3's Object Created event as EventBridge carries it. */
export const objectCreatedEvent = (bucket: string, key: string) => ({
  source: 'aws.s3' as const,
  'detail-type': 'Object Created' as const,
  detail: { bucket: { name: bucket }, object: { key } },
});

/** GuardDuty Malware Protection for S3's Object Scan Result as EventBridge carries it. */
export const scanResultEvent = (bucket: string, key: string, etag: string, verdict: ScanVerdict) => ({
  source: 'aws.guardduty' as const,
  'detail-type': 'GuardDuty Malware Protection Object Scan Result' as const,
  detail: {
    scanStatus: verdict === 'FAILED' || verdict === 'ACCESS_DENIED' ? 'FAILED' : verdict === 'UNSUPPORTED' ? 'SKIPPED' : 'COMPLETED',
    resourceType: 'S3_OBJECT',
    s3ObjectDetails: { bucketName: bucket, objectKey: key, eTag: etag },
    scanResultDetails: { scanResultStatus: verdict },
  },
});

const EVIDENCE_CHECK = 'evidence-check';
type EvidenceCheck = (event: ReturnType<typeof objectCreatedEvent> | ReturnType<typeof scanResultEvent>) => Promise<{ outcome: string }>;
let check: Promise<EvidenceCheck> | undefined;
const evidenceCheck = (): Promise<EvidenceCheck> =>
  (check ??= import(`../../functions/${EVIDENCE_CHECK}/handler.ts`).then(
    // Held to the function's grants, as its role holds it deployed (local-grants.ts).
    (module: { handler: EvidenceCheck }) => (event) => asFunction(EVIDENCE_CHECK, () => module.handler(event)),
  ));

/**
 * What the bucket's events do to an upload: S3's Object Created event, then ClamAV's scan of the
 * bytes still there, told as GuardDuty's verdict naming them by their ETag (with no scanner the
 * file stays pending). `read` gives an object's bytes and ETag.
 */
export async function evidenceObjectWritten(
  bucket: string,
  key: string,
  scanner: Scanner | undefined,
  read: (key: string) => Promise<{ bytes: Uint8Array; etag: string } | undefined>,
): Promise<string> {
  if (objectOf(key)?.kind !== 'upload') return 'ignored';
  const check = await evidenceCheck();
  const landed = (await check(objectCreatedEvent(bucket, key))).outcome;
  // GuardDuty scans every object under uploads/ as it lands, whatever the service made of it: so here.
  const object = scanner && (await read(key));
  if (!object) return landed;
  return (await check(scanResultEvent(bucket, key, object.etag, await scanner.scan(object.bytes)))).outcome;
}

/** Uploads told at most at once; more wait their turn (a scan is a clamscan process). */
const MAX_CHECKS_AT_ONCE = 2;

/**
 * npm start's evidence events: every object the local S3 writes to the evidence bucket goes through
 * evidenceObjectWritten, at most MAX_CHECKS_AT_ONCE at a time. `note` says once why files will
 * stay pending (no ClamAV) or are scanned with the test signature only.
 */
export function evidenceEvents(s3: LocalS3, bucket: string): { note?: string; stop(): Promise<void> } {
  const scanner = clamavScanner();
  const client = createS3Client(s3.endpoint, 'us-east-1', s3.credentials);
  const read = async (key: string) => {
    try {
      const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return { bytes: (await object.Body?.transformToByteArray()) ?? new Uint8Array(), etag: (object.ETag ?? '').replace(/"/g, '') };
    } catch {
      return undefined;
    }
  };
  const queue: string[] = [];
  const running = new Set<Promise<unknown>>();
  const next = (): void => {
    while (running.size < MAX_CHECKS_AT_ONCE && queue.length > 0) {
      const key = queue.shift()!;
      const run: Promise<unknown> = evidenceObjectWritten(bucket, key, scanner, read)
        .catch((err: unknown) => logger.warn('evidence: a check failed', { key, error: (err as Error).name }))
        .finally(() => {
          running.delete(run);
          next();
        });
      running.add(run);
    }
  };
  s3.onObjectCreated((written, key) => {
    if (written !== bucket || objectOf(key)?.kind !== 'upload') return;
    queue.push(key);
    next();
  });
  return {
    ...(scanner
      ? scanner.note
        ? { note: `Evidence: ${scanner.note}.` }
        : {}
      : { note: 'Evidence: ClamAV is not installed (sudo apt-get install --no-install-recommends clamav): uploaded files stay pending, never clean.' }),
    stop: async () => {
      queue.length = 0;
      await Promise.allSettled([...running]);
      client.destroy();
    },
  };
}
