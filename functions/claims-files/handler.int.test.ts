import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { startService, type Service } from '../../test/support/service.js';
import { claimShop, fileClaim, protectedOrder, sessionToken } from '../../test/support/claims.js';
import { eicar, evidenceBucket, postUpload } from '../../test/support/evidence.js';
import { DOCTOR_NOTE, jpegWithGps, onePixelPng } from '../../test/support/evidence-files.js';

/**
 * Issue 39, evidence: files go straight to the local S3 by presigned POSTs (the guard checks the
 * signed policy as S3 does), the bucket's events go to the real evidence-check function, ClamAV
 * scans each upload, and staff open only files scanned clean. DynamoDB Local and s3rver.
 */
let service: Service;
let bucket: Awaited<ReturnType<typeof evidenceBucket>>;
let token: string;
let claimId: string;
beforeAll(async () => {
  bucket = await evidenceBucket();
  service = await startService();
  const shop = await claimShop(service, 'Evidence Hall');
  const order = await protectedOrder(service, shop, ['80.00', '40.00']);
  token = await sessionToken(service, shop, order);
  const filed = await fileClaim(service, token, { policy_numbers: [order.policies[0]!.policy_number] });
  expect(filed.status, filed.body).toBe(201);
  claimId = filed.json.claim_id;
});
afterAll(async () => {
  await service.stop();
  bucket.stop();
});

const asCustomer = (method: 'GET' | 'POST', path: string, body?: unknown, bearer = token) =>
  service.call('claims-files', {
    method,
    path,
    pathParameters: { id: path.split('/')[4]! },
    headers: { authorization: `Bearer ${bearer}` },
    ...(body === undefined ? {} : { body }),
  });
const asStaff = (path: string, roles = ['claims']) =>
  service.call('evidence-admin', {
    method: 'GET',
    path,
    pathParameters: { id: path.split('/')[5]!, ...(path.endsWith('/link') ? { file_id: path.split('/')[7]! } : {}) },
    staffClaims: { sub: 'u-cara', email: 'cara@insurer.example', token_use: 'access', 'cognito:groups': roles },
  });
const filesPath = (id = claimId) => `/api/v2/claims/${id}/files`;
/** A new shop's claim on one ticket, and its customer's request for a PDF's upload form. */
async function claimToFileOn(shopName: string) {
  const shop = await claimShop(service, shopName);
  const order = await protectedOrder(service, shop, ['30.00']);
  const bearer = await sessionToken(service, shop, order);
  const id = (await fileClaim(service, bearer, { policy_numbers: [order.policies[0]!.policy_number] })).json.claim_id as string;
  const ask = (filename: string) =>
    service.call('claims-files', {
      method: 'POST',
      path: filesPath(id),
      pathParameters: { id },
      headers: { authorization: `Bearer ${bearer}` },
      body: { filename, content_type: 'application/pdf', size: pdf.length },
    });
  /** Staff deny the claim (a decision: its evidence stands from then). */
  const deny = () =>
    service.call('claims-admin', {
      method: 'POST',
      path: `/api/v2/admin/claims/${id}/decision`,
      pathParameters: { id },
      operator: 'test-operator',
      body: { decision: 'deny', note: 'Not covered.' },
    });
  return { shop, order, id, ask, deny };
}
const ask = (filename: string, content_type: string, size: number) => asCustomer('POST', filesPath(), { filename, content_type, size });
const statusOf = async (fileId: string) =>
  ((await asCustomer('GET', filesPath())).json.data as { file_id: string; status: string; rejection: string | null }[]).find((file) => file.file_id === fileId);

const pdf = new Uint8Array(DOCTOR_NOTE);
/** Other bytes of the same size, still a PDF: what a customer might post over a judged file. */
const swappedPdf = () => {
  const swapped = new Uint8Array(pdf);
  swapped.set(new TextEncoder().encode('%PDF-1.4\nSWAPPED'), 0);
  return swapped;
};
const png = () => onePixelPng();

describe('evidence uploaded straight to S3, checked and scanned', () => {
  it('a clean PDF becomes clean and staff open it; the EICAR test file becomes infected and its bytes are gone', async () => {
    const asked = await ask('doctor-note.pdf', 'application/pdf', pdf.length);
    expect(asked.status, asked.body).toBe(201);
    expect(asked.json).toMatchObject({ status: 'awaiting_upload', filename: 'doctor-note.pdf', size: pdf.length, rejection: null });
    expect(asked.headers['cache-control']).toBe('no-store');
    const fields = asked.json.upload.fields as Record<string, string>;
    expect(fields.key).toBe(`uploads/${claimId}/${asked.json.file_id}`);
    const policy = JSON.parse(Buffer.from(fields.policy!, 'base64').toString('utf8'));
    expect(policy.conditions).toEqual(
      expect.arrayContaining([{ key: fields.key }, { 'Content-Type': 'application/pdf' }, ['content-length-range', pdf.length, pdf.length]]),
    );
    expect(Date.parse(policy.expiration) - Date.now()).toBeGreaterThan(590_000);
    expect((await postUpload(asked.json.upload, pdf)).status).toBe(204);
    await bucket.settle();
    expect(await statusOf(asked.json.file_id)).toMatchObject({ status: 'clean' });
    const link = await asStaff(`/api/v2/admin/claims/${claimId}/files/${asked.json.file_id}/link`);
    expect(link.status, link.body).toBe(200);
    const download = await fetch(link.json.url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="doctor-note.pdf"');
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(pdf);

    const virus = eicar();
    const infected = await ask('eicar.pdf', 'application/pdf', virus.length);
    expect((await postUpload(infected.json.upload, virus)).status).toBe(204);
    await bucket.settle();
    expect(await statusOf(infected.json.file_id)).toMatchObject({ status: 'infected' });
    expect(await bucket.keys(`uploads/${claimId}/${infected.json.file_id}`)).toEqual([]);
    expect(await bucket.keys(`files/${claimId}/${infected.json.file_id}`)).toEqual([]);
    const refused = await asStaff(`/api/v2/admin/claims/${claimId}/files/${infected.json.file_id}/link`);
    expect([refused.status, refused.json.error.code]).toEqual([409, 'file_not_clean']);
    // Opening a customer's file is on the record (who, which file, when); a refused link is not an opening.
    const audit = await service.call('admin-audit', {
      method: 'GET',
      path: '/api/v2/admin/audit',
      staffClaims: { sub: 'u-ada', email: 'ada@insurer.example', token_use: 'access', 'cognito:groups': ['admin'] },
    });
    const opened = (audit.json.data as { action: string; actor: unknown; target: unknown }[]).filter((record) => record.action === 'evidence.opened');
    expect(opened.map(({ actor, target }) => [actor, target])).toEqual([
      [
        { sub: 'u-cara', email: 'cara@insurer.example' },
        { type: 'claim', id: claimId, detail: asked.json.file_id },
      ],
    ]);
  });

  it('a PNG declared as a PDF is rejected; a JPEG and a PNG open without their metadata', async () => {
    const image = png();
    const liar = await ask('scan.pdf', 'application/pdf', image.length);
    expect((await postUpload(liar.json.upload, image)).status).toBe(204);
    const photo = jpegWithGps();
    const jpeg = await ask('receipt.jpg', 'image/jpeg', photo.length);
    expect((await postUpload(jpeg.json.upload, photo)).status).toBe(204);
    const honest = await ask('ticket.png', 'image/png', image.length);
    expect((await postUpload(honest.json.upload, image)).status).toBe(204);
    await bucket.settle();
    expect(await statusOf(liar.json.file_id)).toMatchObject({ status: 'rejected', rejection: 'type_mismatch' });
    for (const [file, gone] of [
      [jpeg.json.file_id, ['GPSLatitude', 'BodySerialNumber', 'trailing bytes']],
      [honest.json.file_id, ['Claire Mant']],
    ] as const) {
      expect(await statusOf(file)).toMatchObject({ status: 'clean' });
      const link = await asStaff(`/api/v2/admin/claims/${claimId}/files/${file}/link`);
      const opened = Buffer.from(await (await fetch(link.json.url)).arrayBuffer()).toString('latin1');
      for (const text of gone) expect(opened).not.toContain(text);
    }
    const opened = Buffer.from(await (await fetch((await asStaff(`/api/v2/admin/claims/${claimId}/files/${jpeg.json.file_id}/link`)).json.url)).arrayBuffer());
    expect([...opened.subarray(0, 2)]).toEqual([0xff, 0xd8]);
    expect([...opened.subarray(-2)]).toEqual([0xff, 0xd9]);
    expect(opened.includes(Buffer.from('JFIF'))).toBe(true); // what says how to read the image is kept
  });

  it('the policy holds the key, type and size; a tampered upload that got through is caught when it lands', async () => {
    const asked = await ask('note.pdf', 'application/pdf', pdf.length);
    const { upload } = asked.json;
    expect((await postUpload(upload, new Uint8Array([...pdf, 0x20]))).status).toBe(400); // one byte more than signed
    expect((await postUpload(upload, pdf, { key: `uploads/${claimId}/fi_someoneelsesfile000000` })).status).toBe(403);
    expect((await postUpload(upload, pdf, { 'Content-Type': 'image/png' })).status).toBe(403);
    expect((await postUpload(upload, pdf, { 'x-amz-signature': '0'.repeat(64) })).status).toBe(403);
    expect(await statusOf(asked.json.file_id)).toMatchObject({ status: 'awaiting_upload' });
    // An S3 that enforced no policy: bytes of another type and size land under the key all the same.
    await bucket.s3.send(new PutObjectCommand({ Bucket: bucket.bucket, Key: upload.fields.key, Body: png(), ContentType: 'image/png' }));
    await bucket.settle();
    expect(await statusOf(asked.json.file_id)).toMatchObject({ status: 'rejected', rejection: 'size_mismatch' });
    expect(await bucket.keys(upload.fields.key)).toEqual([]);
  });

  it('posted again over a clean file, it is judged again and no link serves bytes not scanned', async () => {
    const asked = await ask('letter.pdf', 'application/pdf', pdf.length);
    await postUpload(asked.json.upload, pdf);
    await bucket.settle();
    expect(await statusOf(asked.json.file_id)).toMatchObject({ status: 'clean' });
    const virus = new Uint8Array(pdf.length).fill(0x20);
    virus.set(eicar());
    await postUpload(asked.json.upload, virus);
    // Landed, not yet scanned: pending, and the clean copy before is not served any more.
    await service.call('claims-files', { method: 'GET', path: filesPath(), pathParameters: { id: claimId }, headers: { authorization: `Bearer ${token}` } });
    const { fileLanded } = await import('#shared/evidence/index.js');
    const { evidenceObjectsDeps } = await import('#shared/evidence/evidence-objects-deps.js');
    expect(await fileLanded(evidenceObjectsDeps(), asked.json.upload.fields.key)).toBe('pending');
    const link = await asStaff(`/api/v2/admin/claims/${claimId}/files/${asked.json.file_id}/link`);
    expect([link.status, link.json.error?.code]).toEqual([409, 'file_not_clean']);
    // The earlier copy is kept, never served, until the new bytes' verdict (a decision in between keeps it).
    expect(await bucket.keys(`files/${claimId}/${asked.json.file_id}/`)).toEqual([`files/${claimId}/${asked.json.file_id}/1`]);
    await bucket.settle();
    expect(await statusOf(asked.json.file_id)).toMatchObject({ status: 'infected' });
    expect(await bucket.keys(`files/${claimId}/${asked.json.file_id}/`)).toEqual([]);
  });

  it('the same bytes posted again over bytes already judged are not judged again: a double-clicked upload never leaves the file waiting', async () => {
    const { fileLanded, fileScanned } = await import('#shared/evidence/index.js');
    const { evidenceObjectsDeps } = await import('#shared/evidence/evidence-objects-deps.js');
    const asked = await ask('twice.pdf', 'application/pdf', pdf.length);
    const key = asked.json.upload.fields.key as string;
    await postUpload(asked.json.upload, pdf);
    await bucket.settle();
    expect(await statusOf(asked.json.file_id)).toMatchObject({ status: 'clean' });

    expect((await postUpload(asked.json.upload, pdf)).status).toBe(204);
    const again = await bucket.read(key);
    const told = await fileLanded(evidenceObjectsDeps(), key);
    const late = await fileScanned(evidenceObjectsDeps(), key, again!.etag, 'NO_THREATS_FOUND');

    expect([told, late]).toEqual(['ignored', 'ignored']);
    expect(await bucket.keys(key)).toEqual([]);
    expect(await statusOf(asked.json.file_id)).toMatchObject({ status: 'clean' });
    const link = await asStaff(`/api/v2/admin/claims/${claimId}/files/${asked.json.file_id}/link`);
    const served = await fetch(link.json.url);
    expect(served.headers.get('cache-control')).toBe('private, no-store'); // no cache keeps a customer's document
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(pdf);
  });

  it('bytes that landed before the decision and were judged after it change nothing: the decided claim keeps what staff could open', async () => {
    const { fileLanded } = await import('#shared/evidence/index.js');
    const { evidenceObjectsDeps } = await import('#shared/evidence/evidence-objects-deps.js');
    const { id, ask, deny } = await claimToFileOn('Swap Hall');
    const seen = await ask('note.pdf');
    const first = await ask('first.pdf');
    await postUpload(seen.json.upload, pdf);
    await bucket.settle();
    const swapped = swappedPdf();
    await postUpload(seen.json.upload, swapped);
    await postUpload(first.json.upload, pdf);
    expect(await fileLanded(evidenceObjectsDeps(), seen.json.upload.fields.key)).toBe('pending');
    expect(await fileLanded(evidenceObjectsDeps(), first.json.upload.fields.key)).toBe('pending');

    const decided = await deny();
    await bucket.settle(); // the scans' verdicts come after the decision

    expect(decided.status, decided.body).toBe(200);
    const files = (await asStaff(`/api/v2/admin/claims/${id}/files`)).json.data as { file_id: string; status: string; rejection: string | null }[];
    expect(files.map((file) => [file.file_id, file.status, file.rejection])).toEqual([
      [seen.json.file_id, 'clean', null],
      [first.json.file_id, 'rejected', 'claim_decided'],
    ]);
    const link = await asStaff(`/api/v2/admin/claims/${id}/files/${seen.json.file_id}/link`);
    expect(new Uint8Array(await (await fetch(link.json.url)).arrayBuffer())).toEqual(pdf); // what staff could open, not the swap
    expect(await bucket.keys(`uploads/${id}/`)).toEqual([]);
    expect(await bucket.keys(`files/${id}/`)).toEqual([`files/${id}/${seen.json.file_id}/1`]);
  });

  it('limits: 10 files that hold a place, 10 MiB, the claim’s own files only, staff only with the claims role', async () => {
    const current = ((await asCustomer('GET', filesPath())).json.data as { status: string }[]).filter(
      (file) => !['rejected', 'infected'].includes(file.status),
    );
    for (let n = current.length; n < 10; n++) expect((await ask(`page-${n}.pdf`, 'application/pdf', 100)).status).toBe(201);
    const eleventh = await ask('one-too-many.pdf', 'application/pdf', 100);
    expect([eleventh.status, eleventh.json.error.code]).toEqual([422, 'too_many_files']);
    for (const [body, param] of [
      [{ filename: 'big.pdf', content_type: 'application/pdf', size: 10 * 1024 * 1024 + 1 }, 'size'],
      [{ filename: 'x.gif', content_type: 'image/gif', size: 10 }, 'content_type'],
      [{ filename: '../../etc/passwd', content_type: 'application/pdf', size: 10 }, 'filename'],
      [{ filename: 'a.pdf', content_type: 'application/pdf', size: 1.5 }, 'size'],
      [{ filename: 'a.pdf', content_type: 'application/pdf', size: 10, extra: 1 }, 'extra'],
    ] as const) {
      const res = await asCustomer('POST', filesPath(), body);
      expect([res.status, res.json.error.param], JSON.stringify(body)).toEqual([422, param]);
    }
    const files = (await asCustomer('GET', filesPath())).json.data as { file_id: string }[];
    const other = `clm_${'0'.repeat(24)}`;
    expect((await asCustomer('GET', filesPath(other))).status).toBe(404);
    expect((await asStaff(`/api/v2/admin/claims/${claimId}/files/fi_${'0'.repeat(24)}/link`)).status).toBe(404);
    expect((await asStaff(`/api/v2/admin/claims/${claimId}/files/${files[0]!.file_id}/link`, ['finance'])).json.error.code).toBe('forbidden_role');
    expect((await asStaff(`/api/v2/admin/claims/${claimId}/files`)).json.data).toHaveLength(files.length);
    expect((await asCustomer('GET', filesPath(), undefined, 'not-a-token')).status).toBe(401);
  });

  it('once the claim is decided its evidence stands: bytes posted again change nothing; a POST never used is then rejected', async () => {
    const { id, ask, deny } = await claimToFileOn('Decided Hall');
    const seen = await ask('note.pdf');
    const unused = await ask('later.pdf');
    await postUpload(seen.json.upload, pdf);
    await bucket.settle();
    const decided = await deny();
    expect(decided.status, decided.body).toBe(200);
    const swapped = swappedPdf();
    expect((await postUpload(seen.json.upload, swapped)).status).toBe(204); // S3 takes it: the form is still valid
    expect((await postUpload(unused.json.upload, pdf)).status).toBe(204);
    await bucket.settle();
    const files = (await asStaff(`/api/v2/admin/claims/${id}/files`)).json.data as { file_id: string; status: string; rejection: string | null }[];
    expect(files.map((file) => [file.file_id, file.status, file.rejection])).toEqual([
      [seen.json.file_id, 'clean', null],
      [unused.json.file_id, 'rejected', 'claim_decided'],
    ]);
    const link = await asStaff(`/api/v2/admin/claims/${id}/files/${seen.json.file_id}/link`);
    expect(new Uint8Array(await (await fetch(link.json.url)).arrayBuffer())).toEqual(pdf); // what staff saw, not the swap
    expect(await bucket.keys(`uploads/${id}/`)).toEqual([]);
  });

  it('a POST that expired unused gives its place back; names are what they say, and download with their type’s extension', async () => {
    const { shop, order, id, ask } = await claimToFileOn('Expiry Hall');
    for (let n = 0; n < 10; n++) expect((await ask(`page-${n}.pdf`)).status).toBe(201);
    expect((await ask('eleventh.pdf')).json.error.code).toBe('too_many_files');
    // Fifteen minutes later the ten forms have expired unused: their places come back.
    const { requestUpload } = await import('#shared/evidence/index.js');
    const { evidenceDeps } = await import('#shared/evidence/evidence-deps.js');
    const later = { ...evidenceDeps(), now: () => new Date(Date.now() + 16 * 60_000) };
    const retried = await requestUpload(later, { clientId: shop.clientId, orderId: order.service_order_id }, id, {
      filename: 'invoice.html',
      content_type: 'application/pdf',
      size: pdf.length,
    });
    expect(retried.file.status).toBe('awaiting_upload');
    const files = (await asStaff(`/api/v2/admin/claims/${id}/files`)).json.data as { status: string; rejection: string | null }[];
    expect(files.filter((file) => file.rejection === 'upload_expired')).toHaveLength(10);
    await postUpload(retried.upload, pdf);
    await bucket.settle();
    const link = await asStaff(`/api/v2/admin/claims/${id}/files/${retried.file.file_id}/link`);
    expect((await fetch(link.json.url)).headers.get('content-disposition')).toBe('attachment; filename="invoice.html.pdf"');
    for (const name of ['invoice\u202Efdp.exe.pdf', '\u200B', '..', ' . ', 'line\u2028break.pdf']) {
      const res = await ask(name);
      expect([res.status, res.json.error.param], JSON.stringify(name)).toEqual([422, 'filename']);
    }
  });

  it('its 31st file in all is refused, naming the 30 in all, when no file holds a place any more', async () => {
    const { shop, order, id, ask } = await claimToFileOn('Thirty Hall');
    const { requestUpload } = await import('#shared/evidence/index.js');
    const { evidenceDeps } = await import('#shared/evidence/evidence-deps.js');
    const at = (minutes: number) => ({ ...evidenceDeps(), now: () => new Date(Date.now() + minutes * 60_000) });
    const request = (minutes: number, n: number) =>
      requestUpload(at(minutes), { clientId: shop.clientId, orderId: order.service_order_id }, id, {
        filename: `page-${n}.pdf`,
        content_type: 'application/pdf',
        size: pdf.length,
      });
    // Three rounds of ten, each after the round before expired unused (its places given back): 30 files in all.
    for (let round = 0; round < 3; round++) for (let n = 0; n < 10; n++) await request(round * 16, round * 10 + n);
    const now = await ask('thirty-first.pdf');
    expect([now.status, now.json.error.code, now.json.error.param]).toEqual([422, 'too_many_files', 'files']);
    expect(now.json.error.message).toContain('at most 30 files in all');
    // Later still, the last ten expired too: no file holds a place, and the claim still takes no more.
    await expect(request(3 * 16, 30)).rejects.toThrow('at most 30 files in all, rejected and infected ones included');
    const files = (await asStaff(`/api/v2/admin/claims/${id}/files`)).json.data as { status: string }[];
    expect([files.length, files.filter((file) => file.status === 'rejected').length]).toEqual([30, 30]);
  });

  it('a moved clock erases the files with the claim’s text, 90 days after it closes: hidden from then, bytes and records gone', async () => {
    const shop = await claimShop(service, 'Erasure Hall');
    const order = await protectedOrder(service, shop, ['30.00']);
    const bearer = await sessionToken(service, shop, order);
    const filed = await fileClaim(service, bearer, { policy_numbers: [order.policies[0]!.policy_number] });
    const id = filed.json.claim_id as string;
    const asked = await service.call('claims-files', {
      method: 'POST',
      path: filesPath(id),
      pathParameters: { id },
      headers: { authorization: `Bearer ${bearer}` },
      body: { filename: 'note.pdf', content_type: 'application/pdf', size: pdf.length },
    });
    await postUpload(asked.json.upload, pdf);
    await bucket.settle();
    const withdrawn = await service.call('claims-customer', {
      method: 'POST',
      path: `/api/v2/claims/${id}/withdraw`,
      pathParameters: { id },
      headers: { authorization: `Bearer ${bearer}` },
      body: {},
    });
    expect(withdrawn.status, withdrawn.body).toBe(200);
    await service.drainStreams(); // the closing noted for the eraser
    const { eraseDueEvidence, listFiles } = await import('#shared/evidence/index.js');
    const { evidenceDeps } = await import('#shared/evidence/evidence-deps.js');
    const { evidenceObjectsDeps } = await import('#shared/evidence/evidence-objects-deps.js');
    const at = (days: number) => ({ ...evidenceDeps(), ...evidenceObjectsDeps(), now: () => new Date(Date.parse(withdrawn.json.updated) + days * 86_400_000) });
    expect(await listFiles(at(89), id)).toHaveLength(1);
    expect(await eraseDueEvidence(at(89))).toEqual({ erased: 0 });
    expect(await listFiles(at(90), id)).toEqual([]); // hidden from the moment, whenever the eraser runs
    expect(await bucket.keys(`files/${id}/`)).toHaveLength(1);
    expect((await eraseDueEvidence(at(90.5))).erased).toBeGreaterThanOrEqual(1); // this claim, and others this file closed
    expect(await eraseDueEvidence(at(91))).toEqual({ erased: 0 }); // once
    expect(await bucket.keys(`files/${id}/`)).toEqual([]);
    expect(await bucket.keys(`uploads/${id}/`)).toEqual([]);
    const left = (await service.scanBoth()).filter((record) => String(record.PK).includes(id) && String(record.PK).includes('FILES'));
    expect(left).toEqual([]);
    expect(
      (
        await service.call('claims-customer', {
          method: 'GET',
          path: `/api/v2/claims/${id}`,
          pathParameters: { id },
          headers: { authorization: `Bearer ${bearer}` },
        })
      ).status,
    ).toBe(200);
  });
});
