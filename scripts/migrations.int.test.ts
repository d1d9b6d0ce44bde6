import { DeleteCommand, PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartItems, quoteFor, startService, uniqueOrderNumber, type Service } from '../test/support/service.js';
import { decide, fileClaim, sessionToken } from '../test/support/claims.js';
import { DynamoLedgerStore } from '#shared/ledger/dynamo-ledger-store.js';
import { statementStatus } from '#shared/ledger/index.js';
import {
  amountsToMinorUnits,
  backfillVoidWindows,
  clientMonths,
  firstTermsVersions,
  migrateToShardedKeys,
  policiesTermsVersion,
  runMigrations,
} from './migrations.js';
import { DynamoTermsStore } from '#shared/terms/dynamo-terms-store.js';
import { reconcile } from './reconcile.js';

/** `npm run migrate`: records written before issue 20 get their new keys, and nothing counts twice. */
let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.stop());

const scanAll = async (TableName: string) => (await service.tables.doc.send(new ScanCommand({ TableName }))).Items ?? [];

describe('migrating a table written before the keys moved', () => {
  it('lists old orders again, refuses their order numbers again, and does not count old checkouts twice', async () => {
    const { client_id, public_key } = await service.newClient('Old Shop');
    const items = cartItems('20.00', '30.00');
    const quote = await quoteFor(service, public_key, items);
    const order = (token: string | undefined, orderNumber: string) =>
      service.call('orders-create', {
        method: 'POST',
        path: '/api/v2/orders',
        clientId: client_id,
        body: { token, order_number: orderNumber, currency: 'USD', items },
      });
    const [inNumber, outNumber] = [uniqueOrderNumber('old-in'), uniqueOrderNumber('old-out')];
    expect((await order(quote.tokens.opt_in, inNumber)).status).toBe(201);
    expect((await order(quote.tokens.opt_out, outNumber)).status).toBe(204);
    await service.drainStreams();
    const counts = async () => {
      await service.drainStreams();
      return (await service.call('metrics-conversion', { method: 'GET', path: '/api/v2/metrics/conversion', clientId: client_id })).json.totals;
    };
    const before = await counts();

    // Turn them into what the code before issue 20 wrote: unsharded list keys, checkout records under the client.
    for (const record of await scanAll(service.tables.main)) {
      if (!String(record.PK).startsWith(`CLIENT#${client_id}#ORDER#`)) continue;
      await service.tables.doc.send(
        new UpdateCommand({
          TableName: service.tables.main,
          Key: { PK: record.PK, SK: record.SK },
          UpdateExpression: record.plist_key ? 'SET list_key = :l, plist_key = :p' : 'SET list_key = :l',
          ExpressionAttributeValues: { ':l': `CLIENT#${client_id}#ORDERS`, ...(record.plist_key ? { ':p': `CLIENT#${client_id}#POLICIES` } : {}) },
        }),
      );
    }
    for (const record of (await scanAll(service.tables.metrics)).filter((r) => r.entity === 'checkout' && r.client_id === client_id)) {
      const { PK, SK, counted_by: _counted, ...fields } = record;
      await service.tables.doc.send(
        new PutCommand({ TableName: service.tables.metrics, Item: { ...fields, PK: `CLIENT#${client_id}`, SK: `ORDER#${record.order_hash}` } }),
      );
      await service.tables.doc.send(new DeleteCommand({ TableName: service.tables.metrics, Key: { PK, SK } }));
    }
    const list = async () => (await service.call('orders-list', { method: 'GET', path: '/api/v2/orders', clientId: client_id })).json.data as unknown[];
    expect(await list()).toHaveLength(0); // what an upgrade without the migration looks like

    const moved = await migrateToShardedKeys(service.tables.doc, service.tables);
    expect(moved).toEqual({ listRecords: 3, checkoutRecords: 2 });
    expect(await migrateToShardedKeys(service.tables.doc, service.tables)).toEqual({ listRecords: 0, checkoutRecords: 0 }); // again: nothing

    expect(await list()).toHaveLength(1);
    expect((await order(quote.tokens.opt_in, inNumber)).json.error.code).toBe('order_exists');
    expect((await order(quote.tokens.opt_out, outNumber)).status).toBe(204); // a repeat opt-out, logged once
    expect(await counts()).toEqual(before);
  });
});

describe('giving policies stored before issue 25 their void window', () => {
  it('sets void_until = the order’s sale + the client’s look period on each (replacements too), once, and leaves windows set at sale alone', async () => {
    const { client_id } = await service.newClient('Windowless Shop');
    const place = async () => {
      const res = await service.call('orders-create', {
        method: 'POST',
        path: '/api/v2/orders',
        clientId: client_id,
        body: { order_number: uniqueOrderNumber('nowin'), currency: 'USD', items: cartItems('20.00', '30.00') },
      });
      return res.json as { service_order_id: string; created: string; policies: { void_until: string }[] };
    };
    const old = await place();
    await service.call('orders-change', {
      method: 'PATCH',
      path: `/api/v2/orders/${old.service_order_id}`,
      clientId: client_id,
      body: { items: [{ name: 'Other seat', old_reference_number: 'seat-1', reference_number: 'seat-1b', cost: '25.00' }] },
    });
    // What the code before issue 25 wrote: policies without void_until.
    const mine = async () => (await scanAll(service.tables.main)).filter((r) => r.entity === 'item' && String(r.PK).includes(old.service_order_id));
    for (const record of await mine()) {
      await service.tables.doc.send(
        new UpdateCommand({
          TableName: service.tables.main,
          Key: { PK: record.PK, SK: record.SK },
          UpdateExpression: 'REMOVE #p.void_until',
          ExpressionAttributeNames: { '#p': 'policy' },
        }),
      );
    }
    const fresh = await place(); // sold with its window
    // The client's look period as issue 25 kept it, on its own record (versions of terms came later).
    await service.tables.doc.send(
      new UpdateCommand({
        TableName: service.tables.main,
        Key: { PK: `CLIENT#${client_id}`, SK: 'CLIENT' },
        UpdateExpression: 'SET look_period_days = :days',
        ExpressionAttributeValues: { ':days': 30 },
      }),
    );

    const first = await backfillVoidWindows(service.tables.doc, service.tables);
    const second = await backfillVoidWindows(service.tables.doc, service.tables);

    expect(first.policies).toBeGreaterThanOrEqual(3); // this order's three (other tests' tables may hold more)
    expect(second).toEqual({ policies: 0 });
    const expected = new Date(Date.parse(old.created) + 30 * 86_400_000).toISOString();
    expect((await mine()).map((r) => (r.policy as { void_until: string }).void_until)).toEqual([expected, expected, expected]);
    const read = await service.call('orders-read', { method: 'GET', path: `/api/v2/orders/${fresh.service_order_id}`, clientId: client_id });
    expect(read.json.policies.map((p: { void_until: string }) => p.void_until)).toEqual(fresh.policies.map((p) => p.void_until));
    expect(fresh.policies[0]!.void_until).toBe(new Date(Date.parse(fresh.created) + 14 * 86_400_000).toISOString());
  });
});

/**
 * Issue 27: amounts stored as hundredths whatever the currency (what the code before wrote) become
 * minor units. Rows are set to exactly what that code stored for these carts; the expected rows are
 * written out by hand.
 */
describe('rewriting amounts stored as hundredths into minor units', () => {
  type Amounts = { cost: number; premium: number; coverage: number; delta?: number; refund?: number };
  const call = (
    clientId: string,
    fn: Parameters<Service['call']>[0],
    method: 'POST' | 'PATCH' | 'GET',
    path: string,
    body?: unknown,
    pathParameters?: Record<string, string>,
  ) => service.call(fn, { method, path, clientId, ...(body ? { body } : {}), ...(pathParameters ? { pathParameters } : {}) });

  /** A JPY order (an upgrade, a void, an approved claim), a KWD order (a downgrade) and a USD order, written by today's code. */
  async function sell() {
    const shop = await service.newClient('Legacy Shop');
    const place = async (currency: string, costs: string[]) => {
      const res = await call(shop.client_id, 'orders-create', 'POST', '/api/v2/orders', {
        order_number: uniqueOrderNumber(currency),
        currency,
        items: cartItems(...costs),
        customer: { email: 'legacy@example.org' },
      });
      expect(res.status, res.body).toBe(201);
      return res.json as { service_order_id: string; order_number: string; policies: { policy_number: string }[] };
    };
    const change = (orderId: string, old: string, cost: string) =>
      call(
        shop.client_id,
        'orders-change',
        'PATCH',
        `/api/v2/orders/${orderId}`,
        { items: [{ name: 'Seat', old_reference_number: old, reference_number: `${old}b`, cost }] },
        { id: orderId },
      );
    const jpy = await place('JPY', ['1234', '5000', '800']);
    const upgraded = await change(jpy.service_order_id, 'seat-1', '2000');
    const voided = await call(shop.client_id, 'policies-settle', 'POST', `/api/v2/policies/${jpy.policies[1]!.policy_number}/void`, undefined, {
      policy_number: jpy.policies[1]!.policy_number,
      action: 'void',
    });
    expect(voided.status, voided.body).toBe(200);
    const token = await sessionToken(
      service,
      { clientId: shop.client_id, publicKey: shop.public_key },
      { order_number: jpy.order_number, email: 'legacy@example.org' },
    );
    const claim = await fileClaim(service, token, { policy_numbers: [upgraded.json.policies[0].policy_number] });
    expect((await decide(service, claim.json.claim_id, { decision: 'approve', amount: '1500' })).status).toBe(200);
    const kwd = await place('KWD', ['12.340']);
    await change(kwd.service_order_id, 'seat-1', '10.000');
    const usd = await place('USD', ['120.00']);
    return { shop, jpy, kwd, usd, claimId: claim.json.claim_id as string };
  }

  /** What the code before issue 27 stored: hundredths (premiums priced on them), no mark, items without a currency. */
  const LEGACY: Record<string, { subtotal: number; items: Record<string, Amounts> }> = {
    JPY: {
      subtotal: 780_000,
      items: {
        'seat-1': { cost: 123_400, premium: 10_489, coverage: 123_400 }, // ¥1,234 × 0.085 = ¥104.89
        'seat-1b': { cost: 200_000, premium: 17_000, coverage: 200_000, delta: 6_511 },
        'seat-2': { cost: 500_000, premium: 42_500, coverage: 500_000, refund: 42_500 },
        'seat-3': { cost: 80_000, premium: 6_800, coverage: 80_000 },
      },
    },
    KWD: {
      subtotal: 1_000,
      items: { 'seat-1': { cost: 1_234, premium: 105, coverage: 1_234 }, 'seat-1b': { cost: 1_000, premium: 85, coverage: 1_000, delta: -20 } },
    },
    USD: { subtotal: 12_000, items: { 'seat-1': { cost: 12_000, premium: 1_020, coverage: 12_000 } } },
  };
  /** The same rows in minor units: yen rounded half away from zero (the delta from the rounded premiums), fils ×10, cents as they were. */
  const EXPECTED: typeof LEGACY = {
    JPY: {
      subtotal: 7_800,
      items: {
        'seat-1': { cost: 1_234, premium: 105, coverage: 1_234 },
        'seat-1b': { cost: 2_000, premium: 170, coverage: 2_000, delta: 65 },
        'seat-2': { cost: 5_000, premium: 425, coverage: 5_000, refund: 425 },
        'seat-3': { cost: 800, premium: 68, coverage: 800 },
      },
    },
    KWD: {
      subtotal: 10_000,
      items: { 'seat-1': { cost: 12_340, premium: 1_050, coverage: 12_340 }, 'seat-1b': { cost: 10_000, premium: 850, coverage: 10_000, delta: -200 } },
    },
    USD: LEGACY.USD!,
  };

  const rowsOf = async (orderId: string) => (await scanAll(service.tables.main)).filter((r) => String(r.PK).endsWith(`#ORDER#${orderId}`));
  const claimRow = async (claimId: string) => (await scanAll(service.tables.main)).find((r) => r.PK === `CLAIM#${claimId}` && r.SK === 'CLAIM')!;

  async function makeLegacy(orders: Record<string, string>, claimId: string) {
    for (const [currency, orderId] of Object.entries(orders)) {
      for (const row of await rowsOf(orderId)) {
        if (row.entity === 'order') {
          await service.tables.doc.send(
            new UpdateCommand({
              TableName: service.tables.main,
              Key: { PK: row.PK, SK: row.SK },
              UpdateExpression: 'SET subtotal = :s REMOVE minor_units',
              ExpressionAttributeValues: { ':s': LEGACY[currency]!.subtotal },
            }),
          );
          continue;
        }
        const amounts = LEGACY[currency]!.items[String(row.reference_number)]!;
        await service.tables.doc.send(
          new UpdateCommand({
            TableName: service.tables.main,
            Key: { PK: row.PK, SK: row.SK },
            UpdateExpression: `SET cost = :c, #p.premium = :p, #p.coverage_amount = :v${amounts.delta === undefined ? '' : ', #p.premium_delta = :d'}${amounts.refund === undefined ? '' : ', #p.refund_due = :r'} REMOVE minor_units, currency`,
            ExpressionAttributeNames: { '#p': 'policy' },
            ExpressionAttributeValues: {
              ':c': amounts.cost,
              ':p': amounts.premium,
              ':v': amounts.coverage,
              ...(amounts.delta === undefined ? {} : { ':d': amounts.delta }),
              ...(amounts.refund === undefined ? {} : { ':r': amounts.refund }),
            },
          }),
        );
      }
    }
    const claim = await claimRow(claimId);
    await service.tables.doc.send(
      new UpdateCommand({
        TableName: service.tables.main,
        Key: { PK: claim.PK, SK: claim.SK },
        UpdateExpression: 'SET amount_claimed = :a, amount_approved = :ap, policies[0].coverage_amount = :c REMOVE minor_units',
        ExpressionAttributeValues: { ':a': 200_000, ':ap': 150_050, ':c': 200_000 }, // the operator approved ¥1,500.50 then
      }),
    );
  }

  async function expectMinorRows(currency: string, orderId: string) {
    const expected = EXPECTED[currency]!;
    for (const row of await rowsOf(orderId)) {
      expect(row.minor_units, `${currency} ${String(row.SK)}`).toBe(true);
      if (row.entity === 'order') {
        expect(row.subtotal, `${currency} subtotal`).toBe(expected.subtotal);
        continue;
      }
      const policy = row.policy as Record<string, unknown>;
      const amounts = expected.items[String(row.reference_number)]!;
      expect(
        {
          currency: row.currency,
          cost: row.cost,
          premium: policy.premium,
          coverage: policy.coverage_amount,
          delta: policy.premium_delta,
          refund: policy.refund_due,
        },
        `${currency} ${String(row.reference_number)}`,
      ).toEqual({ currency, cost: amounts.cost, premium: amounts.premium, coverage: amounts.coverage, delta: amounts.delta, refund: amounts.refund });
    }
  }

  it('rewrites JPY, KWD and USD rows once: reads convert them meanwhile, a second run changes nothing', async () => {
    const { shop, jpy, kwd, usd, claimId } = await sell();
    await makeLegacy({ JPY: jpy.service_order_id, KWD: kwd.service_order_id, USD: usd.service_order_id }, claimId);

    // Before the migration, reads already answer in minor units.
    const read = async (orderId: string) => (await call(shop.client_id, 'orders-read', 'GET', `/api/v2/orders/${orderId}`, undefined, { id: orderId })).json;
    const beforeJpy = await read(jpy.service_order_id);
    expect(beforeJpy.subtotal).toBe('7800');
    expect(beforeJpy.policies.map((p: any) => [p.premium, p.premium_delta ?? null, p.refund_due ?? null])).toEqual([
      ['105', null, null],
      ['425', null, '425'],
      ['68', null, null],
      ['170', '65', null],
    ]);
    const beforeKwd = await read(kwd.service_order_id);
    const policiesBefore = (await call(shop.client_id, 'policies-list', 'GET', '/api/v2/policies')).body;
    expect(beforeKwd.policies.map((p: any) => [p.premium, p.premium_delta ?? null])).toEqual([
      ['1.050', null],
      ['0.850', '-0.200'],
    ]);

    const first = await amountsToMinorUnits(service.tables.doc, service.tables);
    expect(first).toEqual({ orders: 3, items: 7, claims: 1, rounded: 2, writtenMeanwhile: 0 }); // ¥104.89 and ¥1,500.50 rounded
    await expectMinorRows('JPY', jpy.service_order_id);
    await expectMinorRows('KWD', kwd.service_order_id);
    await expectMinorRows('USD', usd.service_order_id);
    expect(await claimRow(claimId)).toMatchObject({ amount_claimed: 2_000, amount_approved: 1_501, policies: [{ coverage_amount: 2_000 }], minor_units: true });

    expect(await amountsToMinorUnits(service.tables.doc, service.tables)).toEqual({ orders: 0, items: 0, claims: 0, rounded: 0, writtenMeanwhile: 0 });
    await expectMinorRows('JPY', jpy.service_order_id);
    expect(await read(jpy.service_order_id)).toEqual(beforeJpy);
    expect(await read(kwd.service_order_id)).toEqual(beforeKwd);
    expect((await call(shop.client_id, 'policies-list', 'GET', '/api/v2/policies')).body).toBe(policiesBefore);
  });

  it('runs beside new writes: a record a request rewrites between the read and the write is left as the request wrote it', async () => {
    const { shop, jpy, kwd, claimId } = await sell();
    await makeLegacy({ JPY: jpy.service_order_id, KWD: kwd.service_order_id }, claimId);
    const newOrders: Promise<unknown>[] = [];
    let raced = 0;
    const report = await amountsToMinorUnits(service.tables.doc, service.tables, async (record) => {
      // New orders land all through the run.
      newOrders.push(
        call(shop.client_id, 'orders-create', 'POST', '/api/v2/orders', { order_number: uniqueOrderNumber('new'), currency: 'JPY', items: cartItems('1234') }),
      );
      if (record.entity === 'item' && record.reference_number === 'seat-3' && String(record.PK).endsWith(jpy.service_order_id)) {
        // A PATCH of the legacy JPY order before this item's write: it reads hundredths as yen, writes the
        // header and the new item in yen, marked, and moves this item's status only (no amounts, no mark).
        const res = await call(
          shop.client_id,
          'orders-change',
          'PATCH',
          `/api/v2/orders/${jpy.service_order_id}`,
          { items: [{ name: 'Seat', old_reference_number: 'seat-3', reference_number: 'seat-3b', cost: '3000' }] },
          { id: jpy.service_order_id },
        );
        expect(res.status, res.body).toBe(200);
        expect(res.json.subtotal).toBe('10000');
        expect(res.json.policies[0]).toMatchObject({ premium: '255', premium_delta: '187' }); // 255 − 68
        raced++;
      }
      if (record.entity === 'item' && record.reference_number === 'seat-1b' && String(record.PK).endsWith(kwd.service_order_id)) {
        // A void of the legacy KWD policy: it writes the whole item in fils, marked.
        const policy = (record.policy as { policy_number: string }).policy_number;
        const res = await call(shop.client_id, 'policies-settle', 'POST', `/api/v2/policies/${policy}/void`, undefined, {
          policy_number: policy,
          action: 'void',
        });
        expect(res.status, res.body).toBe(200);
        expect(res.json).toMatchObject({ premium: '0.850', refund_due: '0.850', coverage_amount: '10.000' });
        raced++;
      }
    });
    await Promise.all(newOrders);
    expect(raced).toBe(2);
    expect(report.writtenMeanwhile).toBeGreaterThanOrEqual(1); // the voided KWD item (and the JPY header, when the scan had read it before the PATCH)

    const jpyRows = await rowsOf(jpy.service_order_id);
    expect(jpyRows.find((r) => r.entity === 'order')).toMatchObject({ subtotal: 10_000, minor_units: true }); // 2000 + 5000 + 3000
    const amountsOf = (ref: string) => {
      const row = jpyRows.find((r) => r.reference_number === ref)!;
      const policy = row.policy as Record<string, unknown>;
      return { cost: row.cost, premium: policy.premium, delta: policy.premium_delta, status: policy.status, mark: row.minor_units, currency: row.currency };
    };
    expect(amountsOf('seat-3')).toEqual({ cost: 800, premium: 68, delta: undefined, status: 'Upgraded', mark: true, currency: 'JPY' });
    expect(amountsOf('seat-3b')).toEqual({ cost: 3_000, premium: 255, delta: 187, status: 'Issued', mark: true, currency: 'JPY' });
    expect(amountsOf('seat-1b')).toEqual({ cost: 2_000, premium: 170, delta: 65, status: 'Claimed', mark: true, currency: 'JPY' });
    const kwdVoided = (await rowsOf(kwd.service_order_id)).find((r) => r.reference_number === 'seat-1b')!;
    expect(kwdVoided).toMatchObject({
      cost: 10_000,
      currency: 'KWD',
      minor_units: true,
      policy: { status: 'Void', premium: 850, refund_due: 850, premium_delta: -200 },
    });
    // Orders sold during the run kept their yen: nothing divided them again.
    for (const row of (await scanAll(service.tables.main)).filter(
      (r) => r.entity === 'item' && r.currency === 'JPY' && r.reference_number === 'seat-1' && r.cost === 1_234,
    )) {
      expect((row.policy as { premium: number }).premium).toBe(105);
    }
    expect(await amountsToMinorUnits(service.tables.doc, service.tables)).toEqual({ orders: 0, items: 0, claims: 0, rounded: 0, writtenMeanwhile: 0 });
  });
  it('keeps reading, listing, changing and settling an order and a claim stored in a code the API took before and ISO gives no minor unit (HRK)', async () => {
    const shop = await service.newClient('Zagreb Shop');
    const placed = await call(shop.client_id, 'orders-create', 'POST', '/api/v2/orders', {
      order_number: uniqueOrderNumber('hrk'),
      currency: 'USD',
      items: cartItems('120.00', '35.50', '10.00'),
      customer: { email: 'legacy@example.org' },
    });
    const orderId = placed.json.service_order_id as string;
    const token = await sessionToken(
      service,
      { clientId: shop.client_id, publicKey: shop.public_key },
      { order_number: placed.json.order_number, email: 'legacy@example.org' },
    );
    const claim = await fileClaim(service, token, { policy_numbers: [placed.json.policies[2].policy_number] });
    expect(claim.status, claim.body).toBe(201);
    // What the code before stored for a kuna order: currency HRK, hundredths, no mark, items without a currency.
    for (const row of [...(await rowsOf(orderId)), await claimRow(claim.json.claim_id)]) {
      await service.tables.doc.send(
        new UpdateCommand({
          TableName: service.tables.main,
          Key: { PK: row.PK, SK: row.SK },
          UpdateExpression: row.entity === 'item' ? 'REMOVE minor_units, currency' : 'SET currency = :hrk REMOVE minor_units',
          ...(row.entity === 'item' ? {} : { ExpressionAttributeValues: { ':hrk': 'HRK' } }),
        }),
      );
    }
    const read = await call(shop.client_id, 'orders-read', 'GET', `/api/v2/orders/${orderId}`, undefined, { id: orderId });
    expect(read.status, read.body).toBe(200);
    expect(read.json).toMatchObject({ currency: 'HRK', subtotal: '165.50' });
    expect((await call(shop.client_id, 'orders-list', 'GET', '/api/v2/orders')).status).toBe(200);
    expect((await call(shop.client_id, 'policies-list', 'GET', '/api/v2/policies')).json.data.map((p: any) => p.premium).sort()).toEqual([
      '0.85',
      '10.20',
      '3.02',
    ]);
    const changed = await call(
      shop.client_id,
      'orders-change',
      'PATCH',
      `/api/v2/orders/${orderId}`,
      {
        items: [{ name: 'Seat', old_reference_number: 'seat-1', reference_number: 'seat-1b', cost: '130.50' }],
      },
      { id: orderId },
    );
    expect(changed.status, changed.body).toBe(200);
    expect(changed.json.policies[0]).toMatchObject({ premium: '11.09', premium_delta: '0.89' });
    const policy = placed.json.policies[1].policy_number as string;
    const voided = await call(shop.client_id, 'policies-settle', 'POST', `/api/v2/policies/${policy}/void`, undefined, {
      policy_number: policy,
      action: 'void',
    });
    expect(voided.json).toMatchObject({ status: 'Void', refund_due: '3.02' });
    const queue = await service.call('claims-admin', { method: 'GET', path: '/api/v2/admin/claims', operator: 'test-operator' });
    expect(queue.status, queue.body).toBe(200);
    expect(queue.json.data.find((c: any) => c.claim_id === claim.json.claim_id)).toMatchObject({ currency: 'HRK', amount_claimed: '10.00' });
    // New requests refuse the code.
    const fresh = await call(shop.client_id, 'orders-create', 'POST', '/api/v2/orders', {
      order_number: uniqueOrderNumber('hrk'),
      currency: 'HRK',
      items: cartItems('1.00'),
    });
    expect(fresh.json.error).toMatchObject({ code: 'validation_failed', param: 'currency' });

    await amountsToMinorUnits(service.tables.doc, service.tables);
    for (const row of await rowsOf(orderId)) expect(row.minor_units, String(row.SK)).toBe(true);
    expect(await claimRow(claim.json.claim_id)).toMatchObject({ minor_units: true, amount_claimed: 1_000 });
    expect((await call(shop.client_id, 'orders-read', 'GET', `/api/v2/orders/${orderId}`, undefined, { id: orderId })).json.subtotal).toBe('176.00'); // 130.50 + 35.50 + 10.00
  });
});

/**
 * Issue 35: an order a test helper made older keeps its ledger entries where they were written
 * (the moment things happened), but its policies' times move. `npm run migrate` must not take the
 * moved times for new entries: the entry's id alone says whether it exists, and a closed month
 * never receives one.
 */
describe('npm run migrate beside orders a test helper made older', () => {
  const DAY_MS = 86_400_000;
  const ledger = () => new DynamoLedgerStore(service.tables.doc, service.tables.main);
  const migrate = () => runMigrations(service.tables.doc, service.tables);
  /** A month's entries and statement, as GET /ledger and GET /statements read them. */
  const books = async (clientId: string, period: string) => ({
    entries: (await ledger().list(clientId, { period, limit: 100 })).entries,
    statement: await ledger().statement(clientId, period),
  });
  const mine = async (clientId: string) => (await reconcile(service.tables.doc, service.tables.main)).filter((d) => d.client_id === clientId);

  async function agedOrder(drainFirst: boolean) {
    const shop = await service.newClient('Aged Shop'); // a test client, as every new client is
    const clientId = shop.client_id;
    const placed = await service.call('orders-create', {
      method: 'POST',
      path: '/api/v2/orders',
      clientId,
      body: { order_number: uniqueOrderNumber('aged'), currency: 'USD', items: cartItems('100.00', '40.00') },
    });
    expect(placed.status, placed.body).toBe(201);
    const orderId = placed.json.service_order_id as string;
    const policy = placed.json.policies[1].policy_number as string;
    const voided = await service.call('policies-settle', {
      method: 'POST',
      path: `/api/v2/policies/${policy}/void`,
      pathParameters: { policy_number: policy, action: 'void' },
      clientId,
    });
    expect(voided.status, voided.body).toBe(200);
    if (drainFirst) await service.drainStreams();
    const aged = await service.call('test-helpers', {
      method: 'POST',
      path: `/api/v2/test_helpers/orders/${orderId}/advance`,
      pathParameters: { id: orderId },
      clientId,
      body: { days: 60 },
    });
    expect(aged.status, aged.body).toBe(200);
    const now = new Date();
    return { clientId, period: now.toISOString().slice(0, 7), closed: new Date(now.getTime() - 60 * DAY_MS).toISOString().slice(0, 7) };
  }

  it('writes nothing for an aged order whose entries the stream wrote: run twice, the closed month unchanged and reconcile clean', async () => {
    const { clientId, period, closed } = await agedOrder(true);
    await service.drainStreams();
    expect(statementStatus(closed, new Date())).toBe('closed');
    const before = { open: await books(clientId, period), closed: await books(clientId, closed) };
    expect(before.open.entries.map((entry) => entry.type).sort()).toEqual(['premium_refunded', 'premium_written', 'premium_written']);
    expect(before.closed).toEqual({ entries: [], statement: [] });
    expect(await mine(clientId)).toEqual([]);
    // As on a table whose entries were written before they had id records: migrate gives them theirs first.
    const ids = (await scanAll(service.tables.main)).filter((r) => String(r.PK).startsWith(`CLIENT#${clientId}#LEDGER_ENTRY#`));
    expect(ids).toHaveLength(3);
    for (const { PK, SK } of ids) await service.tables.doc.send(new DeleteCommand({ TableName: service.tables.main, Key: { PK, SK } }));

    const first = await migrate();
    expect(first.adopted).toMatchObject({ entries: 3, duplicates: 0 });
    expect((await migrate()).adopted).toEqual({ entries: 0, duplicates: 0 });
    await service.drainStreams();
    expect(await books(clientId, closed)).toEqual(before.closed);
    expect(await books(clientId, period)).toEqual(before.open);
    expect(await mine(clientId)).toEqual([]);
  });

  it('beside traffic: an order aged before the stream wrote its entries is booked once, in the open month, whoever comes first', async () => {
    const { clientId, period, closed } = await agedOrder(false);
    await migrate(); // the opening balance meets the order before the stream consumer does
    await migrate();
    await service.drainStreams();
    expect(await books(clientId, closed)).toEqual({ entries: [], statement: [] });
    const open = await books(clientId, period);
    expect(open.entries.map((entry) => entry.type).sort()).toEqual(['premium_refunded', 'premium_written', 'premium_written']);
    expect(open.statement).toMatchObject([
      { currency: 'USD', figures: { premiums_written: 1190n, premiums_refunded: 340n, policies_issued: 2n, policies_voided: 1n } },
    ]);
    expect(await mine(clientId)).toEqual([]);
  });
});

describe('versioned terms for clients made before them (issue 38)', () => {
  it('gives each its version 1 from its rate and look period, in force since its creation, once', async () => {
    const shop = await service.newClient('Before terms', 120_000);
    const { Items = [] } = await service.tables.doc.send(new ScanCommand({ TableName: service.tables.main }));
    const before = Items.filter((item) => item.client_id === shop.client_id && item.entity === 'terms');
    // As issue 37 left it: no version, no head on either record.
    await service.tables.doc.send(new DeleteCommand({ TableName: service.tables.main, Key: { PK: before[0]!.PK, SK: before[0]!.SK } }));
    await service.tables.doc.send(
      new UpdateCommand({
        TableName: service.tables.main,
        Key: { PK: `CLIENT#${shop.client_id}`, SK: 'CLIENT' },
        UpdateExpression: 'REMOVE terms_latest, terms_live',
      }),
    );
    await service.tables.doc.send(
      new UpdateCommand({
        TableName: service.tables.main,
        Key: { PK: `PUBLIC_KEY#${shop.public_key}`, SK: 'PUBLIC_KEY' },
        UpdateExpression: 'REMOVE terms_live',
      }),
    );
    const first = await firstTermsVersions(service.tables.doc, service.tables);
    expect(first.clients).toBeGreaterThanOrEqual(1);
    const store = new DynamoTermsStore(service.tables.doc, service.tables.main);
    const client = await new DynamoClientStore(service.tables.doc, service.tables.main).get(shop.client_id);
    expect(await store.get(shop.client_id, 1)).toMatchObject({
      version: 1,
      effective_from: client!.created,
      rate_bands: [{ rate_ppm: 120_000 }],
      minimum_premium: {},
      commission_ppm: 0,
      look_period_days: 14,
      created_by: { sub: 'migration', email: null },
    });
    expect((await store.head(shop.client_id))!.latest).toBe(1);
    expect(await firstTermsVersions(service.tables.doc, service.tables)).toEqual({ clients: 0 });
    expect((await runMigrations(service.tables.doc, service.tables)).terms).toEqual({ clients: 0 });
  });

  it('gives each policy sold before them terms_version 1 and commission 0, once, with no ledger entry or webhook', async () => {
    const shop = await service.newClient('Old policies');
    const sold = await service.call('orders-create', {
      method: 'POST',
      path: '/api/v2/orders',
      clientId: shop.client_id,
      body: { order_number: uniqueOrderNumber('old'), currency: 'USD', items: cartItems('10.00', '20.00') },
    });
    const items = async () =>
      ((await scanAll(service.tables.main)) as Record<string, unknown>[]).filter(
        (item) => item.entity === 'item' && String(item.PK).includes(sold.json.service_order_id),
      );
    for (const item of await items()) {
      await service.tables.doc.send(
        new UpdateCommand({
          TableName: service.tables.main,
          Key: { PK: item.PK, SK: item.SK },
          UpdateExpression: 'REMOVE #p.terms_version, #p.commission',
          ExpressionAttributeNames: { '#p': 'policy' },
        }),
      );
    }
    await service.drainStreams();
    const rowsBefore = (await scanAll(service.tables.main)).length;

    const first = await policiesTermsVersion(service.tables.doc, service.tables);
    const second = await policiesTermsVersion(service.tables.doc, service.tables);
    await service.drainStreams();

    expect(first.policies).toBeGreaterThanOrEqual(2);
    expect(second).toEqual({ policies: 0 });
    expect(
      (await items()).map((item) => {
        const policy = item.policy as Record<string, unknown>;
        return [policy.terms_version, policy.commission];
      }),
    ).toEqual([
      [1, 0],
      [1, 0],
    ]);
    expect((await scanAll(service.tables.main)).length).toBe(rowsBefore);
  });
});

describe('issue 38: the months each client had moves in, for its balance', () => {
  it('marks every month the bordereaux know a client had moves in, once', async () => {
    const shop = await service.newClient('Old months');
    const sold = await service.call('orders-create', {
      method: 'POST',
      path: '/api/v2/orders',
      clientId: shop.client_id,
      body: { order_number: uniqueOrderNumber('mon'), currency: 'USD', items: cartItems('10.00') },
    });
    expect(sold.status).toBe(201);
    await service.drainStreams();
    const marks = async () => (await scanAll(service.tables.main)).filter((record) => record.PK === `CLIENT#${shop.client_id}#MONTHS`);
    const period = new Date().toISOString().slice(0, 7);
    expect((await marks()).map((mark) => mark.SK)).toEqual([period]); // the consumer marks it from now on
    // As before issue 38: only the month's clients were marked.
    await service.tables.doc.send(new DeleteCommand({ TableName: service.tables.main, Key: { PK: `CLIENT#${shop.client_id}#MONTHS`, SK: period } }));
    expect((await clientMonths(service.tables.doc, service.tables)).months).toBeGreaterThanOrEqual(1);
    expect((await marks()).map((mark) => mark.SK)).toEqual([period]);
    expect(await clientMonths(service.tables.doc, service.tables)).toEqual({ months: 0 });
  });
});
