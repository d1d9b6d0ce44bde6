import { Hash } from '@smithy/hash-node';
import { createScope, getSigningKey } from '@smithy/signature-v4';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import { createHmac } from 'node:crypto';
import { S3Links } from '../platform/s3/s3-links.js';
import type { AcceptedType } from './evidence.js';
import type { EvidenceSigner, PresignedUpload } from './ports.js';

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

/**
 * The evidence bucket's signed forms and links, without an S3 client (the routes' functions only
 * sign: their bundles stay small). Deployed with the function's role's credentials; locally with
 * the local S3's.
 */
export class S3EvidenceSigner implements EvidenceSigner {
  private readonly links: S3Links;

  constructor(
    private readonly where: { bucket: string; region: string; endpoint?: string },
    private readonly credentials: AwsCredentialIdentityProvider,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.links = new S3Links(where, credentials);
  }

  async presignUpload(key: string, contentType: AcceptedType, size: number, expires: Date): Promise<PresignedUpload> {
    return presignedPost(this.where, await this.credentials(), { key, contentType, size, expires, now: this.now() });
  }

  link(key: string, filename: string, contentType: AcceptedType, seconds: number): Promise<string> {
    return this.links.presign(key, seconds, filename, undefined, contentType);
  }
}
