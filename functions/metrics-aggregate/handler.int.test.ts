import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamWindowEvent } from '#shared/platform/dynamo/stream-events.js';
import { cartItems, quoteFor, startService, uniqueOrderNumber, type Service } from '../../test/support/service.js';

/**
 * The day counts follow from the metrics table's stream: exact over many concurrent checkouts,
 * and each checkout counted once however often (or in whatever pieces) a batch is delivered.
 */
let service: Service;
let handler: (event: StreamWindowEvent) => Promise<unknown>;
beforeAll(async () => {
  service = await startService();
  ({ handler } = await import('./handler.js'));
});
afterAll(() => service.stop());

async function conversion(clientId: string) {
  const res = await service.call('metrics-conversion', { method: 'GET', path: '/api/v2/metrics/conversion', clientId });
  expect(res.status).toBe(200);
  return res.json as { days: { date: string; opt_in: number; opt_out: number }[]; totals: { opt_in: number; opt_out: number } };
}

async function checkoutRecords(clientId: string) {
  const records: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await service.tables.doc.send(new ScanCommand({ TableName: service.tables.metrics, ExclusiveStartKey: start }));
    records.push(...(page.Items ?? []).filter((item) => item.entity === 'checkout' && item.client_id === clientId));
    start = page.LastEvaluatedKey;
  } while (start);
  return records;
}

describe('day counts from the stream', () => {
  it('equal the checkout records after 300 concurrent checkouts (opt-ins, opt-outs, and the same order number sent again)', async () => {
    const client = await service.newClient('On-sale Shop');
    const items = cartItems('40.00', '25.00');
    const quote = await quoteFor(service, client.public_key, items);
    const numbers = Array.from({ length: 240 }, (_, i) => uniqueOrderNumber(`onsale-${i}`));
    const attempts = [...numbers, ...numbers.slice(0, 60)]; // 60 numbers arrive twice: they count once
    // A quote sells one order: each opt-in redeems a quote of its own (a repeat sends the same one).
    const optIns = new Map<number, string>();
    for (let from = 0; from < numbers.length; from += 30)
      await Promise.all(
        Array.from({ length: 30 }, (_, k) => from + k)
          .filter((i) => i % 3 === 0)
          .map(async (i) => optIns.set(i, (await quoteFor(service, client.public_key, items)).tokens.opt_in)),
      );
    const place = (orderNumber: string, i: number) =>
      service.call('orders-create', {
        method: 'POST',
        path: '/api/v2/orders',
        clientId: client.client_id,
        body: { token: optIns.get(numbers.indexOf(orderNumber)) ?? quote.tokens.opt_out, order_number: orderNumber, currency: 'USD', items },
        headers: i % 2 === 0 ? { 'idempotency-key': `k-${orderNumber}` } : {},
      });
    const answers: number[] = [];
    for (let i = 0; i < attempts.length; i += 30) {
      // 30 at a time, streams drained in between too: batches of every size, counts on a moving day item
      answers.push(...(await Promise.all(attempts.slice(i, i + 30).map(place))).map((res) => res.status));
      if (i % 90 === 0) await service.drainStreams();
    }
    // A repeat is answered as the first (204, or 201 replayed with its key) or 409 order_exists; it never counts.
    expect(answers.every((status) => [201, 204, 409].includes(status))).toBe(true);

    await service.drainStreams();
    const records = await checkoutRecords(client.client_id);
    expect(records).toHaveLength(240);
    const { totals } = await conversion(client.client_id);
    expect(totals).toMatchObject({
      opt_in: records.filter((record) => record.opt_in === true).length,
      opt_out: records.filter((record) => record.opt_in === false).length,
    });
    expect(totals.opt_in).toBe(80);
    expect(totals.opt_out).toBe(160);
  }, 120_000); // about 15 s alone; every stream consumer (the ledger's too) drains with it on a busy CI machine

  it('counts each checkout once when a batch is delivered again, in pieces, or on two shards at once', async () => {
    const clientId = 'cli_redelivery';
    const day = '2026-11-20';
    const record = (sequence: number, optIn: boolean): DynamoDBRecord => ({
      eventName: 'INSERT',
      dynamodb: {
        SequenceNumber: String(1_000_000 + sequence),
        NewImage: { entity: { S: 'checkout' }, client_id: { S: clientId }, day: { S: day }, opt_in: { BOOL: optIn }, counted_by: { S: 'stream' } },
      },
    });
    const batch = (shardId: string, records: DynamoDBRecord[]): StreamWindowEvent => ({
      Records: records,
      shardId,
      window: { start: '2026-11-20T10:00:00Z', end: '2026-11-20T10:01:00Z' },
      state: {},
      isFinalInvokeForWindow: false,
      isWindowTerminatedEarly: false,
    });
    const shardA = Array.from({ length: 20 }, (_, i) => record(i, i % 4 === 0)); // 5 opt-ins, 15 opt-outs
    const shardB = Array.from({ length: 10 }, (_, i) => record(i, true)); // same sequence numbers, another shard: 10 opt-ins

    await handler(batch('shard-a', shardA.slice(0, 10)));
    await handler(batch('shard-a', shardA.slice(0, 10))); // the same batch again
    await handler(batch('shard-a', shardA.slice(5, 15))); // half again, half new
    await Promise.all([handler(batch('shard-b', shardB)), handler(batch('shard-a', shardA.slice(15)))]);
    await handler(batch('shard-a', shardA)); // everything again
    await handler(batch('shard-a', [record(25, false), { ...record(26, true), eventName: 'MODIFY' }])); // one more; a MODIFY counts nothing
    // A record written before the counts came from the stream (no counted_by) was counted when written: not again.
    const older = record(27, true);
    delete older.dynamodb!.NewImage!.counted_by;
    await handler(batch('shard-a', [older]));

    const res = await service.call('metrics-conversion', {
      method: 'GET',
      path: '/api/v2/metrics/conversion',
      query: { from: day, to: day },
      clientId,
    });
    expect(res.json.totals).toMatchObject({ opt_in: 15, opt_out: 16 });
  });
});
