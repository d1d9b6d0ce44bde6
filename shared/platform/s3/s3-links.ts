import { S3RequestPresigner } from '@aws-sdk/s3-request-presigner';
import { formatUrl } from '@aws-sdk/util-format-url';
import { Hash } from '@smithy/hash-node';

/**
 * An attachment's Content-Disposition: the name as quoted ASCII, and (RFC 6266) as UTF-8 in
 * `filename*` when it holds other letters, which browsers prefer. Quotes and backslashes never reach it.
 */
export function disposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  if (ascii === fileName) return `attachment; filename="${fileName}"`;
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (char) => '%' + char.charCodeAt(0).toString(16).toUpperCase());
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** How every linked object is served: for the one who asked, kept by no cache. */
export const PRIVATE_NO_STORE = 'private, no-store';

/**
 * Presigned GETs (the bordereaux, the claims' evidence), without an S3 client: a link is a SigV4 query signature over
 * the object's URL (the SDK's own S3RequestPresigner), so the operator routes' function does not
 * bundle S3's client (about 200 KB) to sign one. Deployed the URL is virtual-hosted
 * (`<bucket>.s3.<region>.amazonaws.com`); locally path-style on npm start's s3rver.
 */
export class S3Links {
  private readonly presigner: S3RequestPresigner;

  constructor(
    private readonly where: { bucket: string; region: string; endpoint?: string },
    credentials: ConstructorParameters<typeof S3RequestPresigner>[0]['credentials'],
  ) {
    this.presigner = new S3RequestPresigner({ credentials, region: where.region, sha256: Hash.bind(null, 'sha256') });
  }

  /** A GET of `key` for `seconds`, as an attachment named `fileName`, never cached (and served as `contentType` when given). */
  async presign(key: string, seconds: number, fileName: string, signingDate?: Date, contentType?: string): Promise<string> {
    const base = new URL(this.where.endpoint ?? `https://${this.where.bucket}.s3.${this.where.region}.amazonaws.com`);
    const path = `${this.where.endpoint ? `/${this.where.bucket}` : ''}/${key.split('/').map(encodeURIComponent).join('/')}`;
    const signed = await this.presigner.presign(
      {
        method: 'GET',
        protocol: base.protocol,
        hostname: base.hostname,
        ...(base.port ? { port: Number(base.port) } : {}),
        path,
        // As the S3 client writes a GetObject link (its `x-id` marker included), so that a test can compare the two.
        query: {
          // Private bytes (a doctor's note, a bordereau): no cache keeps them past the link's minutes.
          'response-cache-control': PRIVATE_NO_STORE,
          'response-content-disposition': disposition(fileName),
          ...(contentType ? { 'response-content-type': contentType } : {}),
          'x-id': 'GetObject',
        },
        headers: { host: base.host },
      },
      { expiresIn: seconds, ...(signingDate ? { signingDate } : {}) },
    );
    return formatUrl(signed);
  }
}
