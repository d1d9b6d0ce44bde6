import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { handler as baseline } from './baseline-handler.js';

/**
 * The yardstick of a function that writes S3 (the bordereaux' export): the least handler
 * (baseline-handler.ts) and one PutObject through the S3 client, bundled the same way. A function
 * that writes objects carries S3's client whatever it does; the goal then measures what it adds.
 */
const s3 = new S3Client({});

export const handler = async (event: { token: string }): Promise<{ statusCode: number }> => {
  await baseline(event);
  await s3.send(new PutObjectCommand({ Bucket: process.env.BUCKET, Key: `baseline/${Date.now()}`, Body: 'x' }));
  return { statusCode: 204 };
};
