import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { judgeBytes } from '#shared/evidence/evidence-files.js';
import { presignedPost } from '#shared/evidence/s3-evidence-signer.js';
import { uploadKey, type EvidenceFile } from '#shared/evidence/evidence.js';
import { createS3Client } from '#shared/platform/s3/s3-client.js';
import { startLocalS3 } from '../../scripts/local/local-s3.js';
import { median } from '../stats.js';
import type { Recorder } from '../report.js';

/**
 * 11 · Evidence: what 1,000 files cost and where their bytes go. Measured here: a 1 MiB upload
 * posted with its presigned POST to the local S3 (the API's function receives only the JSON
 * asking for the form), and the CPU of the check of bytes scanned clean (magic numbers; a JPEG
 * rewritten without its metadata). Priced with bench/prices-us-east-1.json: S3's requests and
 * storage, GuardDuty Malware Protection for S3 (per object and per GB scanned), the three Lambda
 * invocations a file makes (the POST asking for the form, S3's Object Created event, GuardDuty's
 * verdict; none carries the file) and their DynamoDB writes. EventBridge carries AWS services'
 * events to the default bus for free.
 */
const FILES = 1_000;
const FILE_BYTES = 1024 * 1024;
const CHECK_RUNS = 41;

interface Prices {
  prices: Record<string, number>;
  assumptions: { lambda_full_vcpu_mb: number; dynamodb_round_trip_ms: Record<string, number> };
}

/** A 1 MiB JPEG's structure: JFIF, an EXIF segment with a GPS position, tables, one scan filling the rest. */
function jpegOf(bytes: number): Uint8Array {
  const segment = (marker: number, data: Buffer) => Buffer.concat([Buffer.from([0xff, marker, (data.length + 2) >> 8, (data.length + 2) & 0xff]), data]);
  const head = Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1')),
    segment(0xe1, Buffer.alloc(4096, 0x47)),
    segment(0xdb, Buffer.alloc(65, 1)),
    segment(0xda, Buffer.from([1, 1, 0, 0, 0x3f, 0])),
  ]);
  const scan = Buffer.alloc(bytes - head.length - 2, 0x5a);
  return Buffer.concat([head, scan, Buffer.from([0xff, 0xd9])]);
}

export async function measureEvidence(record: Recorder): Promise<void> {
  const { prices, assumptions } = JSON.parse(readFileSync('bench/prices-us-east-1.json', 'utf8')) as Prices;

  // Where the bytes go: the form is signed for the bucket, the bytes are posted there.
  const s3 = await startLocalS3({ buckets: ['bench-evidence'] });
  const client = createS3Client(s3.endpoint, 'us-east-1', s3.credentials);
  let postedMs: number;
  let askBytes: number;
  let landed: number;
  try {
    const now = new Date();
    const ask = { filename: 'doctor-note.jpg', content_type: 'image/jpeg', size: FILE_BYTES };
    askBytes = Buffer.byteLength(JSON.stringify(ask));
    const key = uploadKey(`clm_${'a'.repeat(24)}`, `fi_${'b'.repeat(24)}`);
    const upload = await presignedPost({ bucket: 'bench-evidence', region: 'us-east-1', endpoint: s3.endpoint }, s3.credentials, {
      key,
      contentType: 'image/jpeg',
      size: FILE_BYTES,
      expires: new Date(now.getTime() + 600_000),
      now,
    });
    const form = new FormData();
    for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
    form.append('file', new Blob([new Uint8Array(jpegOf(FILE_BYTES))]));
    const started = performance.now();
    const res = await fetch(upload.url, { method: 'POST', body: form });
    postedMs = performance.now() - started;
    if (res.status !== 204) throw new Error(`the upload was refused: ${res.status}`);
    landed = ((await client.send(new ListObjectsV2Command({ Bucket: 'bench-evidence', Prefix: key }))).Contents ?? [])[0]?.Size ?? 0;
  } finally {
    client.destroy();
    await s3.stop();
  }
  record({
    subject: `evidence: bytes through a Lambda per ${FILE_BYTES.toLocaleString('en')}-byte upload`,
    figure: `${askBytes} B (the JSON asking for the form); the file went to S3 (${landed.toLocaleString('en')} B landed, ${Math.round(postedMs)} ms)`,
    goal: 'none of the file',
    ok: landed === FILE_BYTES && askBytes < 256,
  });

  // The check of a clean file's bytes, as evidence-check runs it.
  const file = { size: FILE_BYTES, content_type: 'image/jpeg' } as EvidenceFile;
  const jpeg = jpegOf(FILE_BYTES);
  const runs: number[] = [];
  for (let run = 0; run < CHECK_RUNS; run++) {
    const started = performance.now();
    const judged = judgeBytes(file, jpeg);
    runs.push(performance.now() - started);
    if (!judged.ok || judged.bytes.length !== FILE_BYTES - 4100) throw new Error('the check did not strip the EXIF segment');
  }
  const checkMs = median(runs);
  record({
    subject: 'evidence: checking a clean 1 MiB JPEG (magic numbers, metadata stripped)',
    figure: `${checkMs.toFixed(2)} ms CPU (median of ${CHECK_RUNS})`,
    goal: 'reported',
    ok: true,
  });

  // 1,000 files of 1 MiB: what each part costs.
  const gb = (FILES * FILE_BYTES) / 1024 ** 3;
  const memoryMb = 512;
  const stretch = Math.max(1, assumptions.lambda_full_vcpu_mb / memoryMb);
  const rt = assumptions.dynamodb_round_trip_ms;
  // Per file: the POST (a GetItem-class Query of the claim, one transaction); Object Created (GetItem, HEAD, a transaction);
  // the verdict (GetItem, GET, PUT of the copy, a transaction, DELETE): S3 calls counted at 20 ms each.
  const waitingMs = [
    (rt.QueryCommand ?? 5) + (rt.TransactWriteItemsCommand ?? 12),
    (rt.GetItemCommand ?? 4) + 20 + (rt.TransactWriteItemsCommand ?? 12),
    (rt.GetItemCommand ?? 4) + 60 + (rt.TransactWriteItemsCommand ?? 12),
  ];
  const billedMs = waitingMs.reduce((sum, ms, index) => sum + Math.ceil(ms + (index === 2 ? checkMs * stretch : 2 * stretch)), 0);
  const parts = {
    'S3 requests': FILES * ((2 * prices.s3_per_thousand_put_post_requests!) / 1000 + (3 * prices.s3_per_thousand_get_requests!) / 1000),
    'S3 storage (a month)': gb * prices.s3_standard_per_gb_month!,
    'GuardDuty objects': (FILES / 1000) * prices.guardduty_s3_malware_per_thousand_objects!,
    'GuardDuty GB scanned': gb * prices.guardduty_s3_malware_per_gb_scanned!,
    'Lambda (3 calls a file)':
      FILES * (3 * (prices.lambda_per_million_requests! / 1e6) + (billedMs / 1000) * (memoryMb / 1024) * prices.lambda_arm64_per_gb_second!),
    // Per file about 10 write units (the file and its count, each move) and 4 read units.
    DynamoDB: FILES * ((10 * prices.dynamodb_per_million_write_request_units!) / 1e6 + (4 * prices.dynamodb_per_million_read_request_units!) / 1e6),
  };
  const total = Object.values(parts).reduce((sum, dollars) => sum + dollars, 0);
  const share = Object.entries(parts)
    .sort(([, a], [, b]) => b - a)
    .map(([part, dollars]) => `${part} $${dollars.toFixed(4)}`)
    .join(', ');
  record({
    subject: `evidence: ${FILES.toLocaleString('en')} files of 1 MiB, uploaded, scanned, checked, kept a month`,
    figure: `$${total.toFixed(2)} (${share})`,
    goal: 'reported',
    ok: true,
  });
}
