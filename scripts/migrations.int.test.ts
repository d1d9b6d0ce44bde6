import { DeleteCommand, PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartItems, quoteFor, startService, uniqueOrderNumber, type Service } from '../test/support/service.js';
import { backfillVoidWindows, migrateToShardedKeys } from './migrations.js';

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
    await new DynamoClientStore(service.tables.doc, service.tables.main).setLookPeriod(client_id, 30);

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
