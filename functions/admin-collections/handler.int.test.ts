import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuditRecord } from '#shared/identity/index.js';
import { cartItems, quoteFor, startService, uniqueOrderNumber, type Service } from '../../test/support/service.js';
import { financeClaims } from '../../test/support/terms.js';

/**
 * Issue 38: finance suspends a client's quotes and resumes them. Quotes answer 403
 * client_suspended (within the minute a container keeps a public key's client); what was sold, and
 * an order redeeming a quote made before, live on. The real handlers over DynamoDB Local.
 */
let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.stop());
afterEach(() => vi.useRealTimers());

const claimsStaff = { sub: 'u-ann', email: 'ann@insurer.example', token_use: 'access', 'cognito:groups': ['claims'] };
const act = (clientId: string, action: 'suspend' | 'resume', body?: unknown, staffClaims: Record<string, unknown> = financeClaims) =>
  service.call('admin-collections', {
    method: 'POST',
    path: `/api/v2/admin/clients/${clientId}/${action}`,
    pathParameters: { id: clientId },
    staffClaims,
    ...(body === undefined ? {} : { body }),
  });
const quote = (publicKey: string) =>
  service.call('quotes-create', {
    method: 'POST',
    path: '/api/v2/quotes',
    headers: { 'x-public-key': publicKey },
    body: { currency: 'USD', items: cartItems('30.00') },
  });
const aMinuteLater = () => vi.setSystemTime(new Date(Date.now() + 61_000));

describe('suspending a client’s quotes', () => {
  it('quotes answer 403 client_suspended within a minute; an order with an earlier quote is still sold; resume offers them again', async () => {
    const shop = await service.newClient('Suspended Arena');
    const before = await quoteFor(service, shop.public_key, cartItems('30.00'));

    const suspended = await act(shop.client_id, 'suspend', { reason: 'statement 2026-10 overdue' });
    expect(suspended.status, suspended.body).toBe(200);
    expect(suspended.json).toEqual({
      client_id: shop.client_id,
      suspended: true,
      suspended_at: expect.any(String),
      suspension_reason: 'statement 2026-10 overdue',
    });
    const again = await act(shop.client_id, 'suspend', { reason: 'another reason' });
    expect(again.json).toEqual(suspended.json); // already suspended: as it was, nothing written

    vi.useFakeTimers({ toFake: ['Date'] });
    aMinuteLater();
    const refused = await quote(shop.public_key);
    expect(refused.status).toBe(403);
    expect(refused.json.error).toMatchObject({ code: 'client_suspended' });

    // The quote made before the suspension is still redeemed: the customer accepted it.
    const sold = await service.call('orders-create', {
      method: 'POST',
      path: '/api/v2/orders',
      clientId: shop.client_id,
      body: { order_number: uniqueOrderNumber('susp'), currency: 'USD', items: cartItems('30.00'), token: before.tokens.opt_in },
    });
    expect(sold.status, sold.body).toBe(201);
    // Without a quote made before, no new protection is sold.
    const unquoted = await service.call('orders-create', {
      method: 'POST',
      path: '/api/v2/orders',
      clientId: shop.client_id,
      body: { order_number: uniqueOrderNumber('susp'), currency: 'USD', items: cartItems('30.00') },
    });
    expect(unquoted.status).toBe(403);
    expect(unquoted.json.error.code).toBe('client_suspended');

    const listed = await service.call('admin-clients', { method: 'GET', path: '/api/v2/admin/clients', staffClaims: financeClaims, query: { limit: '100' } });
    expect(listed.json.data.find((client: { client_id: string }) => client.client_id === shop.client_id)).toMatchObject({ suspended: true });

    const resumed = await act(shop.client_id, 'resume', {});
    expect(resumed.json).toEqual({ client_id: shop.client_id, suspended: false, suspended_at: null, suspension_reason: null });
    expect((await act(shop.client_id, 'resume')).json).toEqual(resumed.json);
    aMinuteLater();
    expect((await quote(shop.public_key)).status).toBe(201);

    const audit = (await service.scanBoth()).filter((record) => record.entity === 'audit') as unknown as AuditRecord[];
    expect(
      audit
        .filter((record) => record.target.id === shop.client_id)
        .map((record) => record.action)
        .sort(),
    ).toEqual(['client.resumed', 'client.suspended']);
    expect(audit.find((record) => record.action === 'client.suspended' && record.target.id === shop.client_id)!.target.detail).toBe(
      'statement 2026-10 overdue',
    );
  });

  it('of four suspensions at once one is written, with one audit record, and every caller is answered that one; likewise four resumes', async () => {
    const shop = await service.newClient('Crowded Hall');
    const records = async (action: string) =>
      (await service.scanBoth()).filter(
        (record) => record.entity === 'audit' && (record as unknown as AuditRecord).target.id === shop.client_id && record.action === action,
      );

    const suspended = await Promise.all(['W', 'X', 'Y', 'Z'].map((reason) => act(shop.client_id, 'suspend', { reason })));

    expect(suspended.map((res) => res.status)).toEqual([200, 200, 200, 200]);
    const stored = (await act(shop.client_id, 'suspend', {})).json;
    for (const res of suspended) expect(res.json).toEqual(stored);
    expect(await records('client.suspended')).toHaveLength(1);

    const resumed = await Promise.all(Array.from({ length: 4 }, () => act(shop.client_id, 'resume', {})));

    for (const res of resumed) expect([res.status, res.json.suspended]).toEqual([200, false]);
    expect(await records('client.resumed')).toHaveLength(1);
  });

  it('only finance; an unknown client is 404; a reason is at most 200 characters; resume takes no fields', async () => {
    const shop = await service.newClient('Guarded Hall');
    expect((await act(shop.client_id, 'suspend', {}, claimsStaff)).json.error.code).toBe('forbidden_role');
    expect((await act('cl_nobodyhere', 'suspend', {})).json.error.code).toBe('client_not_found');
    expect((await act('not-a-client', 'resume', {})).status).toBe(404);
    const long = await act(shop.client_id, 'suspend', { reason: 'x'.repeat(201) });
    expect(long.status).toBe(422);
    expect(long.json.error.param).toBe('reason');
    expect((await act(shop.client_id, 'resume', { reason: 'x' })).status).toBe(422);
    expect((await act(shop.client_id, 'suspend', { why: 'x' })).status).toBe(422);
    expect((await act(shop.client_id, 'suspend', { reason: 'a\u0000b' })).json.error).toMatchObject({ code: 'validation_failed', param: 'reason' });
    expect((await quote(shop.public_key)).status).toBe(201); // nothing was suspended
  });
});

const remittancesPath = (clientId: string) => `/api/v2/admin/clients/${clientId}/remittances`;
const remit = (clientId: string, body: unknown) =>
  service.call('admin-collections', { method: 'POST', path: remittancesPath(clientId), pathParameters: { id: clientId }, staffClaims: financeClaims, body });

describe('a client’s remittances', () => {
  it('finance lists a client’s remittances a page at a time: limit 1 and 2, each once, newest first, through sealed cursors', async () => {
    const shop = await service.newClient('Paging Remitter');
    const today = new Date().toISOString().slice(0, 10);
    const recorded = [];
    for (const n of [1, 2, 3]) {
      const res = await remit(shop.client_id, { currency: 'USD', amount: `${n}.00`, reference: `PAGE-${n}`, received_on: today });
      expect(res.status, res.body).toBe(201);
      recorded.push(res.json);
    }
    for (const limit of ['1', '2']) {
      const seen: unknown[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 4; page++) {
        const listed = await service.call('admin-collections', {
          method: 'GET',
          path: remittancesPath(shop.client_id),
          pathParameters: { id: shop.client_id },
          staffClaims: financeClaims,
          query: { limit, ...(cursor ? { cursor } : {}) },
        });
        expect(listed.status, listed.body).toBe(200);
        seen.push(...(listed.json.data as unknown[]));
        if (!listed.json.has_more) break;
        cursor = listed.json.next_cursor as string;
      }
      expect(seen, `limit ${limit}`).toEqual([...recorded].reverse());
    }
  });
});
