import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { createS3Client, LOCAL_S3_KEY_ENV, LOCAL_S3_SECRET_ENV, sharedS3Client } from '#shared/platform/s3/s3-client.js';
import { holdObjectsToGrants } from '../../scripts/local/local-grants.js';
import { clamavScanner, evidenceObjectWritten } from '../../scripts/local/local-evidence.js';

/**
 * The evidence bucket of one test file in the run's local S3, and its events: `settle()` tells the
 * evidence-check function of every object in the bucket (uploads first, then checked copies, which
 * ClamAV scans), as EventBridge does deployed and npm start's local S3 does as objects land.
 */
export async function evidenceBucket() {
  const endpoint = process.env.TEST_S3_ENDPOINT;
  const accessKeyId = process.env.TEST_S3_ACCESS_KEY_ID;
  const secretAccessKey = process.env.TEST_S3_SECRET_ACCESS_KEY;
  if (!endpoint || !accessKeyId || !secretAccessKey)
    throw new Error('TEST_S3_ENDPOINT is not set: run the tests through vitest (global setup starts the local S3)');
  const bucket = `test-evidence-${randomBytes(4).toString('hex')}`;
  const s3: S3Client = createS3Client(endpoint, 'us-east-1', { accessKeyId, secretAccessKey });
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  Object.assign(process.env, { S3_ENDPOINT: endpoint, [LOCAL_S3_KEY_ENV]: accessKeyId, [LOCAL_S3_SECRET_ENV]: secretAccessKey, EVIDENCE_BUCKET: bucket });
  holdObjectsToGrants(sharedS3Client()); // the functions' client, now that it can be made: held to their grants (local-grants.ts)
  const scanner = clamavScanner();
  if (!scanner) throw new Error('ClamAV is not installed: npm test installs it (scripts/ensure-test-tools.ts), or: sudo apt-get install clamav');
  const keys = async (prefix: string): Promise<string[]> =>
    ((await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, MaxKeys: 1000 }))).Contents ?? []).map((object) => object.Key!);
  const read = async (key: string): Promise<{ bytes: Uint8Array; etag: string } | undefined> => {
    try {
      const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return { bytes: (await object.Body?.transformToByteArray()) ?? new Uint8Array(), etag: (object.ETag ?? '').replace(/"/g, '') };
    } catch {
      return undefined;
    }
  };
  return {
    bucket,
    s3,
    keys,
    read,
    /** Every upload's events, as the bucket and the scanner would send them. */
    async settle(): Promise<void> {
      for (const key of await keys('uploads/')) await evidenceObjectWritten(bucket, key, scanner, read);
    },
    stop: () => s3.destroy(),
  };
}

/** Posts `bytes` with the presigned POST's form, as a browser would (the fields, then the file). */
export async function postUpload(upload: { url: string; fields: Record<string, string> }, bytes: Uint8Array, overrides: Record<string, string> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...upload.fields, ...overrides })) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(bytes)]), 'upload');
  const res = await fetch(upload.url, { method: 'POST', body: form });
  return { status: res.status, body: await res.text() };
}

/** The EICAR test file, built here so that no file of the repository is one. */
export const eicar = (): Uint8Array => new TextEncoder().encode(['X5O!P%@AP[4\\PZX54(P^)7CC)7}$', 'EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*'].join(''));
