import { loadConfig } from '#shared/platform/config.js';
import { logger } from '#shared/platform/http/logger.js';
import { fileLanded, fileScanned, type ScanVerdict } from '#shared/evidence/index.js';
import { evidenceObjectsDeps } from '#shared/evidence/evidence-objects-deps.js';

const config = loadConfig();
const deps = evidenceObjectsDeps();

/** S3's Object Created event for the evidence bucket (EventBridge; locally the same from s3rver). */
interface ObjectCreated {
  source: 'aws.s3';
  'detail-type': 'Object Created';
  detail: { bucket: { name: string }; object: { key: string } };
}
/** GuardDuty Malware Protection for S3's verdict on an object (EventBridge; locally ClamAV's, told the same way). */
interface ScanResult {
  source: 'aws.guardduty';
  'detail-type': 'GuardDuty Malware Protection Object Scan Result';
  detail: { s3ObjectDetails: { bucketName: string; objectKey: string; eTag?: string }; scanResultDetails?: { scanResultStatus?: string } };
}
const VERDICTS = new Set<string>(['NO_THREATS_FOUND', 'THREATS_FOUND', 'UNSUPPORTED', 'ACCESS_DENIED', 'FAILED']);

/**
 * The evidence bucket's events (EventBridge rules: lib/): bytes landed under `uploads/` make their
 * file pending (or rejected); GuardDuty's verdict on them makes it clean (its checked copy written
 * under `files/`), infected (the bytes deleted) or rejected.
 * Events of another bucket, or keys that name no file, change nothing. Object keys carry claim and
 * file ids only, so they may be logged.
 */
export async function handler(event: ObjectCreated | ScanResult): Promise<{ outcome: string }> {
  if (event['detail-type'] === 'Object Created') {
    if (event.detail.bucket.name !== config.evidenceBucket) return { outcome: 'ignored' };
    const outcome = await fileLanded(deps, event.detail.object.key);
    logger.info('evidence landed', { key: event.detail.object.key, outcome });
    return { outcome };
  }
  if (event['detail-type'] === 'GuardDuty Malware Protection Object Scan Result') {
    const { bucketName, objectKey, eTag = '' } = event.detail.s3ObjectDetails;
    if (bucketName !== config.evidenceBucket) return { outcome: 'ignored' };
    const status = event.detail.scanResultDetails?.scanResultStatus ?? 'FAILED';
    const verdict = (VERDICTS.has(status) ? status : 'FAILED') as ScanVerdict;
    const outcome = await fileScanned(deps, objectKey, eTag.replace(/^"|"$/g, ''), verdict);
    logger.info('evidence scanned', { key: objectKey, verdict, outcome });
    return { outcome };
  }
  return { outcome: 'ignored' };
}
