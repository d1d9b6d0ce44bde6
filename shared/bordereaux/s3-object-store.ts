import type { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable } from 'node:stream';
import type { ObjectStore } from './ports.js';

/** Parts of 5 MiB (S3's smallest), one in flight while the next fills: an upload holds about 10 MB whatever the object's size. */
const PART_BYTES = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 1;

/**
 * Bordereaux into S3: a multipart upload fed from a stream (lib-storage's Upload). The same client
 * deployed and locally (s3rver through a custom endpoint, path-style). Links: shared/platform/s3/s3-links.ts.
 */
export class S3ObjectStore implements ObjectStore {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  async put(key: string, body: AsyncIterable<Buffer>): Promise<void> {
    const upload = new Upload({
      client: this.s3,
      params: { Bucket: this.bucket, Key: key, Body: Readable.from(body), ContentType: 'text/csv; charset=utf-8' },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false, // a failed upload is aborted; the lifecycle rule also clears what a killed run leaves
    });
    await upload.done();
  }
}
