import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientRegisterKey } from '#shared/platform/dynamo/keys.js';
import { registerClients } from '../../scripts/migrations.js';
import { startService, type Service } from '../../test/support/service.js';

/** Issue 37: the console's read-only list of merchants, for every staff role, from the register of clients. */
let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.stop());

const staff = (group: string) => ({ sub: `u-${group}`, token_use: 'access', 'cognito:groups': [group] });
const list = (group: string, query?: Record<string, string>) =>
  service.call('admin-clients', { method: 'GET', path: '/api/v2/admin/clients', staffClaims: staff(group), ...(query ? { query } : {}) });
type Listed = { client_id: string; name: string; mode: string; rate: string; disabled: boolean };

async function everyClient(group = 'claims'): Promise<Listed[]> {
  const all: Listed[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const res = await list(group, { limit: '2', ...(cursor ? { cursor } : {}) });
    expect(res.status).toBe(200);
    all.push(...(res.json.data as Listed[]));
    if (!res.json.has_more) return all;
    cursor = res.json.next_cursor as string;
  }
  throw new Error('more than 20 pages');
}

describe('GET /api/v2/admin/clients', () => {
  it('lists every client with its terms and state, a page at a time, and never a key or a secret', async () => {
    const made = [
      await service.newClient('Alpha Tickets', 85_000),
      await service.newClient('Beta Venue', 50_000, 'live'),
      await service.newClient('Gamma Live'),
    ];
    const listed = await everyClient();
    for (const client of made) expect(listed.some((c) => c.client_id === client.client_id)).toBe(true);
    expect(listed.find((c) => c.name === 'Alpha Tickets')).toMatchObject({ mode: 'test', rate: '0.085', disabled: false });
    expect(listed.find((c) => c.name === 'Beta Venue')).toMatchObject({ mode: 'live', rate: '0.05' });
    // The terms in force beside the base rate: every band (here one) and the commission.
    expect(listed.find((c) => c.name === 'Alpha Tickets')).toMatchObject({ rate_bands: [{ rate: '0.085' }], commission_rate: '0' });
    const body = JSON.stringify(listed);
    for (const client of made) {
      expect(body).not.toContain(client.secret_key);
      expect(body).not.toContain(client.public_key);
    }
    expect(body).not.toMatch(/secret_hash|key_generation/);
  });

  it('is for every staff role, not for a merchant user', async () => {
    for (const group of ['claims', 'finance', 'admin']) expect((await list(group)).status).toBe(200);
    const merchant = await service.call('admin-clients', {
      method: 'GET',
      path: '/api/v2/admin/clients',
      staffClaims: { ...staff('merchant'), merchant_client_id: 'cl_x' },
    });
    expect(merchant.status).toBe(403);
  });

  it('lists a client created before the register once npm run migrate gave it its place (twice: nothing more)', async () => {
    const old = await service.newClient('Old Client');
    await service.tables.doc.send(new DeleteCommand({ TableName: service.tables.main, Key: clientRegisterKey(old.client_id) }));
    expect((await everyClient()).some((c) => c.client_id === old.client_id)).toBe(false);
    expect((await registerClients(service.tables.doc, service.tables)).clients).toBe(1);
    expect((await registerClients(service.tables.doc, service.tables)).clients).toBe(0);
    expect((await everyClient()).some((c) => c.client_id === old.client_id)).toBe(true);
  });
});
