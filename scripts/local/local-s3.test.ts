import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Links } from '#shared/platform/s3/s3-links.js';
import { presignedPost } from '#shared/evidence/s3-evidence-signer.js';
import { createS3Client } from '#shared/platform/s3/s3-client.js';
import { startLocalS3, type LocalS3 } from './local-s3.js';

/** npm start's S3 (s3rver behind a guard): the SDK and presigned links work; unsigned, forged, expired and cross-site requests do not. */
let s3: LocalS3;
beforeAll(async () => {
  s3 = await startLocalS3({ buckets: ['guarded-bucket'] });
  const client = createS3Client(s3.endpoint, 'us-east-1', s3.credentials);
  await client.send(new PutObjectCommand({ Bucket: 'guarded-bucket', Key: 'bordereaux/other.csv', Body: 'secret,row\r\n' }));
  client.destroy();
});
afterAll(() => s3.stop());

const ZEROS = '0'.repeat(64);
const amzDate = () => new Date().toISOString().replace(/[-:]|\.\d{3}/g, '');
const link = (key: string, seconds = 60, signingDate?: Date) =>
  new S3Links({ bucket: 'guarded-bucket', region: 'us-east-1', endpoint: s3.endpoint }, s3.credentials).presign(key, seconds, 'f.csv', signingDate);

/** A request as the SDK writes one, its header signature replaced by `signature`. */
function headerSigned(signature: string) {
  const date = amzDate();
  return {
    authorization: `AWS4-HMAC-SHA256 Credential=${s3.credentials.accessKeyId}/${date.slice(0, 8)}/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=${signature}`,
    'x-amz-date': date,
    'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
  };
}

async function otherObject(): Promise<string> {
  return (await fetch(await link('bordereaux/other.csv'))).text();
}

describe('the local S3', () => {
  it('listens on 127.0.0.1 and serves the SDK (put, list, multipart) and presigned links', async () => {
    expect(new URL(s3.endpoint).hostname).toBe('127.0.0.1');
    const client = createS3Client(s3.endpoint, 'us-east-1', s3.credentials);
    await client.send(new PutObjectCommand({ Bucket: 'guarded-bucket', Key: 'bordereaux/a.csv', Body: 'a,b\r\n' }));
    const sdkLink = await getSignedUrl(client, new GetObjectCommand({ Bucket: 'guarded-bucket', Key: 'bordereaux/a.csv' }), { expiresIn: 60 });
    expect(await (await fetch(sdkLink)).text()).toBe('a,b\r\n');
    expect((await fetch(sdkLink, { headers: { origin: 'http://localhost:3000' } })).status).toBe(200); // a browser following the link
    expect(await (await fetch(await link('bordereaux/a.csv'))).text()).toBe('a,b\r\n'); // the operator routes' own links
    // A key the path must escape, and a multipart upload as the export writes one.
    await client.send(new PutObjectCommand({ Bucket: 'guarded-bucket', Key: 'bordereaux/x y+é.csv', Body: 'é\r\n' }));
    expect(await (await fetch(await link('bordereaux/x y+é.csv'))).text()).toBe('é\r\n');
    await new Upload({ client, params: { Bucket: 'guarded-bucket', Key: 'bordereaux/big.csv', Body: 'x'.repeat(6 * 1024 * 1024) } }).done();
    const listed = await client.send(new ListObjectsV2Command({ Bucket: 'guarded-bucket', Prefix: 'bordereaux/' }));
    expect(listed.Contents?.map((o) => o.Key)).toEqual(expect.arrayContaining(['bordereaux/a.csv', 'bordereaux/big.csv', 'bordereaux/x y+é.csv']));
    client.destroy();
  });

  it('refuses unsigned requests and a web page’s form POST', async () => {
    expect((await fetch(`${s3.endpoint}/guarded-bucket/bordereaux/a.csv`)).status).toBe(403);
    expect((await fetch(`${s3.endpoint}/guarded-bucket/bordereaux/a.csv`, { method: 'PUT', body: 'forged,row' })).status).toBe(403);
    const form = new FormData();
    form.set('key', 'bordereaux/a.csv');
    form.set('file', new Blob(['forged,row']));
    const post = await fetch(`${s3.endpoint}/guarded-bucket`, {
      method: 'POST',
      body: form,
      headers: { origin: 'https://evil.example', authorization: 'AWS4-HMAC-SHA256 Credential=x' },
    });
    expect(post.status).toBe(403);
    expect(await (await fetch(await link('bordereaux/a.csv'))).text()).toBe('a,b\r\n'); // unchanged
  });

  it('takes a browser form upload only with a policy signed with its credentials, unexpired, whose every condition holds', async () => {
    const now = new Date();
    const sign = (credentials: { accessKeyId: string; secretAccessKey: string }, expires = new Date(now.getTime() + 60_000)) =>
      presignedPost({ bucket: 'guarded-bucket', region: 'us-east-1', endpoint: s3.endpoint }, credentials, {
        key: 'uploads/x',
        contentType: 'application/pdf',
        size: 4,
        expires,
        now,
      });
    const post = async (
      upload: { url: string; fields: Record<string, string> },
      body = '%PDF',
      extra: Record<string, string> = {},
      after: Record<string, string> = {},
    ) => {
      const form = new FormData();
      for (const [name, value] of Object.entries({ ...upload.fields, ...extra })) form.set(name, value);
      form.set('file', new Blob([body]));
      for (const [name, value] of Object.entries(after)) form.append(name, value);
      return (await fetch(upload.url, { method: 'POST', body: form, headers: { origin: 'http://localhost:3000' } })).status;
    };
    expect(await post(await sign({ accessKeyId: s3.credentials.accessKeyId, secretAccessKey: 'another-secret' }))).toBe(403);
    expect(await post(await sign(s3.credentials, new Date(now.getTime() - 1000)))).toBe(403); // expired
    expect(await post(await sign(s3.credentials), '%PDF-')).toBe(400); // one byte more than the policy's size
    expect(await post(await sign(s3.credentials), '%PDF', { acl: 'public-read' })).toBe(403); // a field no condition names
    expect(await post(await sign(s3.credentials))).toBe(204);
    // As S3, the form ends at its file: a field after it is ignored, so an extra one passes and a required one is missing.
    expect(await post(await sign(s3.credentials), '%PDF', {}, { acl: 'public-read' })).toBe(204);
    const signed = await sign(s3.credentials);
    const { key, ...beforeFile } = signed.fields;
    expect(await post({ url: signed.url, fields: beforeFile }, '%PDF', {}, { key: key! })).toBe(403);
  });

  it('refuses a zeroed header signature: no listing, no read of another export, no overwrite', async () => {
    const list = await fetch(`${s3.endpoint}/guarded-bucket?list-type=2`, { headers: headerSigned(ZEROS) });
    expect(list.status).toBe(403);
    expect(await list.text()).not.toContain('other.csv');
    const get = await fetch(`${s3.endpoint}/guarded-bucket/bordereaux/other.csv`, { headers: headerSigned(ZEROS) });
    expect(get.status).toBe(403);
    expect(await get.text()).not.toContain('secret');
    const put = await fetch(`${s3.endpoint}/guarded-bucket/bordereaux/other.csv`, { method: 'PUT', body: 'forged,row', headers: headerSigned(ZEROS) });
    expect(put.status).toBe(403);
    expect(await otherObject()).toBe('secret,row\r\n');
  });

  it('refuses the SDK’s own calls signed with another secret', async () => {
    const forger = new S3Client({
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.credentials.accessKeyId, secretAccessKey: 'guessed' },
      maxAttempts: 1,
    });
    await expect(forger.send(new ListObjectsV2Command({ Bucket: 'guarded-bucket' }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
    await expect(forger.send(new GetObjectCommand({ Bucket: 'guarded-bucket', Key: 'bordereaux/other.csv' }))).rejects.toMatchObject({
      $metadata: { httpStatusCode: 403 },
    });
    await expect(forger.send(new PutObjectCommand({ Bucket: 'guarded-bucket', Key: 'bordereaux/other.csv', Body: 'forged,row' }))).rejects.toMatchObject({
      $metadata: { httpStatusCode: 403 },
    });
    forger.destroy();
    expect(await otherObject()).toBe('secret,row\r\n');
  });

  it('refuses calls and links signed correctly with s3rver’s public default credentials (S3RVER/S3RVER)', async () => {
    const publicDefault = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
    const forger = new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: publicDefault, maxAttempts: 1 });
    const denied = { $metadata: { httpStatusCode: 403 } };
    await expect(forger.send(new ListObjectsV2Command({ Bucket: 'guarded-bucket' }))).rejects.toMatchObject(denied);
    await expect(forger.send(new GetObjectCommand({ Bucket: 'guarded-bucket', Key: 'bordereaux/other.csv' }))).rejects.toMatchObject(denied);
    await expect(forger.send(new PutObjectCommand({ Bucket: 'guarded-bucket', Key: 'bordereaux/other.csv', Body: 'forged,row' }))).rejects.toMatchObject(
      denied,
    );
    const forgedLink = await getSignedUrl(forger, new GetObjectCommand({ Bucket: 'guarded-bucket', Key: 'bordereaux/other.csv' }), { expiresIn: 60 });
    const answer = await fetch(forgedLink);
    expect(answer.status).toBe(403);
    expect(await answer.text()).not.toContain('secret');
    forger.destroy();
    expect(await otherObject()).toBe('secret,row\r\n');
  });

  it('has credentials of its own, random for each start: neither the public default nor another start’s', async () => {
    const other = await startLocalS3();
    try {
      for (const credentials of [s3.credentials, other.credentials]) {
        expect(credentials.accessKeyId).not.toBe('S3RVER');
        expect(credentials.secretAccessKey).not.toBe('S3RVER');
        expect(credentials.secretAccessKey.length).toBeGreaterThanOrEqual(40);
      }
      expect(other.credentials.accessKeyId).not.toBe(s3.credentials.accessKeyId);
      expect(other.credentials.secretAccessKey).not.toBe(s3.credentials.secretAccessKey);
      // One start's credentials open nothing in another's.
      const stranger = createS3Client(other.endpoint, 'us-east-1', s3.credentials);
      await expect(stranger.send(new ListObjectsV2Command({ Bucket: 'guarded-bucket' }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
      stranger.destroy();
    } finally {
      await other.stop();
    }
  });

  it('refuses a presigned link whose signature is zeroed, whose key was changed, or that expired', async () => {
    const good = new URL(await link('bordereaux/a.csv'));
    const zeroed = new URL(good);
    zeroed.searchParams.set('X-Amz-Signature', ZEROS);
    expect((await fetch(zeroed)).status).toBe(403);
    const moved = new URL(good);
    moved.pathname = '/guarded-bucket/bordereaux/other.csv';
    const movedAnswer = await fetch(moved);
    expect(movedAnswer.status).toBe(403);
    expect(await movedAnswer.text()).not.toContain('secret');
    const listing = new URL(good);
    listing.pathname = '/guarded-bucket';
    listing.searchParams.set('list-type', '2');
    expect((await fetch(listing)).status).toBe(403);
    const put = await fetch(good, { method: 'PUT', body: 'forged,row' });
    expect(put.status).toBe(403);
    const expired = await link('bordereaux/a.csv', 60, new Date(Date.now() - 120_000));
    expect((await fetch(expired)).status).toBe(403);
    expect((await fetch(good)).status).toBe(200);
  });
});
