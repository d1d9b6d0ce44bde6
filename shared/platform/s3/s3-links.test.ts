import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { describe, expect, it } from 'vitest';
import { disposition, PRIVATE_NO_STORE, S3Links } from './s3-links.js';

/** The links the operator routes sign without an S3 client are the links the SDK's S3 client signs (configured as ours), byte for byte. */
const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', sessionToken: 'session/token+' };
const signingDate = new Date('2026-11-25T12:00:00Z');
const key = 'bordereaux/2026-11/premium-bx_123.csv';
const fileName = 'premium-bordereau-2026-11.csv';

const sdkLink = (client: S3Client, bucket: string) =>
  getSignedUrl(
    client,
    new GetObjectCommand({
      Bucket: bucket,
      Key: key,
      ResponseCacheControl: PRIVATE_NO_STORE,
      ResponseContentDisposition: `attachment; filename="${fileName}"`,
    }),
    {
      expiresIn: 900,
      signingDate,
    },
  );

describe('bordereau links', () => {
  it('deployed: a virtual-hosted URL, equal to the S3 client’s presigned GET', async () => {
    const ours = await new S3Links({ bucket: 'orderprotectiondata-bordereaux-1a2b', region: 'eu-west-1' }, credentials).presign(
      key,
      900,
      fileName,
      signingDate,
    );
    const theirs = await sdkLink(
      new S3Client({ region: 'eu-west-1', credentials, responseChecksumValidation: 'WHEN_REQUIRED', requestChecksumCalculation: 'WHEN_REQUIRED' }),
      'orderprotectiondata-bordereaux-1a2b',
    );
    expect(ours).toBe(theirs);
    const url = new URL(ours);
    expect(url.host).toBe('orderprotectiondata-bordereaux-1a2b.s3.eu-west-1.amazonaws.com');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('X-Amz-Security-Token')).toBe('session/token+');
  });

  it('locally: path-style on the s3rver endpoint, equal to the S3 client’s', async () => {
    const ours = await new S3Links({ bucket: 'order-protection-bordereaux', region: 'us-east-1', endpoint: 'http://127.0.0.1:4568' }, credentials).presign(
      key,
      900,
      fileName,
      signingDate,
    );
    const theirs = await sdkLink(
      new S3Client({
        region: 'us-east-1',
        credentials,
        endpoint: 'http://127.0.0.1:4568',
        forcePathStyle: true,
        responseChecksumValidation: 'WHEN_REQUIRED',
        requestChecksumCalculation: 'WHEN_REQUIRED',
      }),
      'order-protection-bordereaux',
    );
    expect(ours).toBe(theirs);
    expect(new URL(ours).pathname).toBe(`/order-protection-bordereaux/${key}`);
  });
});

describe('an attachment’s name', () => {
  it('is quoted ASCII, with the UTF-8 name in filename* when it holds other letters', () => {
    expect(disposition('premium-bordereau-2026-11.csv')).toBe('attachment; filename="premium-bordereau-2026-11.csv"');
    expect(disposition('Arztbrief München.pdf')).toBe(`attachment; filename="Arztbrief M_nchen.pdf"; filename*=UTF-8''Arztbrief%20M%C3%BCnchen.pdf`);
    expect(disposition('note (1).pdf')).toBe('attachment; filename="note (1).pdf"');
  });
});
