import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { AcceptedType } from './evidence.js';
import type { EvidenceObjects } from './ports.js';

const unquoted = (etag: string | undefined): string => (etag ?? '').replace(/^"|"$/g, '');

/**
 * The evidence bucket's objects through the SDK's S3 client (deployed the function's role; locally
 * npm start's s3rver through the same client, path-style on 127.0.0.1): the checks and the eraser.
 */
export class S3EvidenceObjects implements EvidenceObjects {
  constructor(
    private readonly s3: S3Client,
    private readonly where: { bucket: string },
  ) {}

  async head(key: string): Promise<{ size: number; contentType: string; etag: string } | undefined> {
    try {
      const head = await this.s3.send(new HeadObjectCommand({ Bucket: this.where.bucket, Key: key }));
      return { size: head.ContentLength ?? 0, contentType: head.ContentType ?? '', etag: unquoted(head.ETag) };
    } catch (err) {
      if ((err as { name?: string }).name === 'NotFound' || (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404)
        return undefined;
      throw err;
    }
  }

  async read(key: string, etag: string): Promise<Uint8Array | undefined> {
    try {
      const object = await this.s3.send(new GetObjectCommand({ Bucket: this.where.bucket, Key: key, IfMatch: `"${etag}"` }));
      // s3rver ignores If-Match: the answer's own ETag is compared too.
      if (unquoted(object.ETag) !== etag) return undefined;
      return object.Body ? await object.Body.transformToByteArray() : new Uint8Array();
    } catch (err) {
      const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if ((err as { name?: string }).name === 'NoSuchKey' || status === 404 || status === 412) return undefined;
      throw err;
    }
  }

  async write(key: string, bytes: Uint8Array, contentType: AcceptedType): Promise<void> {
    await this.s3.send(new PutObjectCommand({ Bucket: this.where.bucket, Key: key, Body: bytes, ContentType: contentType }));
  }

  async remove(key: string, etag?: string): Promise<void> {
    if (etag !== undefined && (await this.head(key))?.etag !== etag) return; // other bytes since: their own landing decides
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.where.bucket, Key: key }));
  }
}
