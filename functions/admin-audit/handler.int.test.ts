import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoClaimStore } from '#shared/claims/dynamo-claim-store.js';
import { DynamoExportStore } from '#shared/bordereaux/dynamo-export-store.js';
import { auditRecordOf, type AuditRecord } from '#shared/identity/index.js';
import type { StaffIdentity } from '#shared/platform/staff.js';
import { claimShop, fileClaim, protectedOrder, sessionToken } from '../../test/support/claims.js';
import { startService, type Service } from '../../test/support/service.js';

/**
 * Issue 37: every staff action keeps who did it, in the change's own transaction, and the admin
 * reads the log newest first. Over the real handlers and stores on DynamoDB Local.
 */
let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.stop());

const ann = { sub: 'u-ann', email: 'ann@insurer.example', token_use: 'access', 'cognito:groups': ['claims'] };
const admin = { sub: 'u-ada', email: 'ada@insurer.example', token_use: 'access', 'cognito:groups': ['admin'] };
const auditPage = (query?: Record<string, string>) =>
  service.call('admin-audit', { method: 'GET', path: '/api/v2/admin/audit', staffClaims: admin, ...(query ? { query } : {}) });
const auditRecords = async () => (await service.scanBoth()).filter((record) => record.entity === 'audit');

async function submittedClaim() {
  const shop = await claimShop(service);
  const order = await protectedOrder(service, shop, ['40.00']);
  const token = await sessionToken(service, shop, order);
  const filed = await fileClaim(service, token, { policy_numbers: order.policies.map((p) => p.policy_number) });
  return { id: filed.json.claim_id as string, token };
}

describe('the audit log', () => {
  it('keeps a decision and a payout with who made them (subject and e-mail), and a repeat of the decision adds nothing', async () => {
    const { id } = await submittedClaim();
    const before = (await auditRecords()).length;
    const decide = () =>
      service.call('claims-admin', { method: 'POST', path: `/api/v2/admin/claims/${id}/decision`, staffClaims: ann, body: { decision: 'approve' } });
    expect((await decide()).status).toBe(200);
    expect((await decide()).status).toBe(200); // the same decision again: answered as it is, nothing written
    const paid = await service.call('claims-admin', {
      method: 'POST',
      path: `/api/v2/admin/claims/${id}/paid`,
      operator: 'payout-script',
      body: { payout_reference: 'P-1' },
    });
    expect(paid.status).toBe(200);
    expect(await auditRecords()).toHaveLength(before + 2);

    const page = await auditPage({ limit: '2' });
    expect(page.status).toBe(200);
    expect(page.json.data).toEqual([
      expect.objectContaining({
        actor: { sub: 'payout-script', email: null },
        action: 'claim.paid',
        target: { type: 'claim', id, detail: expect.stringMatching(/^Paid \d+\.\d{2} [A-Z]{3}$/) as string },
      }),
      expect.objectContaining({
        actor: { sub: 'u-ann', email: 'ann@insurer.example' },
        action: 'claim.decided',
        target: { type: 'claim', id, detail: expect.stringMatching(/^Approved \d+\.\d{2} [A-Z]{3}$/) as string },
      }),
    ]);
    // Nothing of the customer, and no token, is in the log.
    expect(JSON.stringify(page.json)).not.toMatch(/claire|example\.org|Bearer|eyJ/i);
  });

  it('keeps an export with who started it', async () => {
    const month = new Date().toISOString().slice(0, 7);
    const finance = { sub: 'u-fin', email: 'fin@insurer.example', token_use: 'access', 'cognito:groups': ['finance'] };
    const started = await service.call('bordereaux-admin', {
      method: 'POST',
      path: '/api/v2/admin/bordereaux',
      staffClaims: finance,
      body: { period: month, kind: 'premium' },
    });
    expect(started.status).toBe(202);
    const [newest] = (await auditPage()).json.data as AuditRecord[];
    expect(newest).toMatchObject({
      actor: { email: 'fin@insurer.example' },
      action: 'bordereau.exported',
      target: { type: 'bordereau', id: started.json.export_id },
    });
  });

  it('pages newest first with a sealed cursor, and refuses a cursor of another list', async () => {
    const first = await auditPage({ limit: '1' });
    expect(first.json.has_more).toBe(true);
    const second = await auditPage({ limit: '1', cursor: first.json.next_cursor as string });
    const [a] = first.json.data as AuditRecord[];
    const [b] = second.json.data as AuditRecord[];
    expect(a!.at >= b!.at).toBe(true);
    expect(a!.audit_id).not.toBe(b!.audit_id);
    const queue = await service.call('claims-admin', { method: 'GET', path: '/api/v2/admin/claims', operator: 'x', query: { limit: '1', status: 'Paid' } });
    const foreign = queue.json.next_cursor ?? 'not-a-cursor';
    expect((await auditPage({ cursor: String(foreign) })).status).toBe(400);
  });

  it('is for the admin role only', async () => {
    const res = await service.call('admin-audit', { method: 'GET', path: '/api/v2/admin/audit', staffClaims: ann });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('forbidden_role');
  });
});

describe('a staff action and its audit record', () => {
  const actor: StaffIdentity = { sub: 'u-ann', email: 'ann@insurer.example', roles: ['claims'], kind: 'person' };
  const recordWithId = (auditId: string, at: string): AuditRecord =>
    auditRecordOf(actor, 'claim.decided', { type: 'claim', id: 'clm_x' }, new Date(at), () => auditId);

  it('are written together or not at all: a claim moved meanwhile leaves no record; a record that cannot be written leaves the claim as it was', async () => {
    const store = new DynamoClaimStore(service.tables.doc, service.tables.main);
    const { id } = await submittedClaim();
    const stored = (await store.get(id))!;
    const after = { ...stored.claim, status: 'Denied' as const, version: stored.claim.version + 1, updated: new Date().toISOString() };

    // 1. The claim changed since it was read (a stale version): neither is written.
    const stale = { ...stored.claim, version: stored.claim.version - 1 };
    const lost = recordWithId('aud_stale00000000000000000000', '2026-11-27T10:00:00.000Z');
    expect(await store.transition(stale, after, { audit: lost })).toBe(false);
    expect((await auditRecords()).some((r) => r.audit_id === lost.audit_id)).toBe(false);

    // 2. The audit record cannot be written (its key is taken): the claim does not move.
    const taken = recordWithId('aud_taken00000000000000000000', '2026-11-27T11:00:00.000Z');
    expect(await store.transition(stored.claim, after, { audit: taken })).toBe(true);
    const now = (await store.get(id))!;
    const again = { ...now.claim, status: 'Approved' as const, version: now.claim.version + 1 };
    await expect(store.transition(now.claim, again, { audit: taken })).rejects.toMatchObject({ status: 409 });
    expect((await store.get(id))!.claim.status).toBe('Denied');
    expect((await auditRecords()).filter((r) => r.audit_id === taken.audit_id)).toHaveLength(1);
  });

  it('an export whose audit record cannot be written is not started', async () => {
    const exports = new DynamoExportStore(service.tables.doc, service.tables.main);
    const taken = recordWithId('aud_export0000000000000000000', '2026-11-27T12:00:00.000Z');
    const exported = (exportId: string) => ({
      export_id: exportId,
      period: '2026-11',
      kind: 'premium' as const,
      status: 'running' as const,
      created: '',
      requested_by: 'x',
    });
    await exports.create(exported('bx_first000000000000000000'), taken);
    await expect(exports.create(exported('bx_second00000000000000000'), taken)).rejects.toThrow();
    expect(await exports.get('bx_second00000000000000000')).toBeUndefined();
    expect(await exports.get('bx_first000000000000000000')).toBeDefined();
  });
});
