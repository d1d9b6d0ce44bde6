import { S3Client } from '@aws-sdk/client-s3';
import { fromEnv } from '@aws-sdk/credential-provider-env';
import { loadConfig } from '../config.js';

/**
 * The S3 client. Deployed it is the SDK's default; locally (`S3_ENDPOINT`, npm start's s3rver on
 * 127.0.0.1) the same client with a custom endpoint, path-style addressing (no bucket subdomains on
 * 127.0.0.1) and s3rver's fixed credentials. Checksums only where S3 requires them: s3rver knows no
 * CRC32 trailer, and S3 itself does not ask for one on these calls.
 */
export const LOCAL_S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export function createS3Client(endpoint = loadConfig().s3Endpoint, region = loadConfig().region): S3Client {
  return new S3Client({
    region,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(endpoint ? { endpoint, forcePathStyle: true, credentials: LOCAL_S3_CREDENTIALS } : {}),
  });
}

let shared: S3Client | undefined;

/** One client per cold start. */
export function sharedS3Client(): S3Client {
  shared ??= createS3Client();
  return shared;
}

/**
 * The credentials a function signs links with without an S3 client: Lambda's environment deployed
 * (the function's role), s3rver's fixed ones locally.
 */
export const signingCredentials = (endpoint = loadConfig().s3Endpoint) => (endpoint ? LOCAL_S3_CREDENTIALS : fromEnv());
