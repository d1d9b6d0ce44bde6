import { DeleteCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { openLedger } from '../../scripts/migrations.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FUNCTIONS } from '#shared/platform/functions.js';
import type { StreamWindowEvent } from '#shared/platform/dynamo/stream-events.js';
import { localClient } from '../../scripts/local/local-stack.js';
import { startStreamPump } from '../../scripts/local/local-streams.js';
import { describeDifference, reconcile } from '../../scripts/reconcile.js';
import { decide, fileClaim, sessionToken, asOperator } from '../../test/support/claims.js';
import { cartItems, quoteFor, startService, uniqueOrderNumber, type Service } from '../../test/support/service.js';
import { financeClaims, publishTermsVersion } from '../../test/support/terms.js';

/**
 * The ledger and the statements from the main table's stream: exact over hundreds of concurrent
 * checkouts, changes, voids, cancels and claims, however often and in whatever pieces the stream
 * gives its records again; in the month of the change itself; closed statements stay as they were.
 */
let service: Service;
let handler: (event: StreamWindowEvent) => Promise<unknown>;
beforeAll(async () => {
  service = await startService();
  ({ handler } = await import('./handler.js'));
});
afterAll(() => service.stop());
afterEach(() => vi.useRealTimers());

const get = (clientId: string, path: string, query?: Record<string, string>) =>
  service.call('ledger-read', {
    method: 'GET',
    path,
    clientId,
    ...(query ? { query } : {}),
    ...(path.includes('/statements/') ? { pathParameters: { period: path.split('/').at(-1)! } } : {}),
  });

/** Every entry of a client's month, through the API's pages. */
async function allEntries(clientId: string, period: string) {
  const entries: {
    id: string;
    type: string;
    amount: string;
    currency: string;
    policy_number: string | null;
    claim_id: string | null;
    commission: string | null;
  }[] = [];
  let cursor: string | undefined;
  do {
    const res = await get(clientId, '/api/v2/ledger', { period, limit: '100', ...(cursor ? { cursor } : {}) });
    expect(res.status, res.body).toBe(200);
    entries.push(...res.json.data);
    cursor = res.json.next_cursor ?? undefined;
  } while (cursor);
  return entries;
}

/** The whole main stream again, from its oldest record, to the ledger consumer, in batches of `batchSize` (as shard `shardId`, when given). */
async function redeliver(batchSize: number, shardId?: string) {
  const pump = await startStreamPump({
    dynamo: localClient(service.tables.endpoint),
    endpoint: service.tables.endpoint,
    tableName: service.tables.main,
    handler: shardId ? (event: StreamWindowEvent) => handler({ ...event, shardId }) : handler,
    filter: FUNCTIONS['ledger-record'].stream,
    autoPoll: false,
    batchSize,
  });
  await pump.drain();
  await pump.stop();
}

const sum = (amounts: string[]) => amounts.reduce((total, amount) => total + BigInt(amount.replace('.', '')), 0n);

describe('the ledger', () => {
  it('agrees with the policies, the claims, the remittances and the statement after 300 concurrent moves, with the stream given again whole and in overlapping pieces', async () => {
    const shop = await service.newClient('Ledger Shop');
    const clientId = shop.client_id;
    // Terms with a commission that rounds (15%, half-up in each currency's minor unit) and a band by days to the event.
    await publishTermsVersion(service, clientId, { rate_bands: [{ up_to_days: 30, rate: '0.11' }, { rate: '0.085' }], commission_rate: '0.15' });
    const items = cartItems('40.00', '25.00');
    const quote = await quoteFor(service, shop.public_key, items);
    const yenItems = cartItems('1234', '5000');
    const yenQuote = await quoteFor(service, shop.public_key, yenItems, 'JPY');
    // A quote sells one order: each opt-in redeems a quote of its own, made up front (16 at a time).
    const optIns = new Map<number, string>();
    for (let from = 0; from < 160; from += 16)
      await Promise.all(
        Array.from({ length: 16 }, (_, k) => from + k)
          .filter((i) => i % 5 !== 0)
          .map(async (i) =>
            optIns.set(i, (i % 2 ? await quoteFor(service, shop.public_key, items) : await quoteFor(service, shop.public_key, yenItems, 'JPY')).tokens.opt_in),
          ),
      );
    const place = (i: number) =>
      service.call('orders-create', {
        method: 'POST',
        path: '/api/v2/orders',
        clientId,
        headers: i % 4 === 0 ? { 'idempotency-key': `ledger-${i}` } : {},
        body: {
          token: i % 5 === 0 ? (i % 2 ? quote.tokens.opt_out : yenQuote.tokens.opt_out) : optIns.get(i),
          order_number: `LEDGER-${i}`,
          currency: i % 2 ? 'USD' : 'JPY',
          items: i % 2 ? items : yenItems,
          customer: { email: 'ledger@example.org' },
        },
      });
    // 160 checkouts, 40 of them sent twice (a replay under the same key, or the same number again).
    const first = await Promise.all(Array.from({ length: 160 }, (_, i) => place(i)));
    const again = await Promise.all(Array.from({ length: 40 }, (_, i) => place(i * 4)));
    expect(first.filter((res) => res.status !== 201 && res.status !== 204).map((res) => res.body)).toEqual([]);
    expect(again.every((res) => [201, 204, 409].includes(res.status))).toBe(true);
    const orders = first.filter((res) => res.status === 201).map((res) => res.json);
    await service.drainStreams(); // part of the work reaches the ledger before the rest happens

    // 100 more moves at once: upgrades, downgrades, voids, cancels, order voids and cancels.
    const moves = orders.slice(0, 100).map((order: any, i: number) => {
      const id = order.service_order_id as string;
      const policy = order.policies[1].policy_number as string;
      const yen = order.currency === 'JPY';
      switch (i % 5) {
        case 0:
          return service.call('orders-change', {
            method: 'PATCH',
            path: `/api/v2/orders/${id}`,
            pathParameters: { id },
            clientId,
            body: { items: [{ name: 'Up', old_reference_number: 'seat-1', reference_number: 'seat-1b', cost: yen ? '2000' : '55.55' }] },
          });
        case 1:
          return service.call('orders-change', {
            method: 'PATCH',
            path: `/api/v2/orders/${id}`,
            pathParameters: { id },
            clientId,
            body: { items: [{ name: 'Down', old_reference_number: 'seat-1', reference_number: 'seat-1b', cost: yen ? '999' : '10.01' }] },
          });
        case 2:
          return service.call('policies-settle', {
            method: 'POST',
            path: `/api/v2/policies/${policy}/void`,
            pathParameters: { policy_number: policy, action: 'void' },
            clientId,
          });
        case 3:
          return service.call('policies-settle', {
            method: 'POST',
            path: `/api/v2/policies/${policy}/cancel`,
            pathParameters: { policy_number: policy, action: 'cancel' },
            clientId,
          });
        default:
          return service.call('orders-cancel', {
            method: 'POST',
            path: `/api/v2/orders/${id}/cancel`,
            pathParameters: { id },
            clientId,
            body: { mode: i % 2 ? 'void' : 'cancel' },
          });
      }
    });
    // With them, the merchant's payments as finance records them: 20 references, 5 of them sent again with the same body.
    const today = new Date().toISOString().slice(0, 10);
    const remit = (i: number) =>
      service.call('admin-collections', {
        method: 'POST',
        path: `/api/v2/admin/clients/${clientId}/remittances`,
        pathParameters: { id: clientId },
        staffClaims: financeClaims,
        body: { currency: i % 2 ? 'USD' : 'JPY', amount: i % 2 ? `${i}.0${i % 10}` : String(1000 + i), reference: `REMIT-${i}`, received_on: today },
      });
    const [moved, remitted] = await Promise.all([
      Promise.all(moves),
      Promise.all([...Array.from({ length: 20 }, (_, i) => remit(i)), ...[0, 3, 8, 11, 19].map(remit)]),
    ]);
    expect(moved.map((res) => res.status).filter((status) => status !== 200)).toEqual([]);
    expect(remitted.map((res) => res.status).filter((status) => status !== 201)).toEqual([]);

    // Claims on 20 orders still untouched: approved, half of them paid.
    for (const order of orders.slice(100, 120)) {
      const token = await sessionToken(service, { clientId, publicKey: shop.public_key }, { order_number: order.order_number, email: 'ledger@example.org' });
      const claim = await fileClaim(service, token, { policy_numbers: [order.policies[0].policy_number] });
      expect(claim.status, claim.body).toBe(201);
      const approved = await decide(service, claim.json.claim_id, { decision: 'approve' });
      expect(approved.status, approved.body).toBe(200);
      if (orders.indexOf(order) % 2) {
        const paid = await asOperator(service, 'POST', `/api/v2/admin/claims/${claim.json.claim_id}/paid`, { payout_reference: `PAY-${order.order_number}` });
        expect(paid.status, paid.body).toBe(200);
      }
    }
    await service.drainStreams();
    const period = new Date().toISOString().slice(0, 7);
    const once = await allEntries(clientId, period);

    // The stream again, whole, then twice at once in batches of other sizes (overlapping, out of phase).
    await redeliver(1000);
    await Promise.all([redeliver(7), redeliver(13)]);
    const entries = await allEntries(clientId, period);
    expect(entries).toEqual(once);
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(entries.length);

    // Every policy issued at checkout once (the 40 repeats added none), every change and void once.
    const byType = (type: string) => entries.filter((entry) => entry.type === type);
    const policiesSold = orders.length * 2;
    expect(byType('premium_written')).toHaveLength(policiesSold);
    expect(byType('premium_adjusted')).toHaveLength(40);
    expect(byType('claim_approved')).toHaveLength(20);
    expect(byType('claim_paid')).toHaveLength(10);
    const voids = moved.filter((_, i) => i % 5 === 2).length + moved.filter((_res, i) => i % 5 === 4 && i % 2 === 1).length * 2;
    expect(byType('premium_refunded')).toHaveLength(voids);
    expect(byType('remittance_received')).toHaveLength(20); // the 5 sent again counted once
    // Commission is 15% of each premium, half-up, on every premium entry; a void returns exactly what was written.
    const commissionOf = (entry: { amount: string; commission?: string | null }) => sum([entry.commission ?? '0']);
    for (const entry of byType('premium_written')) expect(commissionOf(entry), entry.id).toBe((sum([entry.amount]) * 15n + 50n) / 100n);
    for (const entry of byType('premium_refunded')) {
      const written = byType('premium_written').find((other) => other.policy_number === entry.policy_number);
      const adjusted = byType('premium_adjusted').find((other) => other.policy_number === entry.policy_number);
      expect(commissionOf(entry), entry.id).toBe(-commissionOf((written ?? adjusted)!));
    }

    // The statement is the sum of the entries, per currency.
    const statement = await get(clientId, `/api/v2/statements/${period}`);
    expect(statement.json).toMatchObject({ period, status: 'open' });
    for (const figures of statement.json.currencies) {
      const mine = entries.filter((entry) => entry.currency === figures.currency);
      const of = (type: string) => sum(mine.filter((entry) => entry.type === type).map((entry) => entry.amount));
      expect(sum([figures.premiums_written]), figures.currency).toBe(of('premium_written'));
      expect(sum([figures.premium_adjustments]), figures.currency).toBe(of('premium_adjusted'));
      expect(-sum([figures.premiums_refunded]), figures.currency).toBe(of('premium_refunded'));
      expect(sum([figures.net_premium]), figures.currency).toBe(of('premium_written') + of('premium_adjusted') + of('premium_refunded'));
      expect(sum([figures.claims_approved]), figures.currency).toBe(of('claim_approved'));
      expect(sum([figures.claims_paid]), figures.currency).toBe(of('claim_paid'));
      expect(figures.policies_issued).toBe(mine.filter((entry) => entry.type === 'premium_written' || entry.type === 'premium_adjusted').length);
      const commission = mine.filter((entry) => entry.type.startsWith('premium_')).reduce((total, entry) => total + commissionOf(entry), 0n);
      expect(sum([figures.commission]), figures.currency).toBe(commission);
      expect(sum([figures.amount_due]), figures.currency).toBe(sum([figures.net_premium]) - commission);
      expect(sum([figures.remitted]), figures.currency).toBe(of('remittance_received'));
      expect(sum([figures.opening_balance]), figures.currency).toBe(0n);
      expect(sum([figures.closing_balance]), figures.currency).toBe(sum([figures.amount_due]) - of('remittance_received'));
    }
    expect(statement.json.currencies.map((c: any) => c.currency)).toEqual(['JPY', 'USD']);

    // And npm run reconcile finds the books in agreement with the policies and claims.
    const differences = await reconcile(service.tables.doc, service.tables.main);
    expect(differences.filter((d) => d.client_id === clientId).map(describeDifference)).toEqual([]);
  }, 180_000); // about 45 s alone on 2 cores, about twice that beside another suite (CI)

  it('sums a statement exactly past 2^53 minor units (a month of IDR claims), and keeps a record per currency and day', async () => {
    const { DynamoLedgerStore } = await import('#shared/ledger/dynamo-ledger-store.js');
    const store = new DynamoLedgerStore(service.tables.doc, service.tables.main);
    const shop = await service.newClient('Huge Shop');
    const period = new Date().toISOString().slice(0, 7);
    const figures = {
      premiums_written: 0,
      premium_adjustments: 0,
      premiums_refunded: 0,
      claims_approved: 6_000_000_000_000_000,
      claims_paid: 0,
      policies_issued: 0,
      policies_voided: 0,
      commission: 0,
      remitted: 0,
    };
    for (const [day, position] of [
      [`${period}-01`, '01'],
      [`${period}-02`, '02'],
    ] as const) {
      await store.addToStatement('shard-x', { client_id: shop.client_id, period, currency: 'IDR', day, entries: [{ position, figures }] });
    }
    const statement = await get(shop.client_id, `/api/v2/statements/${period}`);
    expect(statement.status, statement.body).toBe(200);
    expect(statement.json.currencies[0]).toMatchObject({ currency: 'IDR', claims_approved: '120000000000000.00' }); // 1.2e16 minor units, exactly
    // A statement takes no query: a filter it cannot apply is refused, not answered as if it applied (an outsider's `?client_id=`).
    const filtered = await get(shop.client_id, `/api/v2/statements/${period}`, { client_id: 'cl_AAAAAAAAAAAAAAAAAAAAAAAA' });
    expect([filtered.status, filtered.json.error.code, filtered.json.error.param]).toEqual([422, 'validation_failed', 'client_id']);
  });

  it('opens the books on data from before the ledger: npm run migrate writes its entries and statements once, and the stream meeting those changes again counts none twice', async () => {
    const shop = await service.newClient('Old Books Shop');
    const clientId = shop.client_id;
    const place = async (currency: string, costs: string[]) => {
      const res = await service.call('orders-create', {
        method: 'POST',
        path: '/api/v2/orders',
        clientId,
        body: { order_number: uniqueOrderNumber('old'), currency, items: cartItems(...costs), customer: { email: 'old@example.org' } },
      });
      expect(res.status, res.body).toBe(201);
      return res.json;
    };
    const usd = await place('USD', ['120.00', '35.50']);
    const jpy = await place('JPY', ['1234', '5000']);
    const up = await service.call('orders-change', {
      method: 'PATCH',
      path: `/api/v2/orders/${jpy.service_order_id}`,
      pathParameters: { id: jpy.service_order_id },
      clientId,
      body: { items: [{ name: 'Up', old_reference_number: 'seat-1', reference_number: 'seat-1b', cost: '2000' }] },
    });
    expect(up.status).toBe(200);
    const voidPolicy = async (policy: string) =>
      expect(
        (
          await service.call('policies-settle', {
            method: 'POST',
            path: `/api/v2/policies/${policy}/void`,
            pathParameters: { policy_number: policy, action: 'void' },
            clientId,
          })
        ).status,
      ).toBe(200);
    await voidPolicy(usd.policies[1].policy_number);
    const token = await sessionToken(service, { clientId, publicKey: shop.public_key }, { order_number: usd.order_number, email: 'old@example.org' });
    const claim = await fileClaim(service, token, { policy_numbers: [usd.policies[0].policy_number] });
    expect((await decide(service, claim.json.claim_id, { decision: 'approve', amount: '100.00' })).status).toBe(200);
    expect((await asOperator(service, 'POST', `/api/v2/admin/claims/${claim.json.claim_id}/paid`, { payout_reference: 'PAY-OLD' })).status).toBe(200);
    await service.drainStreams();
    const period = new Date().toISOString().slice(0, 7);
    const statementOf = async () => (await get(clientId, `/api/v2/statements/${period}`)).json;
    const before = { entries: await allEntries(clientId, period), statement: await statementOf() };
    expect(before.entries.map((entry) => entry.type).sort()).toEqual([
      'claim_approved',
      'claim_paid',
      'premium_adjusted',
      'premium_refunded',
      'premium_written',
      'premium_written',
      'premium_written',
      'premium_written',
    ]);
    expect((await reconcile(service.tables.doc, service.tables.main)).filter((d) => d.client_id === clientId)).toEqual([]);

    // What a table written before the ledger looks like: the same policies and claims, no entries, no statements.
    const { Items = [] } = await service.tables.doc.send(new ScanCommand({ TableName: service.tables.main }));
    const ledgerRecord = (r: Record<string, unknown>) =>
      ['LEDGER#', 'LEDGER_ENTRY#', 'STATEMENT#', 'CLAIMS#'].some((kind) => String(r.PK).startsWith(`CLIENT#${clientId}#${kind}`)) ||
      (String(r.PK).startsWith('LEDGER#') && r.SK === `CLIENT#${clientId}`);
    const marks = Items.filter((r) => r.entity === 'ledger_client' || r.entity === 'claim_activity').filter(ledgerRecord);
    expect(marks.map((r) => `${r.PK}/${r.SK}`).sort()).toEqual([
      `CLIENT#${clientId}#CLAIMS#${period}/CLAIM#${claim.json.claim_id}`,
      `LEDGER#${period}/CLIENT#${clientId}`,
    ]);
    for (const item of Items.filter(ledgerRecord)) {
      await service.tables.doc.send(new DeleteCommand({ TableName: service.tables.main, Key: { PK: item.PK, SK: item.SK } }));
    }
    expect((await reconcile(service.tables.doc, service.tables.main)).filter((d) => d.client_id === clientId).length).toBeGreaterThan(0);

    const first = await openLedger(service.tables.doc, service.tables);
    expect(first.entries).toBe(8); // every other client's entries are there already: only this client's are written
    expect(await openLedger(service.tables.doc, service.tables)).toEqual({ entries: 0 });
    // The marks the bordereaux find the month's clients and claims by are back too.
    const { Items: after = [] } = await service.tables.doc.send(new ScanCommand({ TableName: service.tables.main }));
    expect(
      after
        .filter((r) => r.entity === 'ledger_client' || r.entity === 'claim_activity')
        .filter(ledgerRecord)
        .map((r) => `${r.PK}/${r.SK}`)
        .sort(),
    ).toEqual(marks.map((r) => `${r.PK}/${r.SK}`).sort());
    expect(await allEntries(clientId, period)).toEqual(before.entries);
    expect(await statementOf()).toEqual(before.statement);
    expect((await reconcile(service.tables.doc, service.tables.main)).filter((d) => d.client_id === clientId)).toEqual([]);

    // The first deployment of the ledger meets those changes on the stream again (no watermark yet): it counts none of them twice.
    await redeliver(1000, 'first-deployment');
    expect(await statementOf()).toEqual(before.statement);
    expect(await allEntries(clientId, period)).toEqual(before.entries);

    // A move after the opening is counted once, by the stream.
    await voidPolicy(jpy.policies[1].policy_number);
    await service.drainStreams();
    const jpyBefore = before.statement.currencies.find((c: any) => c.currency === 'JPY');
    expect((await statementOf()).currencies.find((c: any) => c.currency === 'JPY')).toMatchObject({
      premiums_refunded: '425',
      policies_voided: jpyBefore.policies_voided + 1,
    });
    expect((await reconcile(service.tables.doc, service.tables.main)).filter((d) => d.client_id === clientId)).toEqual([]);
  }, 180_000); // it reads the whole stream again: about 36 s beside another suite

  it('npm run reconcile names the client, the currency and the difference when the books disagree', async () => {
    const shop = await service.newClient('Planted Shop');
    const res = await service.call('orders-create', {
      method: 'POST',
      path: '/api/v2/orders',
      clientId: shop.client_id,
      body: { order_number: uniqueOrderNumber('plant'), currency: 'KWD', items: cartItems('12.345') },
    });
    await service.drainStreams();
    expect((await reconcile(service.tables.doc, service.tables.main)).filter((d) => d.client_id === shop.client_id)).toEqual([]);
    // A policy's premium changed behind the ledger's back.
    const id = res.json.service_order_id as string;
    await service.tables.doc.send(
      new UpdateCommand({
        TableName: service.tables.main,
        Key: { PK: `CLIENT#${shop.client_id}#ORDER#${id}`, SK: 'ITEM#seat-1' },
        UpdateExpression: 'SET #p.premium = :p',
        ExpressionAttributeNames: { '#p': 'policy' },
        ExpressionAttributeValues: { ':p': 1_000 },
      }),
    );
    const differences = (await reconcile(service.tables.doc, service.tables.main)).filter((d) => d.client_id === shop.client_id);
    expect(differences.map(describeDifference)).toEqual([`${shop.client_id} KWD premium: ledger 1.049, records 1.000, difference 0.049`]);

    // A statement that drifted from its entries is named too (figure by figure).
    const period = new Date().toISOString().slice(0, 7);
    const { Items = [] } = await service.tables.doc.send(new ScanCommand({ TableName: service.tables.main }));
    const statement = Items.find((r) => String(r.PK) === `CLIENT#${shop.client_id}#STATEMENT#${period}`)!;
    await service.tables.doc.send(
      new UpdateCommand({
        TableName: service.tables.main,
        Key: { PK: statement.PK, SK: statement.SK },
        UpdateExpression: 'ADD premiums_written :one, policies_issued :one',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
    expect((await reconcile(service.tables.doc, service.tables.main)).filter((d) => d.client_id === shop.client_id).map(describeDifference)).toEqual([
      `${shop.client_id} KWD premium: ledger 1.049, records 1.000, difference 0.049`,
      `${shop.client_id} KWD statement ${period} policies_issued: entries 1, statement 2, difference -1`,
      `${shop.client_id} KWD statement ${period} premiums_written: ledger 1.049, statement 1.050, difference -0.001`,
    ]);
  });

  it('puts a change at 23:59:59.999 UTC on the last day in its own month although its entry is written after midnight, and a closed statement never changes', async () => {
    const shop = await service.newClient('Midnight Shop');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-30T23:59:59.999Z'));
    const sold = await service.call('orders-create', {
      method: 'POST',
      path: '/api/v2/orders',
      clientId: shop.client_id,
      body: { order_number: uniqueOrderNumber('midnight'), currency: 'USD', items: cartItems('100.00') },
    });
    expect(sold.status).toBe(201);
    vi.setSystemTime(new Date('2026-12-01T00:00:02.000Z'));
    await service.drainStreams(); // the entry is written in December
    expect((await allEntries(shop.client_id, '2026-11')).map((e) => [e.type, e.amount])).toEqual([['premium_written', '8.50']]);
    expect(await allEntries(shop.client_id, '2026-12')).toEqual([]);
    const november = await get(shop.client_id, '/api/v2/statements/2026-11');
    expect(november.json).toMatchObject({ status: 'open', currencies: [{ currency: 'USD', premiums_written: '8.50', policies_issued: 1 }] });

    // After 00:00 UTC on 5 December November is closed; a void in December lands in December.
    vi.setSystemTime(new Date('2026-12-05T00:00:00.000Z'));
    const policy = sold.json.policies[0].policy_number as string;
    expect(
      (
        await service.call('policies-settle', {
          method: 'POST',
          path: `/api/v2/policies/${policy}/void`,
          pathParameters: { policy_number: policy, action: 'void' },
          clientId: shop.client_id,
        })
      ).status,
    ).toBe(200);
    await service.drainStreams();
    const closed = await get(shop.client_id, '/api/v2/statements/2026-11');
    expect(closed.json).toEqual({ ...november.json, status: 'closed' });
    expect((await get(shop.client_id, '/api/v2/statements/2026-12')).json).toMatchObject({
      status: 'open',
      currencies: [{ currency: 'USD', premiums_refunded: '8.50', net_premium: '-8.50', policies_voided: 1 }],
    });
    expect((await get(shop.client_id, '/api/v2/statements/2027-01')).json.error).toMatchObject({ code: 'validation_failed', param: 'period' });
    expect((await get(shop.client_id, '/api/v2/statements/2026-13')).status).toBe(422);
    // A closed month with nothing in it owes nothing: paid.
    expect((await get(shop.client_id, '/api/v2/statements/2026-10')).json).toEqual({
      period: '2026-10',
      status: 'paid',
      due_date: '2026-11-15',
      currencies: [],
    });
  });
});
