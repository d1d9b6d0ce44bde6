import { CreateBucketCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { S3RequestPresigner } from '@aws-sdk/s3-request-presigner';
import { Hash } from '@smithy/hash-node';
import { getSigningKey, SignatureV4 } from '@smithy/signature-v4';
import type { HttpRequest, QueryParameterBag } from '@smithy/types';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import S3rver from 's3rver';
import { createS3Client, LOCAL_S3_KEY_ENV, LOCAL_S3_SECRET_ENV, type LocalS3Credentials } from '#shared/platform/s3/s3-client.js';

/**
 * S3 for local runs and tests: the `s3rver` package on 127.0.0.1 only, storing objects in a
 * temporary directory that goes with it (like DynamoDB Local's in-memory tables, nothing outlives
 * the run). The service reaches it with the same AWS SDK S3 client as deployed, through
 * `S3_ENDPOINT` and path-style addressing. Idle, it is a listening socket and nothing else.
 *
 * s3rver checks no SigV4 signature (only that the access key is one it knows) and takes unsigned
 * requests, and a web page the operator visits could write an object with a plain form POST (no
 * CORS preflight). So in front of it a guard checks each request's SigV4 signature as S3 would,
 * with the AWS SDK's own signer and this start's own credentials: a random key and secret
 * (`crypto.randomBytes`) made when it starts, kept in the process, handed to its owner
 * (`credentials`, `env`: npm start and the tests put them in `S3_ACCESS_KEY_ID` and
 * `S3_SECRET_ACCESS_KEY` for the service's S3 client) and never written or logged. s3rver is told
 * that key and forgets its public default (`S3RVER`/`S3RVER`), which the guard refuses as any other
 * key. It signs the request again from what it carries
 * (method, path, query, the signed headers, the payload hash) and compares the signatures in
 * constant time; a header-signed request must be dated within 15 minutes of now, a presigned link
 * used before it expires. A browser's cross-site write (an `Origin` header on anything but a GET)
 * is refused too. The body is not hashed again (s3rver reads it as a stream): a signed request
 * replayed with another body would pass, which needs the request itself, not a guess.
 *
 * A browser's upload (S3's POST Object: a form with a SigV4-signed policy, the claims' evidence)
 * is what s3rver takes without any check, so the guard plays S3's part: it checks the policy's
 * signature with this start's secret, its expiry and every condition (the bucket, each field's
 * exact value, `content-length-range` against the file's size), then writes the object through the
 * SDK as the service would, and answers 204 with CORS headers for the page that posted it. Each
 * object written emits `onObjectCreated` (S3's Object Created event, as EventBridge carries it).
 */
export interface LocalS3 {
  endpoint: string;
  /** This start's own credentials: the only ones the guard lets through. */
  credentials: LocalS3Credentials;
  /** The environment that points the service's S3 client at it (`S3_ENDPOINT` and the credentials). */
  env: Record<string, string>;
  /** Called with the bucket and key of every object written (a PUT, a form upload, a copy). */
  onObjectCreated(listener: (bucket: string, key: string) => void): void;
  stop(): Promise<void>;
}

/** A form upload's body at most: the largest file a policy allows here (10 MiB) and its fields. */
export const MAX_FORM_BYTES = 10 * 1024 * 1024 + 64 * 1024;

/** s3rver's account registry: s3rver checks no SigV4 signature, only that the access key is one it knows. */
interface S3rverAccount {
  createKeyPair(accessKeyId: string, secretAccessKey: string): void;
  revokeAccessKey(accessKeyId: string): void;
}
const s3rverAccount = (): S3rverAccount => (createRequire(import.meta.url)('s3rver/lib/models/account.js') as { DUMMY_ACCOUNT: S3rverAccount }).DUMMY_ACCOUNT;

/** A random key pair for one start of the local S3 (the key id's shape is AWS's: 20 upper-case characters). */
function randomCredentials(): LocalS3Credentials {
  return { accessKeyId: `LOCAL${randomBytes(8).toString('hex').toUpperCase()}`.slice(0, 20), secretAccessKey: randomBytes(30).toString('base64url') };
}

export async function startLocalS3(options: { port?: number; buckets?: readonly string[] } = {}): Promise<LocalS3> {
  const directory = await mkdtemp(join(tmpdir(), 'order-protection-s3-'));
  const credentials = randomCredentials();
  const signers = signersFor(credentials);
  // s3rver learns this start's key (it checks only that the key is known) and forgets its public default.
  const account = s3rverAccount();
  account.revokeAccessKey('S3RVER');
  account.createKeyPair(credentials.accessKeyId, credentials.secretAccessKey);
  const s3rver = new S3rver({ silent: true, directory, vhostBuckets: false });
  const listeners: ((bucket: string, key: string) => void)[] = [];
  (s3rver as unknown as NodeJS.EventEmitter).on(
    'event',
    (event: { Records?: { eventName?: string; s3?: { bucket?: { name?: string }; object?: { key?: string } } }[] }) => {
      for (const record of event.Records ?? []) {
        const bucket = record.s3?.bucket?.name;
        const key = record.s3?.object?.key;
        if (record.eventName?.startsWith('ObjectCreated') && bucket && key) for (const listener of listeners) listener(bucket, decodeURIComponent(key));
      }
    },
  );
  const answer = s3rver.callback();
  let uploader: S3Client | undefined;
  const server = createServer((req, res) => {
    void (async () => {
      if (isFormUpload(req)) {
        uploader ??= createS3Client(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'us-east-1', credentials);
        await formUpload(req, res, credentials, uploader);
        return;
      }
      if ((req.headers.origin !== undefined && req.method !== 'GET') || !(await signedByTheService(req, credentials, signers))) {
        res.writeHead(403, { 'content-type': 'application/xml' });
        res.end(
          '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Unsigned, forged, expired or cross-site request</Message></Error>',
        );
        return;
      }
      answer(req, res);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  let address: AddressInfo;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', resolve);
    });
    address = server.address() as AddressInfo;
  } catch (err) {
    account.revokeAccessKey(credentials.accessKeyId);
    await rm(directory, { recursive: true, force: true });
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new Error(`S3 port ${options.port} is already in use (another npm start?). Free it or set S3_PORT to a free port.`, { cause: err });
    throw err;
  }
  const endpoint = `http://127.0.0.1:${address.port}`;
  const s3 = createS3Client(endpoint, 'us-east-1', credentials);
  for (const bucket of options.buckets ?? []) await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  s3.destroy();
  return {
    endpoint,
    credentials,
    env: { S3_ENDPOINT: endpoint, [LOCAL_S3_KEY_ENV]: credentials.accessKeyId, [LOCAL_S3_SECRET_ENV]: credentials.secretAccessKey },
    onObjectCreated: (listener) => listeners.push(listener),
    stop: async () => {
      uploader?.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      account.revokeAccessKey(credentials.accessKeyId);
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** How far a header-signed request's date may be from now, as S3 allows. */
export const MAX_CLOCK_SKEW_MS = 15 * 60 * 1000;
/** The longest a presigned link may be valid, as SigV4 allows (a week). */
export const MAX_PRESIGNED_SECONDS = 7 * 24 * 60 * 60;

const sha256 = Hash.bind(null, 'sha256');
interface Signers {
  header: SignatureV4;
  link: S3RequestPresigner;
}
function signersFor(credentials: LocalS3Credentials): Signers {
  const signing = { credentials, region: 'us-east-1', service: 's3', sha256, uriEscapePath: false, applyChecksum: false };
  return { header: new SignatureV4(signing), link: new S3RequestPresigner(signing) };
}
/** The query parameters a presigned link's signature writes (the presigner writes them again). */
const PRESIGN_PARAMS = new Set([
  'x-amz-algorithm',
  'x-amz-credential',
  'x-amz-date',
  'x-amz-expires',
  'x-amz-signedheaders',
  'x-amz-signature',
  'x-amz-content-sha256',
]);
const AMZ_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;
const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^,\s]+),\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/;

/**
 * True when the request carries a SigV4 signature (Authorization header, as the SDK's calls, or a
 * presigned query, as the bordereaux links) made with this start's credentials over this very request.
 */
async function signedByTheService(req: IncomingMessage, credentials: LocalS3Credentials, signers: Signers): Promise<boolean> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const rawPath = (req.url ?? '/').split('?')[0] ?? '/';
  const query: QueryParameterBag = {};
  for (const [name, value] of url.searchParams) {
    const had = query[name];
    query[name] = had === undefined || had === null ? value : [...(Array.isArray(had) ? had : [had]), value];
  }
  const authorization = req.headers.authorization;
  if (authorization !== undefined) {
    const parts = AUTHORIZATION.exec(authorization);
    if (!parts) return false;
    const [, credential = '', signedHeaders = '', signature = ''] = parts;
    const date = amzDate(header(req, 'x-amz-date'));
    if (!date || Math.abs(Date.now() - date.getTime()) > MAX_CLOCK_SKEW_MS) return false;
    const scope = credentialScope(credential, date, credentials.accessKeyId);
    if (!scope) return false;
    const names = signedHeaders.split(';');
    if (!names.includes('host') || !names.includes('x-amz-date') || !names.includes('x-amz-content-sha256')) return false;
    const signed = await signers.header.sign(request(req, rawPath, query, names), {
      signingDate: date,
      signingRegion: scope.region,
      signableHeaders: new Set(names),
    });
    const again = AUTHORIZATION.exec(String(signed.headers.authorization));
    return again?.[2] === signedHeaders && sameSignature(again[3] ?? '', signature);
  }
  const lower = new Map([...url.searchParams.keys()].map((name) => [name.toLowerCase(), url.searchParams.get(name) ?? '']));
  if (lower.get('x-amz-algorithm') !== 'AWS4-HMAC-SHA256' || lower.get('x-amz-content-sha256') !== 'UNSIGNED-PAYLOAD') return false;
  const date = amzDate(lower.get('x-amz-date'));
  const seconds = Number(lower.get('x-amz-expires'));
  if (!date || !Number.isInteger(seconds) || seconds < 1 || seconds > MAX_PRESIGNED_SECONDS) return false;
  if (date.getTime() - Date.now() > MAX_CLOCK_SKEW_MS || Date.now() > date.getTime() + seconds * 1000) return false;
  const scope = credentialScope(lower.get('x-amz-credential') ?? '', date, credentials.accessKeyId);
  if (!scope) return false;
  const names = (lower.get('x-amz-signedheaders') ?? '').split(';');
  if (!names.includes('host')) return false;
  const rest = Object.fromEntries(Object.entries(query).filter(([name]) => !PRESIGN_PARAMS.has(name.toLowerCase())));
  const signed = await signers.link.presign(request(req, rawPath, rest, names), {
    signingDate: date,
    expiresIn: seconds,
    signingRegion: scope.region,
    signableHeaders: new Set(names),
  });
  return (
    signed.query?.['X-Amz-SignedHeaders'] === names.join(';') && sameSignature(String(signed.query['X-Amz-Signature']), lower.get('x-amz-signature') ?? '')
  );
}

/** The request as the signer takes it: only the headers the signature claims to cover. */
function request(req: IncomingMessage, path: string, query: QueryParameterBag, signedHeaders: readonly string[]): HttpRequest {
  const headers: Record<string, string> = {};
  for (const name of signedHeaders) {
    const value = header(req, name);
    if (value !== undefined) headers[name] = value;
  }
  const host = new URL(`http://${headers.host ?? '127.0.0.1'}`);
  return { method: req.method ?? 'GET', protocol: 'http:', hostname: host.hostname, path, query, headers };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/** `Credential=<access key>/<YYYYMMDD>/<region>/s3/aws4_request`: this start's key, the signing day. */
function credentialScope(credential: string, date: Date, accessKeyId: string): { region: string } | undefined {
  const [key, day, region, service, terminal, ...extra] = credential.split('/');
  const signingDay = date.toISOString().slice(0, 10).replaceAll('-', '');
  if (key !== accessKeyId || day !== signingDay || !region || service !== 's3' || terminal !== 'aws4_request' || extra.length) return undefined;
  return { region };
}

function amzDate(value: string | undefined): Date | undefined {
  const parts = value === undefined ? null : AMZ_DATE.exec(value);
  if (!parts) return undefined;
  const date = new Date(`${parts[1]}-${parts[2]}-${parts[3]}T${parts[4]}:${parts[5]}:${parts[6]}Z`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function sameSignature(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A browser's form upload to a bucket (POST Object), or its CORS preflight. */
const isFormUpload = (req: IncomingMessage): boolean =>
  /^\/[a-z0-9.-]+\/?$/.test((req.url ?? '').split('?')[0] ?? '') &&
  ((req.method === 'POST' && /^multipart\/form-data/i.test(req.headers['content-type'] ?? '')) ||
    (req.method === 'OPTIONS' && req.headers['access-control-request-method'] === 'POST'));

function s3Error(res: ServerResponse, status: number, code: string, message: string, cors: Record<string, string>): void {
  res.writeHead(status, { 'content-type': 'application/xml', ...cors });
  res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`);
}

/** S3's POST Object, checked as S3 checks it: the policy's signature, expiry and conditions; then written through the SDK. */
async function formUpload(req: IncomingMessage, res: ServerResponse, credentials: LocalS3Credentials, s3: S3Client): Promise<void> {
  const origin = req.headers.origin;
  const cors: Record<string, string> = origin ? { 'access-control-allow-origin': origin, vary: 'Origin' } : {};
  if (req.method === 'OPTIONS') {
    res.writeHead(204, { ...cors, 'access-control-allow-methods': 'POST', 'access-control-allow-headers': '*', 'access-control-max-age': '600' });
    res.end();
    return;
  }
  const bucket = (req.url ?? '').split('?')[0]!.replace(/^\/|\/$/g, '');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) return s3Error(res, 400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size', cors);
    chunks.push(chunk);
  }
  let form: FormData;
  try {
    form = await new Request('http://127.0.0.1/', {
      method: 'POST',
      headers: { 'content-type': req.headers['content-type'] ?? '' },
      body: Buffer.concat(chunks),
    }).formData();
  } catch {
    return s3Error(res, 400, 'MalformedPOSTRequest', 'The body of your POST request is not well-formed multipart/form-data.', cors);
  }
  // S3 reads a form up to its file, which must be its last field: whatever follows is ignored
  // (a condition's field after the file is missing, an extra one does not count).
  const fields: [string, FormDataEntryValue][] = [];
  let file: FormDataEntryValue | undefined;
  for (const [key, value] of form as unknown as Iterable<[string, FormDataEntryValue]>) {
    if (key.toLowerCase() === 'file') {
      file = value;
      break;
    }
    fields.push([key, value]);
  }
  const field = (name: string): string | undefined => {
    for (const [key, value] of fields) if (key.toLowerCase() === name.toLowerCase() && typeof value === 'string') return value;
    return undefined;
  };
  const policyText = field('policy');
  const signature = field('x-amz-signature') ?? '';
  const date = amzDate(field('x-amz-date'));
  // A form without a signed policy is an anonymous write, which the bucket refuses as S3 does.
  if (!policyText || !date || !signature) return s3Error(res, 403, 'AccessDenied', 'Access Denied', cors);
  if (!(file instanceof Blob)) return s3Error(res, 400, 'InvalidArgument', 'POST requires exactly one file upload per request.', cors);
  const scope = credentialScope(field('x-amz-credential') ?? '', date, credentials.accessKeyId);
  if (!scope) return s3Error(res, 403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.', cors);
  const signingKey = await getSigningKey(sha256, credentials, date.toISOString().slice(0, 10).replaceAll('-', ''), scope.region, 's3');
  if (!sameSignature(createHmac('sha256', signingKey).update(policyText).digest('hex'), signature))
    return s3Error(res, 403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.', cors);
  let policy: { expiration?: string; conditions?: unknown[] };
  try {
    policy = JSON.parse(Buffer.from(policyText, 'base64').toString('utf8')) as typeof policy;
  } catch {
    return s3Error(res, 400, 'InvalidPolicyDocument', 'Invalid Policy: Invalid JSON.', cors);
  }
  if (!policy.expiration || !(Date.parse(policy.expiration) > Date.now()))
    return s3Error(res, 403, 'AccessDenied', 'Invalid according to Policy: Policy expired.', cors);
  const key = field('key') ?? '';
  // Every condition must hold; every field but the signature's own must be named by one (as S3 requires).
  const named = new Set(['policy', 'x-amz-signature', 'file']);
  for (const condition of policy.conditions ?? []) {
    if (Array.isArray(condition) && condition[0] === 'content-length-range') {
      if (!(file.size >= Number(condition[1]) && file.size <= Number(condition[2])))
        return s3Error(
          res,
          400,
          file.size > Number(condition[2]) ? 'EntityTooLarge' : 'EntityTooSmall',
          'Your proposed upload is outside the allowed size',
          cors,
        );
      continue;
    }
    const [name, value] =
      Array.isArray(condition) && condition[0] === 'eq'
        ? [String(condition[1]).replace(/^\$/, ''), condition[2]]
        : (Object.entries(condition as object)[0] ?? []);
    if (name === undefined) continue;
    named.add(String(name).toLowerCase());
    const given = String(name) === 'bucket' ? bucket : field(String(name));
    if (given !== value)
      return s3Error(res, 403, 'AccessDenied', `Invalid according to Policy: Policy Condition failed: ["eq", "$${String(name)}", "${String(value)}"]`, cors);
  }
  for (const [name] of fields)
    if (!named.has(name.toLowerCase())) return s3Error(res, 403, 'AccessDenied', `Invalid according to Policy: Extra input fields: ${name}`, cors);
  const contentType = field('content-type');
  await s3.send(
    new PutObjectCommand({ Bucket: bucket, Key: key, Body: new Uint8Array(await file.arrayBuffer()), ...(contentType ? { ContentType: contentType } : {}) }),
  );
  res.writeHead(204, cors);
  res.end();
}
