import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { createS3Client } from '#shared/platform/s3/s3-client.js';

/**
 * S3 for local runs and tests: the `s3rver` package on 127.0.0.1 only, storing objects in a
 * temporary directory that goes with it (like DynamoDB Local's in-memory tables, nothing outlives
 * the run). The service reaches it with the same AWS SDK S3 client as deployed, through
 * `S3_ENDPOINT` and path-style addressing. Idle, it is a listening socket and nothing else.
 */
export interface LocalS3 {
  endpoint: string;
  stop(): Promise<void>;
}

export async function startLocalS3(options: { port?: number; buckets?: readonly string[] } = {}): Promise<LocalS3> {
  const directory = await mkdtemp(join(tmpdir(), 'order-protection-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: options.port ?? 0, silent: true, directory, vhostBuckets: false });
  let address: AddressInfo;
  try {
    address = await server.run();
  } catch (err) {
    await rm(directory, { recursive: true, force: true });
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new Error(`S3 port ${options.port} is already in use (another npm start?). Free it or set S3_PORT to a free port.`, { cause: err });
    throw err;
  }
  const endpoint = `http://127.0.0.1:${address.port}`;
  const s3 = createS3Client(endpoint, 'us-east-1');
  for (const bucket of options.buckets ?? []) await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  s3.destroy();
  return {
    endpoint,
    stop: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
