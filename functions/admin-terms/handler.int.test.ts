import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clientKey, publicKeyKey } from '#shared/platform/dynamo/keys.js';
import type { AuditRecord } from '#shared/identity/index.js';
import { startService, type Service } from '../../test/support/service.js';

/**
 * Issue 38: finance publishes versions of a client's terms; nothing is ever edited. The real
 * handler over DynamoDB Local.
 */
let service: Service;
const finance = { sub: 'u-fay', email: 'fay@insurer.example', token_use: 'access', 'cognito:groups': ['finance'] };
const claims = { sub: 'u-ann', email: 'ann@insurer.example', token_use: 'access', 'cognito:groups': ['claims'] };

beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.stop());
afterEach(() => vi.useRealTimers());

const path = (clientId: string) => `/api/v2/admin/clients/${clientId}/terms`;
const publish = (clientId: string, body: unknown, staffClaims: Record<string, unknown> = finance) =>
  service.call('admin-terms', { method: 'POST', path: path(clientId), pathParameters: { id: clientId }, staffClaims, body });
const list = (clientId: string, query?: Record<string, string>, staffClaims: Record<string, unknown> = finance) =>
  service.call('admin-terms', { method: 'GET', path: path(clientId), pathParameters: { id: clientId }, staffClaims, ...(query ? { query } : {}) });
const records = async () => service.scanBoth();
const audited = async () => (await records()).filter((record) => record.entity === 'audit') as unknown as AuditRecord[];
const inAMinute = () => new Date(Date.now() + 60_000).toISOString();
const body = {
  rate_bands: [{ up_to_days: 7, rate: '0.12' }, { rate: '0.085' }],
  minimum_premium: { USD: '1.00' },
  commission_rate: '0.15',
  look_period_days: 10,
};

describe('a new client', () => {
  it('has version 1 from its rate and look period, in force since its creation, with no commission', async () => {
    const shop = await service.newClient('Venue');
    const res = await list(shop.client_id);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      data: [
        {
          version: 1,
          effective_from: expect.any(String),
          rate_bands: [{ rate: '0.085' }],
          minimum_premium: {},
          commission_rate: '0',
          look_period_days: 14,
          created: expect.any(String),
          created_by: 'set-up',
        },
      ],
      in_force: 1,
      has_more: false,
      next_cursor: null,
    });
  });
});

describe('POST /api/v2/admin/clients/{id}/terms', () => {
  it('publishes the next version, in force at once by default, with its audit record; the first version is untouched', async () => {
    const shop = await service.newClient('Arena');
    const before = (await list(shop.client_id)).json.data[0];
    const res = await publish(shop.client_id, body);
    expect(res.status).toBe(201);
    expect(res.json).toEqual({
      version: 2,
      effective_from: expect.any(String),
      rate_bands: [{ up_to_days: 7, rate: '0.12' }, { rate: '0.085' }],
      minimum_premium: { USD: '1.00' },
      commission_rate: '0.15',
      look_period_days: 10,
      created: res.json.effective_from,
      created_by: 'fay@insurer.example',
    });
    const listed = await list(shop.client_id);
    expect(listed.json.in_force).toBe(2);
    expect(listed.json.data.map((version: { version: number }) => version.version)).toEqual([2, 1]);
    expect(listed.json.data[1]).toEqual(before);
    expect((await audited()).filter((record) => record.target.id === shop.client_id)).toEqual([
      expect.objectContaining({
        action: 'terms.published',
        actor: { sub: 'u-fay', email: 'fay@insurer.example' },
        target: { type: 'client', id: shop.client_id, detail: 'version 2' },
      }),
    ]);
    // The quotes' record of the client (its public key) carries the version in force, without who published it.
    const { Item } = await service.tables.doc.send(new GetCommand({ TableName: service.tables.main, Key: publicKeyKey(shop.public_key) }));
    expect((Item!.terms_live as { version: number }[]).map((version) => version.version)).toEqual([2]);
    expect(JSON.stringify(Item)).not.toContain('fay@');
  });

  it('schedules a version for later: the one in force stays until then, a version for now replaces it meanwhile, and the scheduled one still comes', async () => {
    const shop = await service.newClient('Hall');
    const later = inAMinute();
    const scheduled = await publish(shop.client_id, { ...body, effective_from: later });
    expect([scheduled.status, scheduled.json.effective_from]).toEqual([201, later]);
    expect((await list(shop.client_id)).json.in_force).toBe(1);
    const meanwhile = await publish(shop.client_id, { ...body, commission_rate: '0.2' });
    expect([meanwhile.status, meanwhile.json.version]).toEqual([201, 3]);
    expect((await list(shop.client_id)).json.in_force).toBe(3);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse(later));
    expect((await list(shop.client_id)).json.in_force).toBe(2);
  });

  it('refuses the past, a time more than a year ahead, bad bands and amounts, naming the field; writes nothing', async () => {
    const shop = await service.newClient('Club');
    const count = async () => (await records()).filter((record) => record.entity === 'terms' || record.entity === 'audit').length;
    const before = await count();
    const refused = async (changes: Record<string, unknown>, param: string) => {
      const res = await publish(shop.client_id, { ...body, ...changes });
      expect([res.status, res.json.error.code, res.json.error.param], JSON.stringify(changes)).toEqual([422, 'validation_failed', param]);
    };
    await refused({ effective_from: '2026-01-01' }, 'effective_from');
    await refused({ effective_from: new Date(Date.now() - 5 * 60_000).toISOString() }, 'effective_from');
    await refused({ effective_from: new Date(Date.now() + 400 * 86_400_000).toISOString() }, 'effective_from');
    await refused({ effective_from: '2027-02-30' }, 'effective_from');
    await refused({ rate_bands: [{ up_to_days: 30, rate: '0.1' }, { up_to_days: 7, rate: '0.1' }, { rate: '0.1' }] }, 'rate_bands[1].up_to_days');
    await refused({ rate_bands: [{ rate: '0' }] }, 'rate_bands[0].rate');
    await refused({ commission_rate: 0.15 }, 'commission_rate');
    await refused({ minimum_premium: { USD: '1.001' } }, 'minimum_premium');
    await refused({ look_period_days: -1 }, 'look_period_days');
    await refused({ version: 7 }, 'version');
    expect(await count()).toBe(before);
  });

  it('gives two publishes at once two numbers, each version whole', async () => {
    const shop = await service.newClient('Stadium');
    const results = await Promise.all([publish(shop.client_id, body), publish(shop.client_id, { ...body, commission_rate: '0.2' })]);
    expect(results.map((res) => res.status)).toEqual([201, 201]);
    expect(results.map((res) => res.json.version).sort()).toEqual([2, 3]);
    const listed = (await list(shop.client_id)).json;
    expect(listed.data.map((version: { version: number }) => version.version)).toEqual([3, 2, 1]);
    expect(listed.in_force).toBe(3);
  });

  it('keeps at most five versions waiting', async () => {
    const shop = await service.newClient('Theatre');
    for (let i = 0; i < 5; i++)
      expect((await publish(shop.client_id, { ...body, effective_from: new Date(Date.now() + (i + 1) * 86_400_000).toISOString() })).status).toBe(201);
    const full = await publish(shop.client_id, { ...body, effective_from: new Date(Date.now() + 10 * 86_400_000).toISOString() });
    expect([full.status, full.json.error.code]).toEqual([409, 'terms_schedule_full']);
  });

  it('answers 404 for an unknown client or an id that cannot be one, 409 for a client from before versions, 403 for another role', async () => {
    expect((await publish('cl_AAAAAAAAAAAAAAAAAAAAAAAA', body)).json.error.code).toBe('client_not_found');
    expect((await list('../CLIENTS', undefined)).json.error.code).toBe('client_not_found');
    const old = await service.newClient('Old');
    await service.tables.doc.send(
      new UpdateCommand({ TableName: service.tables.main, Key: clientKey(old.client_id), UpdateExpression: 'REMOVE terms_latest, terms_live' }),
    );
    const unmigrated = await publish(old.client_id, body);
    expect([unmigrated.status, unmigrated.json.error.code]).toEqual([409, 'terms_not_migrated']);
    const other = await publish(old.client_id, body, claims);
    expect([other.status, other.json.error.code]).toEqual([403, 'forbidden_role']);
    expect((await list(old.client_id, undefined, claims)).json.error.code).toBe('forbidden_role');
  });
});

describe('GET /api/v2/admin/clients/{id}/terms', () => {
  it('pages newest first with a cursor sealed for that client only', async () => {
    const shop = await service.newClient('Pavilion');
    for (let i = 0; i < 3; i++) await publish(shop.client_id, body);
    const first = await list(shop.client_id, { limit: '2' });
    expect(first.json.data.map((version: { version: number }) => version.version)).toEqual([4, 3]);
    expect(first.json.has_more).toBe(true);
    const second = await list(shop.client_id, { limit: '2', cursor: first.json.next_cursor });
    expect(second.json.data.map((version: { version: number }) => version.version)).toEqual([2, 1]);
    const other = await service.newClient('Elsewhere');
    const stolen = await list(other.client_id, { limit: '2', cursor: first.json.next_cursor });
    expect([stolen.status, stolen.json.error.code]).toEqual([400, 'invalid_cursor']);
  });
});

describe('a preview before publishing', () => {
  it('prices sample tickets under the version in force and the proposed one, writing nothing', async () => {
    const shop = await service.newClient('Preview Venue');
    const rows = (await records()).length;
    const res = await service.call('admin-terms', {
      method: 'POST',
      path: `${path(shop.client_id)}/preview`,
      pathParameters: { id: shop.client_id },
      staffClaims: finance,
      query: { currency: 'JPY' },
      body,
    });
    expect(res.status, res.body).toBe(200);
    expect(res.json.currency).toBe('JPY');
    expect(res.json.in_force).toBe(1);
    // 100 JPY: version 1 at 8.5% → 9 (8.5 half-up), no commission; the proposal 12% within 7 days, else 8.5%, 15% commission.
    const inForce = { rate: '0.085', premium: '9', commission: '0', priced_by: 'rate' };
    const sample = (days: number | null, rate: string, premium: string, commission: string) => ({
      days_to_event: days,
      cost: '100',
      in_force: inForce,
      proposed: { rate, premium, commission, priced_by: 'rate' },
    });
    expect(res.json.samples).toEqual([
      sample(1, '0.12', '12', '2'),
      sample(7, '0.12', '12', '2'),
      sample(30, '0.085', '9', '1'),
      sample(90, '0.085', '9', '1'),
      sample(null, '0.085', '9', '1'),
    ]);
    // A minimum above what the rate gives sets the premium, and a premium never exceeds the cost: the preview says which.
    const proposedWithMinimum = async (yen: string) =>
      (
        await service.call('admin-terms', {
          method: 'POST',
          path: `${path(shop.client_id)}/preview`,
          pathParameters: { id: shop.client_id },
          staffClaims: finance,
          query: { currency: 'JPY' },
          body: { ...body, rate_bands: [{ rate: '0.085' }], minimum_premium: { JPY: yen } },
        })
      ).json.samples[0].proposed;
    expect(await proposedWithMinimum('20')).toMatchObject({ rate: '0.085', premium: '20', priced_by: 'minimum' });
    expect(await proposedWithMinimum('150')).toMatchObject({ premium: '100', priced_by: 'cost' });
    expect((await records()).length).toBe(rows);
    const bad = await service.call('admin-terms', {
      method: 'POST',
      path: `${path(shop.client_id)}/preview`,
      pathParameters: { id: shop.client_id },
      staffClaims: finance,
      body: { ...body, commission_rate: '1.5' },
    });
    expect(bad.json.error).toMatchObject({ code: 'validation_failed', param: 'commission_rate' });
    for (const effective_from of ['2020-01-01', '2099-01-01']) {
      const refused = await service.call('admin-terms', {
        method: 'POST',
        path: `${path(shop.client_id)}/preview`,
        pathParameters: { id: shop.client_id },
        staffClaims: finance,
        body: { ...body, effective_from },
      });
      expect(refused.json.error, effective_from).toMatchObject({ code: 'validation_failed', param: 'effective_from' }); // as a publish would
    }
    const other = await service.call('admin-terms', {
      method: 'POST',
      path: `${path(shop.client_id)}/preview`,
      pathParameters: { id: shop.client_id },
      staffClaims: claims,
      body,
    });
    expect(other.json.error.code).toBe('forbidden_role');
  });
});

describe('a publish with an Idempotency-Key', () => {
  it('answers a retry with the version the first published, publishes nothing more, and refuses the key for another body', async () => {
    const shop = await service.newClient('Retrying Venue');
    const send = (extra: Record<string, unknown> = {}) =>
      service.call('admin-terms', {
        method: 'POST',
        path: path(shop.client_id),
        pathParameters: { id: shop.client_id },
        staffClaims: finance,
        headers: { 'idempotency-key': 'publish-once' },
        body: { ...body, ...extra },
      });
    const first = await send();
    expect(first.status, first.body).toBe(201);
    const again = await send();
    expect(again.status).toBe(201);
    expect(again.json).toEqual(first.json);
    expect((await send({ look_period_days: 3 })).json.error.code).toBe('idempotency_key_reused');
    expect((await list(shop.client_id)).json.data.map((version: { version: number }) => version.version)).toEqual([2, 1]);
  });
});
