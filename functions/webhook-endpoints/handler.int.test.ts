import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { signDelivery } from '#shared/webhooks/webhook-signatures.js';
import { signingSecrets, type WebhookEndpoint } from '#shared/webhooks/webhook-endpoints.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { DynamoWebhookEndpoints } from '#shared/webhooks/dynamo-webhook-endpoints.js';
import { startService, type Service } from '../../test/support/service.js';

/** /api/v2/webhook_endpoints (issue 18): registration with the URL rules, the limit of 16, rotation with a 24 h overlap. */
let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.stop());
afterEach(() => {
  vi.useRealTimers();
  delete process.env.WEBHOOK_URLS;
});

const call = (clientId: string, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) =>
  service.call('webhook-endpoints', { method, path: `/api/v2/webhook_endpoints${path}`, clientId, ...(body === undefined ? {} : { body }) });
const publicUrl = 'https://93.184.215.14/hooks';

describe('registering an endpoint', () => {
  it('answers 201 with the secret once; reads and lists never show it; delete is 204 then 404', async () => {
    const { client_id } = await service.newClient('Hooked Shop');
    const created = await call(client_id, 'POST', '', { url: publicUrl, events: ['policy.downgraded', 'policy.voided'], description: 'refunds' });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ url: publicUrl, events: ['policy.downgraded', 'policy.voided'], status: 'enabled', description: 'refunds' });
    expect(created.json.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const id = created.json.id as string;

    const read = await call(client_id, 'GET', `/${id}`);
    expect(read.status).toBe(200);
    expect(read.json).not.toHaveProperty('secret');
    const all = await call(client_id, 'GET', '');
    expect(all.json.data.map((e: { id: string }) => e.id)).toEqual([id]);
    expect(JSON.stringify(all.json)).not.toContain(created.json.secret);

    const other = await service.newClient('Other Shop');
    expect((await call(other.client_id, 'GET', `/${id}`)).status).toBe(404);
    expect((await call(other.client_id, 'DELETE', `/${id}`)).status).toBe(404);

    expect((await call(client_id, 'DELETE', `/${id}`)).status).toBe(204);
    expect((await call(client_id, 'GET', `/${id}`)).json.error.code).toBe('webhook_endpoint_not_found');
    expect((await call(client_id, 'DELETE', `/${id}`)).status).toBe(404);
    expect((await call(client_id, 'GET', '/we_notanid')).status).toBe(404);
  });

  it('defaults to every event type and refuses an unknown one or an unknown field with 422', async () => {
    const { client_id } = await service.newClient('Defaults Shop');
    expect((await call(client_id, 'POST', '', { url: publicUrl })).json.events).toContain('order.created');
    expect((await call(client_id, 'POST', '', { url: publicUrl, events: ['order.deleted'] })).status).toBe(422);
    expect((await call(client_id, 'POST', '', { url: publicUrl, secret: 'whsec_mine' })).status).toBe(422);
    expect((await call(client_id, 'POST', '', { url: publicUrl, events: [] })).status).toBe(422);
    expect((await call(client_id, 'POST', '', { url: publicUrl, description: '   ' })).json.description).toBeNull();
  });

  it('keeps at most 16 per client, also when 20 are created at once', async () => {
    const { client_id } = await service.newClient('Busy Hooks');
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => call(client_id, 'POST', '', { url: `${publicUrl}/${i}` })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(16);
    expect(answers.filter((a) => a.status === 409).map((a) => a.json.error.code)).toEqual(Array(4).fill('too_many_endpoints'));
    expect((await call(client_id, 'GET', '')).json.data).toHaveLength(16);
    const first = answers.find((a) => a.status === 201)!.json.id as string;
    expect((await call(client_id, 'DELETE', `/${first}`)).status).toBe(204);
    expect((await call(client_id, 'POST', '', { url: publicUrl })).status).toBe(201);
    expect((await call(client_id, 'POST', '', { url: publicUrl })).status).toBe(409);
  });
});

describe('the URL rules (SSRF)', () => {
  it.each([
    'http://93.184.215.14/hooks',
    'https://127.0.0.1/hooks',
    'https://localhost/hooks',
    'https://[::1]/hooks',
    'https://10.1.2.3/hooks',
    'https://192.168.0.10/hooks',
    'https://169.254.169.254/latest/meta-data/',
    'https://[fd00:ec2::254]/',
    'https://[fe80::1]/',
    'https://2130706433/',
  ])('deployed, refuses %s with 422 invalid_url', async (url) => {
    const { client_id } = await service.newClient('SSRF Shop');
    const res = await call(client_id, 'POST', '', { url });
    expect([res.status, res.json.error.code, res.json.error.param]).toEqual([422, 'invalid_url', 'url']);
    expect((await call(client_id, 'GET', '')).json.data).toEqual([]);
  });

  it('under npm start (WEBHOOK_URLS=local) also takes http://localhost and http://127.0.0.1, and still refuses other private addresses', async () => {
    process.env.WEBHOOK_URLS = 'local';
    const { client_id } = await service.newClient('Local Shop');
    expect((await call(client_id, 'POST', '', { url: 'http://localhost:4000/hooks' })).status).toBe(201);
    expect((await call(client_id, 'POST', '', { url: 'http://127.0.0.1:4000/hooks' })).status).toBe(201);
    expect((await call(client_id, 'POST', '', { url: 'http://10.0.0.1/hooks' })).json.error.code).toBe('invalid_url');
    expect((await call(client_id, 'POST', '', { url: 'https://169.254.169.254/' })).json.error.code).toBe('invalid_url');
  });
});

describe('rotating the secret', () => {
  it('signs with both secrets for 24 hours, each signature verifying with standardwebhooks; after that the old one no longer verifies', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-23T12:00:00Z'));
    const { client_id } = await service.newClient('Rotating Shop');
    const created = await call(client_id, 'POST', '', { url: publicUrl });
    const oldSecret = created.json.secret as string;
    const rotated = await call(client_id, 'POST', `/${created.json.id}/rotate_secret`);
    expect(rotated.status).toBe(200);
    const newSecret = rotated.json.secret as string;
    expect(newSecret).not.toBe(oldSecret);

    const stored = (await new DynamoWebhookEndpoints(sharedDocumentClient(), service.tables.main).get(client_id, created.json.id)) as WebhookEndpoint;
    const deliver = (at: Date) => {
      const payload = JSON.stringify({ id: 'evt_test', type: 'policy.downgraded', created: at.toISOString(), data: {} });
      return { payload, headers: signDelivery(signingSecrets(stored, at), 'evt_test', at, payload) };
    };
    const verifies = (secret: string, delivery: ReturnType<typeof deliver>) => {
      try {
        new Webhook(secret).verify(delivery.payload, delivery.headers);
        return true;
      } catch {
        return false;
      }
    };

    const during = deliver(new Date('2026-11-24T11:59:00Z')); // 23 h 59 min after the rotation
    expect(during.headers['webhook-signature'].split(' ')).toHaveLength(2);
    vi.setSystemTime(new Date('2026-11-24T11:59:00Z'));
    expect([verifies(newSecret, during), verifies(oldSecret, during)]).toEqual([true, true]);

    const after = deliver(new Date('2026-11-24T12:00:01Z'));
    expect(after.headers['webhook-signature'].split(' ')).toHaveLength(1);
    vi.setSystemTime(new Date('2026-11-24T12:00:01Z'));
    expect([verifies(newSecret, after), verifies(oldSecret, after)]).toEqual([true, false]);
  });

  it('refuses a second rotation while the first overlap runs (409 rotation_in_progress saying when), so every replaced secret signs its full 24 hours; takes no fields', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-23T12:00:00Z'));
    const { client_id } = await service.newClient('Restless Shop');
    const created = await call(client_id, 'POST', '', { url: publicUrl });
    const first = created.json.secret as string;
    expect((await call(client_id, 'POST', `/${created.json.id}/rotate_secret`)).status).toBe(200);

    vi.setSystemTime(new Date('2026-11-23T18:00:00Z')); // 6 h later: the first secret still overlaps
    const refused = await call(client_id, 'POST', `/${created.json.id}/rotate_secret`);
    expect(refused.status).toBe(409);
    expect(refused.json.error).toMatchObject({ code: 'rotation_in_progress', param: 'id' });
    expect(refused.json.error.message).toContain('2026-11-24T12:00:00.000Z');
    const stored = async () => (await new DynamoWebhookEndpoints(sharedDocumentClient(), service.tables.main).get(client_id, created.json.id))!;
    // The first secret still signs, until its full 24 hours are over.
    expect(signingSecrets(await stored(), new Date('2026-11-24T11:59:59Z'))).toContain(first);

    vi.setSystemTime(new Date('2026-11-24T12:00:01Z'));
    expect((await call(client_id, 'POST', `/${created.json.id}/rotate_secret`)).status).toBe(200);
    expect(signingSecrets(await stored(), new Date('2026-11-24T12:00:02Z'))).toHaveLength(2);
    expect(signingSecrets(await stored(), new Date('2026-11-24T12:00:02Z'))).not.toContain(first);
    expect((await call(client_id, 'POST', `/${created.json.id}/rotate_secret`, { a: 1 })).status).toBe(422);
  });

  it('is 404 for another client’s endpoint', async () => {
    const { client_id } = await service.newClient('Owner');
    const created = await call(client_id, 'POST', '', { url: publicUrl });
    const other = await service.newClient('Stranger');
    expect((await call(other.client_id, 'POST', `/${created.json.id}/rotate_secret`)).status).toBe(404);
  });
});
