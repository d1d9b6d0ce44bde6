import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bordereauKey } from '#shared/platform/dynamo/keys.js';
import { listBordereauExports } from '../../scripts/migrations.js';
import { startService, type Service } from '../../test/support/service.js';

/** Issue 37: the console's list of past bordereau exports (GET /api/v2/admin/bordereaux), newest first, without links. */
let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.stop());

const staff = (group: string) => ({ sub: `u-${group}`, email: `${group}@example.com`, token_use: 'access', 'cognito:groups': [group] });
const call = (method: 'GET' | 'POST', query?: Record<string, string>, body?: unknown, group = 'finance') =>
  service.call('bordereaux-admin', {
    method,
    path: '/api/v2/admin/bordereaux',
    staffClaims: staff(group),
    ...(query ? { query } : {}),
    ...(body === undefined ? {} : { body }),
  });
type Listed = { export_id: string; period: string; kind: string; status: string; created: string; rows: number | null; requested_by: string };

/** Every export the list shows, `limit` a page, following the cursors (20 pages at most). */
async function everyExport(limit: string): Promise<{ exports: Listed[]; pages: number }> {
  const exports: Listed[] = [];
  let cursor: string | undefined;
  for (let pages = 1; pages <= 20; pages++) {
    const res = await call('GET', { limit, ...(cursor ? { cursor } : {}) });
    expect(res.status, res.body).toBe(200);
    exports.push(...(res.json.data as Listed[]));
    if (!res.json.has_more) {
      expect(res.json.next_cursor).toBeNull();
      return { exports, pages };
    }
    cursor = res.json.next_cursor as string;
  }
  throw new Error('more than 20 pages');
}

async function start(period: string, kind: 'premium' | 'claims'): Promise<Listed> {
  const res = await call('POST', undefined, { period, kind });
  expect(res.status, res.body).toBe(202);
  return res.json as Listed;
}

describe('GET /api/v2/admin/bordereaux', () => {
  it('lists the exports newest first, a page at a time, each as GET of one shows it without its link, with who started it', async () => {
    const started = [await start('2026-01', 'premium'), await start('2026-02', 'claims'), await start('2026-03', 'premium')];
    const { exports, pages } = await everyExport('2');
    expect(pages).toBeGreaterThanOrEqual(2);
    const mine = exports.filter((listed) => started.some((s) => s.export_id === listed.export_id));
    const newestFirst = [...started].sort((a, b) => `${b.created}#${b.export_id}`.localeCompare(`${a.created}#${a.export_id}`));
    expect(mine.map((listed) => listed.export_id)).toEqual(newestFirst.map((s) => s.export_id));
    expect(mine.find((listed) => listed.export_id === started[1]!.export_id)).toEqual({
      export_id: started[1]!.export_id,
      period: '2026-02',
      period_status: 'closed',
      kind: 'claims',
      status: 'running',
      created: started[1]!.created,
      finished: null,
      rows: null,
      failure: null,
      requested_by: 'finance@example.com',
    });
    for (const listed of exports) expect(listed).not.toHaveProperty('url');
    // Every export once, across the pages.
    expect(new Set(exports.map((listed) => listed.export_id)).size).toBe(exports.length);
  });

  it('refuses a cursor it did not make, and is for the finance role only', async () => {
    const forged = await call('GET', { cursor: 'bm90LWEtY3Vyc29y' });
    expect(forged.status).toBe(400);
    expect(forged.json.error.param).toBe('cursor');
    const refused = await call('GET', undefined, undefined, 'claims');
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('forbidden_role');
  });

  it('lists an export made before the list once npm run migrate gave it its place (twice: nothing more)', async () => {
    const old = await start('2026-04', 'claims');
    await service.tables.doc.send(
      new UpdateCommand({ TableName: service.tables.main, Key: bordereauKey(old.export_id), UpdateExpression: 'REMOVE blist_key, blist_sort' }),
    );
    const listed = async () => (await everyExport('100')).exports.some((e) => e.export_id === old.export_id);
    expect(await listed()).toBe(false); // what an upgrade without the migration looks like
    expect(await listBordereauExports(service.tables.doc, service.tables)).toEqual({ exports: 1 });
    expect(await listBordereauExports(service.tables.doc, service.tables)).toEqual({ exports: 0 });
    expect(await listed()).toBe(true);
    // GET of one reads it as before, and the list's attributes never show.
    const one = await service.call('bordereaux-admin', {
      method: 'GET',
      path: `/api/v2/admin/bordereaux/${old.export_id}`,
      pathParameters: { export_id: old.export_id },
      staffClaims: staff('finance'),
    });
    expect(one.status).toBe(200);
    expect(one.body).not.toMatch(/blist/);
  });
});
