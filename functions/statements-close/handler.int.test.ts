import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoLedgerStore } from '#shared/ledger/dynamo-ledger-store.js';
import { DynamoCollectionsStore } from '#shared/ledger/dynamo-collections-store.js';
import { accountOf, closeStatements, readStatement } from '#shared/ledger/statements.js';
import { recordRemittance } from '#shared/ledger/record-remittance.js';
import { reverseRemittance } from '#shared/ledger/reverse-remittance.js';
import { RecordRemittanceRequest } from '#shared/ledger/schemas.js';
import { nextPeriod } from '#shared/ledger/collections.js';
import { newAuditId } from '#shared/identity/index.js';
import * as v from 'valibot';
import { reconcile } from '../../scripts/reconcile.js';
import { startReceiver, type Receiver } from '../../test/support/receiver.js';
import { cartItems, startService, uniqueOrderNumber, type Service } from '../../test/support/service.js';
import { financeClaims, publishTermsVersion } from '../../test/support/terms.js';

/**
 * Issue 38, collections: a merchant's month of sales under a 10% commission, part paid in the
 * month; a moved clock closes the month on the 5th (statement.closed, once), makes it overdue after
 * the 15th with a balance (statement.overdue, once), and a remittance after that makes it paid.
 * Real handlers, DynamoDB Local's stream through the real ledger and webhook consumers.
 */
process.env.WEBHOOK_URLS = 'local';

let service: Service;
let receiver: Receiver;
let collections: DynamoCollectionsStore;
beforeAll(async () => {
  service = await startService();
  receiver = await startReceiver();
  collections = new DynamoCollectionsStore(service.tables.doc, service.tables.main, new DynamoLedgerStore(service.tables.doc, service.tables.main));
});
afterAll(async () => {
  await service.stop();
  await receiver.stop();
});

const claimsStaff = { sub: 'u-ann', email: 'ann@insurer.example', token_use: 'access', 'cognito:groups': ['claims'] };
const remittancesPath = (clientId: string) => `/api/v2/admin/clients/${clientId}/remittances`;
const remit = (clientId: string, body: unknown, staffClaims: Record<string, unknown> = financeClaims) =>
  service.call('admin-collections', { method: 'POST', path: remittancesPath(clientId), pathParameters: { id: clientId }, staffClaims, body });
const clock = (at: string) => ({ now: () => new Date(at) });
const eventsOf = (type: string) => receiver.received.map((delivery) => JSON.parse(delivery.body)).filter((body) => body.type === type);

describe('a month of a merchant with a 10% commission', () => {
  const month = new Date().toISOString().slice(0, 7);
  const next = nextPeriod(month);
  let clientId: string;

  it('the open statement shows commission, amount due, remitted and the balance as they happen', async () => {
    const shop = await service.newClient('Collections Hall');
    clientId = shop.client_id;
    await publishTermsVersion(service, clientId, { rate_bands: [{ rate: '0.1' }], commission_rate: '0.1' });
    const endpoint = await service.call('webhook-endpoints', {
      method: 'POST',
      path: '/api/v2/webhook_endpoints',
      clientId,
      body: { url: receiver.url, events: ['statement.closed', 'statement.overdue'] },
    });
    expect(endpoint.status).toBe(201);
    for (const cost of ['40.00', '25.55']) {
      const res = await service.call('orders-create', {
        method: 'POST',
        path: '/api/v2/orders',
        clientId,
        body: { order_number: uniqueOrderNumber('col'), currency: 'USD', items: cartItems(cost), customer: { email: 'ada@example.org' } },
      });
      expect(res.status).toBe(201);
    }
    await service.drainStreams();
    const statement = await service.call('ledger-read', { method: 'GET', path: `/api/v2/statements/${month}`, pathParameters: { period: month }, clientId });
    expect(statement.status).toBe(200);
    // Premiums 4.00 + 2.56 (2.555 half-up) = 6.56; commission 0.40 + 0.26 = 0.66; due 5.90.
    expect(statement.json).toMatchObject({ period: month, status: 'open', due_date: `${next}-15` });
    expect(statement.json.currencies).toEqual([
      expect.objectContaining({
        currency: 'USD',
        net_premium: '6.56',
        commission: '0.66',
        amount_due: '5.90',
        remitted: '0.00',
        opening_balance: '0.00',
        closing_balance: '5.90',
        policies_issued: 2,
      }),
    ]);
  });

  it('finance records a part payment once by its reference; another body under it is 409; other roles get 403', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const body = { currency: 'USD', amount: '2.00', reference: 'BANK-REF 0001', received_on: today };
    const first = await remit(clientId, body);
    expect(first.status, first.body).toBe(201);
    expect(first.json).toMatchObject({ reference: 'BANK-REF 0001', currency: 'USD', amount: '2.00', received_on: today });
    const again = await remit(clientId, body);
    expect(again.status).toBe(201);
    expect(again.json).toEqual(first.json);
    const other = await remit(clientId, { ...body, amount: '2.01' });
    expect(other.status).toBe(409);
    expect(other.json.error).toMatchObject({ code: 'remittance_reference_used', param: 'reference' });
    expect((await remit(clientId, body, claimsStaff)).json.error.code).toBe('forbidden_role');
    const audit = (await service.scanBoth()).filter((record) => record.entity === 'audit' && (record.target as { id: string }).id === clientId);
    expect(audit.filter((record) => record.action === 'remittance.recorded').map((record) => (record.target as { detail: string }).detail)).toEqual([
      '2.00 USD, reference BANK-REF 0001',
    ]); // once: the replay wrote none
    for (const [bad, param] of [
      [{ ...body, reference: 'X-2', amount: '0.00' }, 'amount'],
      [{ ...body, reference: 'X-3', amount: '1.001' }, 'amount'],
      [{ ...body, reference: ' padded' }, 'reference'],
      [{ ...body, reference: 'X-4', received_on: '2999-01-01' }, 'received_on'],
      [{ ...body, reference: 'X-5', currency: 'XAU' }, 'currency'],
    ] as const) {
      const res = await remit(clientId, bad);
      expect(res.status, JSON.stringify(bad)).toBe(422);
      expect(res.json.error.param).toBe(param);
    }
    expect((await remit('cl_nobodyhere', { ...body, reference: 'X-6' })).status).toBe(404);

    await service.drainStreams();
    const listed = await service.call('admin-collections', {
      method: 'GET',
      path: remittancesPath(clientId),
      pathParameters: { id: clientId },
      staffClaims: financeClaims,
    });
    expect(listed.json.data).toEqual([first.json]);
    const ledger = await service.call('ledger-read', { method: 'GET', path: '/api/v2/ledger', clientId, query: { type: 'remittance_received' } });
    expect(ledger.json.data).toEqual([
      expect.objectContaining({ id: first.json.ledger_entry_id, amount: '2.00', reference: 'BANK-REF 0001', service_order_id: null, commission: null }),
    ]);
    const statement = await service.call('admin-collections', {
      method: 'GET',
      path: `/api/v2/admin/clients/${clientId}/statements/${month}`,
      pathParameters: { id: clientId, period: month },
      staffClaims: financeClaims,
    });
    expect(statement.json.currencies[0]).toMatchObject({ amount_due: '5.90', remitted: '2.00', closing_balance: '3.90' });
  });

  it('a moved clock closes the month on the 5th, once: statement.closed with the balance owed', async () => {
    const before = { collections, clock: clock(`${next}-04T23:59:59.000Z`) };
    expect((await closeStatements(before)).closed).toBe(0);
    const onThe5th = { collections, clock: clock(`${next}-05T00:30:00.000Z`) };
    expect(await closeStatements(onThe5th)).toMatchObject({ closed: 1, overdue: 0, paid: 0 });
    expect((await closeStatements(onThe5th)).closed).toBe(0); // run again: nothing twice
    const statement = await readStatement(onThe5th, clientId, month);
    expect(statement.status).toBe('closed');
    await service.drainStreams();
    await service.drainStreams();
    const closed = eventsOf('statement.closed');
    expect(closed).toHaveLength(1);
    expect(closed[0].data).toEqual({
      period: month,
      due_date: `${next}-15`,
      currencies: [{ currency: 'USD', opening_balance: '0.00', closing_balance: '3.90' }],
    });
  });

  it('after the due date with a balance it is overdue, once; a remittance after that makes it paid', async () => {
    const onThe15th = { collections, clock: clock(`${next}-15T23:00:00.000Z`) };
    expect((await closeStatements(onThe15th)).overdue).toBe(0); // due on the 15th: not yet overdue
    const onThe16th = { collections, clock: clock(`${next}-16T00:30:00.000Z`) };
    expect(await closeStatements(onThe16th)).toMatchObject({ closed: 0, overdue: 1 });
    expect((await closeStatements(onThe16th)).overdue).toBe(0);
    expect((await readStatement(onThe16th, clientId, month)).status).toBe('overdue');
    await service.drainStreams();
    expect(eventsOf('statement.overdue')).toHaveLength(1);
    // The console's merchants list: what it owes now and the month it is overdue on.
    expect(await accountOf(collections, clientId, onThe16th.clock.now())).toEqual({ balances: [{ currency: 'USD', balance: 390n }], overdue: [month] });

    // The merchant pays the rest on the 16th: booked in the next month; the closed month is paid, read at once.
    const request = v.parse(RecordRemittanceRequest, { currency: 'USD', amount: '3.90', reference: 'BANK-REF 0002', received_on: `${next}-16` });
    await recordRemittance({ collections, now: onThe16th.clock.now, newAuditId }, { sub: 'u-finance', roles: ['finance'], kind: 'script' }, clientId, request);
    await service.drainStreams();
    expect((await readStatement(onThe16th, clientId, month)).status).toBe('paid');
    expect(await accountOf(collections, clientId, onThe16th.clock.now())).toEqual({ balances: [{ currency: 'USD', balance: 0n }], overdue: [] });
    const following = await readStatement(onThe16th, clientId, next);
    expect(following.currencies).toEqual([expect.objectContaining({ currency: 'USD', opening_balance: 390n, closing_balance: 0n })]);
    expect(following.currencies[0]!.figures.remitted).toBe(390n);
    expect(await closeStatements(onThe16th)).toMatchObject({ paid: 1, overdue: 0 });
    await service.drainStreams();
    expect(eventsOf('statement.overdue')).toHaveLength(1);
    expect(eventsOf('statement.closed')).toHaveLength(1);
    // The ledger agrees with the policies and the remittances recorded; statements with the entries.
    expect((await reconcile(service.tables.doc, service.tables.main)).filter((d) => d.client_id === clientId)).toEqual([]);
  });

  it('the payment bounces: reversed on the 17th, the paid month stays paid and the next month owes it again', async () => {
    const onThe17th = { collections, clock: clock(`${next}-17T09:00:00.000Z`) };
    const finance = { sub: 'u-finance', roles: ['finance'], kind: 'script' } as const;
    const reversed = await reverseRemittance({ collections, now: onThe17th.clock.now, newAuditId }, finance, clientId, {
      reference: 'BANK-REF 0002',
      reason: 'returned by the bank: account closed',
    });
    expect(reversed.reversal).toEqual({ at: `${next}-17T09:00:00.000Z`, reason: 'returned by the bank: account closed' });
    await service.drainStreams();
    expect((await readStatement(onThe17th, clientId, month)).status).toBe('paid'); // for good: a closed month keeps what it said
    const following = await readStatement(onThe17th, clientId, next);
    expect(following.currencies[0]!.figures.remitted).toBe(0n); // 3.90 received, 3.90 reversed
    expect(following.currencies[0]).toMatchObject({ opening_balance: 390n, closing_balance: 390n });
    expect(await accountOf(collections, clientId, onThe17th.clock.now())).toEqual({ balances: [{ currency: 'USD', balance: 390n }], overdue: [] });
    expect((await reconcile(service.tables.doc, service.tables.main)).filter((d) => d.client_id === clientId)).toEqual([]);
  });
});

describe('reversing a payment (finance)', () => {
  it('marks it reversed once with its reason and audit record; the balance owes it again; again answers the same', async () => {
    const shop = await service.newClient('Bounced Transfers');
    const month = new Date().toISOString().slice(0, 7);
    const today = new Date().toISOString().slice(0, 10);
    const reverse = (body: unknown, staffClaims: Record<string, unknown> = financeClaims, id = shop.client_id) =>
      service.call('admin-collections', { method: 'POST', path: `${remittancesPath(id)}/reverse`, pathParameters: { id }, staffClaims, body });
    const paid = await remit(shop.client_id, { currency: 'EUR', amount: '120.00', reference: 'SEPA/2026/77', received_on: today });
    expect(paid.status, paid.body).toBe(201);
    expect(paid.json.reversal).toBeNull();

    const reason = 'R01 insufficient funds';
    const first = await reverse({ reference: 'SEPA/2026/77', reason });
    expect(first.status, first.body).toBe(200);
    expect(first.json).toEqual({
      ...paid.json,
      reversal: { reversed_at: expect.any(String), reason, ledger_entry_id: expect.stringMatching(/^le_/) },
    });
    expect(first.json.reversal.ledger_entry_id).not.toBe(paid.json.ledger_entry_id);
    const again = await reverse({ reference: 'SEPA/2026/77', reason: 'another reason' });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json); // already reversed: as it was, nothing written

    for (const [body, status, code] of [
      [{ reference: 'SEPA/2026/78', reason }, 404, 'remittance_not_found'],
      [{ reference: 'sepa/2026/77', reason }, 404, 'remittance_not_found'], // references are exact
      [{ reference: 'SEPA/2026/77' }, 422, 'validation_failed'],
      [{ reference: 'SEPA/2026/77', reason: '   ' }, 422, 'validation_failed'],
      [{ reference: 'SEPA/2026/77', reason: 'x'.repeat(201) }, 422, 'validation_failed'],
      [{ reference: 'SEPA/2026/77', reason: 'line\nbreak' }, 422, 'validation_failed'],
      [{ reference: 'SEPA/2026/77', reason: '\u200b\u200b' }, 422, 'validation_failed'], // nothing visible
      [{ reference: 'SEPA/2026/77', reason: 'bounced\u202e' }, 422, 'validation_failed'], // a right-to-left override
      [{ reference: 'SEPA/2026/77', reason: 'a\u2028b' }, 422, 'validation_failed'],
      [{ reference: 'SEPA/2026/77', reason, amount: '1.00' }, 422, 'validation_failed'],
    ] as const) {
      const res = await reverse(body);
      expect([res.status, res.json.error.code], JSON.stringify(body)).toEqual([status, code]);
    }
    expect((await reverse({ reference: 'SEPA/2026/77', reason }, claimsStaff)).json.error.code).toBe('forbidden_role');
    expect((await reverse({ reference: 'SEPA/2026/77', reason }, financeClaims, 'cl_nobodyhere')).status).toBe(404);
    const unknown = await reverse({ reference: 'SEPA/2026/77', reason }, financeClaims, `cl_${'A'.repeat(24)}`);
    expect([unknown.status, unknown.json.error.code, unknown.json.error.param]).toEqual([404, 'client_not_found', 'id']);
    expect((await reverse({ reference: 'SEPA/2026/77', reason: '🙂'.repeat(200) })).status).toBe(200); // 200 characters as people count them (already reversed: as it was)
    // A reversed payment's reference stays taken: recording it again says so, and the retried transfer comes under the bank's new reference.
    const again409 = await remit(shop.client_id, { currency: 'EUR', amount: '120.00', reference: 'SEPA/2026/77', received_on: today });
    expect([again409.status, again409.json.error.code, again409.json.error.param]).toEqual([409, 'remittance_reference_used', 'reference']);
    expect(again409.json.error.message).toMatch(
      /reversed on \d{4}-\d{2}-\d{2} \(R01 insufficient funds\); record the retried transfer under the bank's new reference/,
    );

    await service.drainStreams();
    const audit = (await service.scanBoth()).filter((record) => record.entity === 'audit' && (record.target as { id: string }).id === shop.client_id);
    expect(audit.filter((record) => record.action === 'remittance.reversed').map((record) => (record.target as { detail: string }).detail)).toEqual([
      `120.00 EUR, reference SEPA/2026/77: ${reason}`,
    ]);
    const ledger = await service.call('ledger-read', {
      method: 'GET',
      path: '/api/v2/ledger',
      clientId: shop.client_id,
      query: { type: 'remittance_reversed' },
    });
    expect(ledger.json.data).toEqual([
      expect.objectContaining({
        id: first.json.reversal.ledger_entry_id,
        type: 'remittance_reversed',
        amount: '-120.00',
        currency: 'EUR',
        reference: 'SEPA/2026/77',
      }),
    ]);
    const statement = await service.call('ledger-read', {
      method: 'GET',
      path: `/api/v2/statements/${month}`,
      pathParameters: { period: month },
      clientId: shop.client_id,
    });
    expect(statement.json.currencies).toEqual([expect.objectContaining({ currency: 'EUR', remitted: '0.00', closing_balance: '0.00' })]);
    const listed = await service.call('admin-collections', {
      method: 'GET',
      path: remittancesPath(shop.client_id),
      pathParameters: { id: shop.client_id },
      staffClaims: financeClaims,
    });
    expect(listed.json.data).toEqual([first.json]);
    expect((await reconcile(service.tables.doc, service.tables.main)).filter((d) => d.client_id === shop.client_id)).toEqual([]);
  });
});
