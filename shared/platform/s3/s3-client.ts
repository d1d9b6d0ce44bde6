import { S3Client } from '@aws-sdk/client-s3';
import { fromEnv } from '@aws-sdk/credential-provider-env';
import { loadConfig } from '../config.js';

/**
 * The S3 client. Deployed it is the SDK's default (the function's role); locally (`S3_ENDPOINT`,
 * npm start's s3rver on 127.0.0.1) the same client with a custom endpoint, path-style addressing
 * (no bucket subdomains on 127.0.0.1) and the local S3's own credentials: random for each start of
 * the local S3 (`scripts/local/local-s3.ts`), handed to the service in `S3_ACCESS_KEY_ID` and
 * `S3_SECRET_ACCESS_KEY`, never committed or logged (s3rver's public default, `S3RVER`, is refused).
 * Checksums only where S3 requires them: s3rver knows no CRC32 trailer, and S3 itself does not ask
 * for one on these calls.
 */
export interface LocalS3Credentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

/** The environment variables that carry the local S3's credentials (read only when `S3_ENDPOINT` is set). */
export const LOCAL_S3_KEY_ENV = 'S3_ACCESS_KEY_ID';
export const LOCAL_S3_SECRET_ENV = 'S3_SECRET_ACCESS_KEY';

/** The local S3's credentials from the environment; a clear error when the local S3 handed out none. */
export function localS3Credentials(env: NodeJS.ProcessEnv = process.env): LocalS3Credentials {
  const accessKeyId = env[LOCAL_S3_KEY_ENV];
  const secretAccessKey = env[LOCAL_S3_SECRET_ENV];
  if (!accessKeyId || !secretAccessKey)
    throw new Error(
      `S3_ENDPOINT is set but ${LOCAL_S3_KEY_ENV} or ${LOCAL_S3_SECRET_ENV} is not: the local S3 (scripts/local/local-s3.ts) hands out its own credentials when it starts`,
    );
  return { accessKeyId, secretAccessKey };
}

export function createS3Client(endpoint = loadConfig().s3Endpoint, region = loadConfig().region, credentials?: LocalS3Credentials): S3Client {
  return new S3Client({
    region,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(endpoint ? { endpoint, forcePathStyle: true, credentials: credentials ?? localS3Credentials() } : {}),
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
 * (the function's role), the local S3's own locally.
 */
export const signingCredentials = (endpoint = loadConfig().s3Endpoint) => (endpoint ? localS3Credentials() : fromEnv());
