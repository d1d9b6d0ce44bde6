import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Hash } from '@smithy/hash-node';
import { createScope, getSigningKey } from '@smithy/signature-v4';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import { createHmac } from 'node:crypto';
import { S3Links } from '../platform/s3/s3-links.js';
import type { AcceptedType } from './evidence.js';
import type { EvidenceObjects, PresignedUpload } from './ports.js';

const sha256 = Hash.bind(null, 'sha256');

/**
 * A browser-based upload's form (S3's POST Object with a SigV4-signed policy): the policy pins the
 * bucket, the exact key, the content type and the exact size, and expires. The SDK's own signing-key
 * derivation signs it. (`@aws-sdk/s3-presigned-post` does the same but pins its own, older copy of
 * the whole S3 client, which would ship twice in the bundle.)
 */
export async function presignedPost(
  where: { bucket: string; region: string; endpoint?: string },
  credentials: AwsCredentialIdentity,
  upload: { key: string; contentType: string; size: number; expires: Date; now: Date },
): Promise<PresignedUpload> {
  const amzDate = upload.now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const shortDate = amzDate.slice(0, 8);
  const credential = `${credentials.accessKeyId}/${createScope(shortDate, where.region, 's3')}`;
  const fields: Record<string, string> = {
    key: upload.key,
    'Content-Type': upload.contentType,
    'x-amz-algorithm': 'AWS4-HMAC-SHA256',
    'x-amz-credential': credential,
    'x-amz-date': amzDate,
    ...(credentials.sessionToken ? { 'x-amz-security-token': credentials.sessionToken } : {}),
  };
  const policy = {
    expiration: upload.expires.toISOString(),
    conditions: [
      { bucket: where.bucket },
      ...Object.entries(fields).map(([name, value]) => ({ [name]: value })),
      ['content-length-range', upload.size, upload.size],
    ],
  };
  const encoded = Buffer.from(JSON.stringify(policy)).toString('base64');
  const signingKey = await getSigningKey(sha256, credentials, shortDate, where.region, 's3');
  const signature = createHmac('sha256', signingKey).update(encoded).digest('hex');
  const url = where.endpoint ? `${where.endpoint}/${where.bucket}` : `https://${where.bucket}.s3.${where.region}.amazonaws.com`;
  return { url, fields: { ...fields, policy: encoded, 'x-amz-signature': signature } };
}

const unquoted = (etag: string | undefined): string => (etag ?? '').replace(/^"|"$/g, '');

/** A file name as a Content-Disposition header's quoted ASCII name (the validated name may hold any letters). */
const asciiName = (filename: string): string => filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');

/**
 * The evidence bucket through the SDK's S3 client (deployed the function's role; locally npm
 * start's s3rver through the same client, path-style on 127.0.0.1).
 */
export class S3EvidenceObjects implements EvidenceObjects {
  private readonly links: S3Links;

  constructor(
    private readonly s3: S3Client,
    private readonly where: { bucket: string; region: string; endpoint?: string },
    private readonly credentials: AwsCredentialIdentityProvider,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.links = new S3Links(where, credentials);
  }

  async presignUpload(key: string, contentType: AcceptedType, size: number, expires: Date): Promise<PresignedUpload> {
    return presignedPost(this.where, await this.credentials(), { key, contentType, size, expires, now: this.now() });
  }

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

  link(key: string, filename: string, contentType: AcceptedType, seconds: number): Promise<string> {
    return this.links.presign(key, seconds, asciiName(filename), undefined, contentType);
  }
}
