import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
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
 *
 * s3rver takes unsigned requests, and a web page the operator visits could write an object with a
 * plain form POST (no CORS preflight): in front of it, a request must be SigV4-signed (header or
 * presigned query, as the SDK and the links are), and a browser's cross-site write (an `Origin`
 * header on anything but a GET) is refused. s3rver does not check the signatures themselves.
 */
export interface LocalS3 {
  endpoint: string;
  stop(): Promise<void>;
}

export async function startLocalS3(options: { port?: number; buckets?: readonly string[] } = {}): Promise<LocalS3> {
  const directory = await mkdtemp(join(tmpdir(), 'order-protection-s3-'));
  const s3rver = new S3rver({ silent: true, directory, vhostBuckets: false });
  const answer = s3rver.callback();
  const server = createServer((req, res) => {
    if (!signed(req) || (req.headers.origin !== undefined && req.method !== 'GET')) {
      res.writeHead(403, { 'content-type': 'application/xml' });
      res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Unsigned or cross-site request</Message></Error>');
      return;
    }
    answer(req, res);
  });
  let address: AddressInfo;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', resolve);
    });
    address = server.address() as AddressInfo;
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
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** SigV4 in the Authorization header (the SDK's calls) or in the query (a presigned link). */
function signed(req: IncomingMessage): boolean {
  if (req.headers.authorization?.startsWith('AWS4-HMAC-SHA256 ')) return true;
  return new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('X-Amz-Algorithm') === 'AWS4-HMAC-SHA256';
}
