import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { disableClient } from '#shared/clients/manage-clients.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { readStaffFile, writeStaffFile, type AuditRecord } from '#shared/identity/index.js';
import { captureLogs } from '../../test/support/logs.js';
import { startService, type Service } from '../../test/support/service.js';

/**
 * Issue 37: the admin gives people a sign-in from the console. The real handler over DynamoDB Local
 * with npm start's directory (the local provider's file, STAFF_FILE); the Cognito adapter is held
 * against a stubbed Cognito client in shared/identity/staff-directory.test.ts.
 */
let service: Service;
const dir = mkdtempSync(join(tmpdir(), 'admin-staff-'));
const staffFile = join(dir, 'staff.json');
const admin = { sub: 'u-ada', email: 'ada@insurer.example', token_use: 'access', 'cognito:groups': ['admin'] };
const claims = { sub: 'u-ann', email: 'ann@insurer.example', token_use: 'access', 'cognito:groups': ['claims'] };

beforeAll(async () => {
  service = await startService();
  delete process.env.STAFF_USER_POOL_ID;
  process.env.STAFF_FILE = staffFile;
  await writeStaffFile(staffFile, {
    issuer: 'http://127.0.0.1:1',
    client_id: 'order-protection-pages',
    redirect_uri: 'http://localhost/admin/',
    portal_redirect_uri: 'http://localhost/portal/',
    users: [{ sub: 'u-ada', email: 'ada@insurer.example', password: 'demo-password', groups: ['admin'] }],
  });
});
afterAll(async () => {
  await service.stop();
  rmSync(dir, { recursive: true, force: true });
});

const add = (body: unknown, staffClaims: Record<string, unknown> = admin) =>
  service.call('admin-staff', { method: 'POST', path: '/api/v2/admin/staff', staffClaims, body });
const list = (query?: Record<string, string>, staffClaims: Record<string, unknown> = admin) =>
  service.call('admin-staff', { method: 'GET', path: '/api/v2/admin/staff', staffClaims, ...(query ? { query } : {}) });
const audited = async () => (await service.scanBoth()).filter((record) => record.entity === 'audit') as unknown as AuditRecord[];
const fileUsers = async () => (await readStaffFile(staffFile)).users;

describe('POST /api/v2/admin/staff', () => {
  it('adds a person to the sign-in with the groups given: the password in the file only, never in the answer or a log; the audit record names who added them', async () => {
    const logs = captureLogs();
    const res = await add({ email: ' Nina@Insurer.example ', groups: ['claims', 'finance'] });
    vi.restoreAllMocks();
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ email: 'nina@insurer.example', groups: ['claims', 'finance'], status: 'active', invitation: 'local_file' });
    expect(res.headers['cache-control']).toBe('no-store');
    const nina = (await fileUsers()).find((user) => user.email === 'nina@insurer.example')!;
    expect(nina).toMatchObject({ groups: ['claims', 'finance'], sub: expect.any(String) });
    expect(nina.password.length).toBeGreaterThanOrEqual(16);
    expect(res.body).not.toContain(nina.password);
    expect(logs.join('')).not.toContain(nina.password);
    expect((await audited()).filter((record) => record.action === 'staff.created')).toEqual([
      expect.objectContaining({
        actor: { sub: 'u-ada', email: 'ada@insurer.example' },
        action: 'staff.created',
        target: { type: 'staff', id: 'nina@insurer.example', detail: 'claims, finance' },
      }),
    ]);
  });

  it('binds a merchant user to an existing, enabled client only', async () => {
    const shop = await service.newClient('Venue');
    const sam = await add({ email: 'sam@venue.example', groups: ['merchant'], client_id: shop.client_id });
    expect(sam.status).toBe(201);
    expect(sam.json).toMatchObject({ groups: ['merchant'], client_id: shop.client_id });
    expect((await fileUsers()).find((user) => user.email === 'sam@venue.example')).toMatchObject({ client_id: shop.client_id });

    const unknown = await add({ email: 'x@venue.example', groups: ['merchant'], client_id: 'cl_AAAAAAAAAAAAAAAAAAAAAAAA' });
    expect([unknown.status, unknown.json.error.code, unknown.json.error.param]).toEqual([422, 'validation_failed', 'client_id']);
    const closed = await service.newClient('Closed');
    await disableClient(new DynamoClientStore(service.tables.doc, service.tables.main), closed.client_id);
    const disabled = await add({ email: 'x@venue.example', groups: ['merchant'], client_id: closed.client_id });
    expect([disabled.status, disabled.json.error.param]).toEqual([422, 'client_id']);
    expect(disabled.json.error.message).toContain('disabled');
  });

  it('refuses a bad e-mail, an unknown group, a merchant without its client or with another group, and a second account for one e-mail: nobody added, no record', async () => {
    const before = { users: (await fileUsers()).length, records: (await audited()).length };
    const refused = async (body: unknown, status: number, code: string, param: string) => {
      const res = await add(body);
      expect([res.status, res.json.error.code, res.json.error.param], JSON.stringify(body)).toEqual([status, code, param]);
    };
    await refused({ email: 'not-an-address', groups: ['claims'] }, 422, 'validation_failed', 'email');
    await refused({ email: 'x@insurer.example', groups: ['root'] }, 422, 'validation_failed', 'groups');
    await refused({ email: 'x@insurer.example', groups: [] }, 422, 'validation_failed', 'groups');
    await refused({ email: 'x@venue.example', groups: ['merchant'] }, 422, 'validation_failed', 'client_id');
    await refused({ email: 'x@venue.example', groups: ['merchant', 'claims'], client_id: 'cl_AAAAAAAAAAAAAAAAAAAAAAAA' }, 422, 'validation_failed', 'groups');
    await refused({ email: 'x@insurer.example', groups: ['claims'], client_id: 'cl_AAAAAAAAAAAAAAAAAAAAAAAA' }, 422, 'validation_failed', 'client_id');
    await refused({ email: 'NINA@insurer.example', groups: ['admin'] }, 409, 'staff_user_exists', 'email');
    await refused({ email: 'x@insurer.example', groups: ['claims'], password: 'chosen' }, 422, 'validation_failed', 'password');
    expect({ users: (await fileUsers()).length, records: (await audited()).length }).toEqual(before);
  });

  it('is for the admin role only, as is the list', async () => {
    const res = await add({ email: 'y@insurer.example', groups: ['claims'] }, claims);
    expect([res.status, res.json.error.code]).toEqual([403, 'forbidden_role']);
    expect((await list(undefined, claims)).json.error.code).toBe('forbidden_role');
    expect((await fileUsers()).some((user) => user.email === 'y@insurer.example')).toBe(false);
  });
});

describe('GET /api/v2/admin/staff', () => {
  it('lists everyone with their groups and client, a page at a time with a sealed cursor, never a password', async () => {
    const first = await list({ limit: '2' });
    expect(first.status).toBe(200);
    expect(first.json.data).toEqual([
      { email: 'ada@insurer.example', groups: ['admin'], status: 'active' },
      { email: 'nina@insurer.example', groups: ['claims', 'finance'], status: 'active' },
    ]);
    expect(first.json.has_more).toBe(true);
    const second = await list({ limit: '2', cursor: first.json.next_cursor as string });
    expect(second.json.data).toEqual([{ email: 'sam@venue.example', groups: ['merchant'], client_id: expect.stringMatching(/^cl_/), status: 'active' }]);
    expect(second.json).toMatchObject({ has_more: false, next_cursor: null });
    expect(JSON.stringify([first.json, second.json])).not.toMatch(/password/);
    expect((await list({ cursor: 'not-a-cursor' })).status).toBe(400);
    expect((await list({ limit: '61' })).json.error.param).toBe('limit');
  });
});

// Last: it adds a person, which the list's test above does not expect.
describe('two adds of one e-mail at once', () => {
  it('of three adds of one e-mail at once, adds and records one; the others are 409 staff_user_exists with no record (found from outside)', async () => {
    const answers = await Promise.all(['claims', 'finance', 'admin'].map((group) => add({ email: 'race@insurer.example', groups: [group] })));

    expect(answers.map((res) => res.status).sort()).toEqual([201, 409, 409]);
    const added = answers.find((res) => res.status === 201)!.json;
    expect(answers.filter((res) => res.status === 409).every((res) => res.json.error.code === 'staff_user_exists')).toBe(true);
    const records = (await audited()).filter((record) => record.target.id === 'race@insurer.example');
    expect(records.map((record) => record.target.detail)).toEqual(added.groups);
    expect((await fileUsers()).filter((user) => user.email === 'race@insurer.example').map((user) => user.groups)).toEqual([added.groups]);
  });
});
