import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Client } from '#shared/platform/s3/s3-client.js';
import { startLocalS3, type LocalS3 } from './local-s3.js';

/** npm start's S3 (s3rver behind a guard): the SDK and presigned links work; unsigned and cross-site writes do not. */
let s3: LocalS3;
beforeAll(async () => {
  s3 = await startLocalS3({ buckets: ['guarded-bucket'] });
});
afterAll(() => s3.stop());

describe('the local S3', () => {
  it('listens on 127.0.0.1 and serves the SDK and presigned links', async () => {
    expect(new URL(s3.endpoint).hostname).toBe('127.0.0.1');
    const client = createS3Client(s3.endpoint, 'us-east-1');
    await client.send(new PutObjectCommand({ Bucket: 'guarded-bucket', Key: 'bordereaux/a.csv', Body: 'a,b\r\n' }));
    const link = await getSignedUrl(client, new GetObjectCommand({ Bucket: 'guarded-bucket', Key: 'bordereaux/a.csv' }), { expiresIn: 60 });
    expect(await (await fetch(link)).text()).toBe('a,b\r\n');
    expect((await fetch(link, { headers: { origin: 'http://localhost:3000' } })).status).toBe(200); // a browser following the link
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
    const client = createS3Client(s3.endpoint, 'us-east-1');
    const link = await getSignedUrl(client, new GetObjectCommand({ Bucket: 'guarded-bucket', Key: 'bordereaux/a.csv' }), { expiresIn: 60 });
    expect(await (await fetch(link)).text()).toBe('a,b\r\n'); // unchanged
    client.destroy();
  });
});
