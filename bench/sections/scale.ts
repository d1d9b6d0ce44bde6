import { createServer } from 'node:http';
import { apiEvent } from '../../scripts/local/api-events.js';
import { startStreamConsumers } from '../../scripts/local/local-streams.js';
import { createClient } from '#shared/clients/manage-clients.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { recordKeyLoad, type KeyCount } from '../meters/key-load.js';
import { LIST_SHARDS } from '#shared/platform/dynamo/keys.js';
import type { LocalDynamo } from '../../scripts/local/local-stack.js';
import { lambdaContext, type Fixtures } from '../fixtures.js';
import type { Recorder } from '../report.js';

/**
 * 6 · Scale: one second of one merchant's on-sale. 10,000 checkouts for one client — what the
 * on-sale sends in a second — go through the real handlers (quote, then order: half opt-in, one
 * opt-in in ten without a quote token, carts of 1–4 tickets, half with an Idempotency-Key), then the metrics stream is drained through its
 * consumer; every item written is counted per partition key, of the tables and of every index it
 * lands in (bench/meters/key-load.ts). A key's count is its writes in that second. Goal: no key
 * above 500 writes/s (DynamoDB gives a partition about 1,000).
 *
 * The day counts are not written per checkout: their consumer writes a day's item once per
 * stream batch per stream shard, so their rate follows the batches, not the checkouts (row "day
 * counts"). The merchant has a webhook endpoint for every event, so the same drain sends the
 * second's order.created and order.opted_out events to a local receiver; their records (event,
 * delivery, the events, retry and hold indexes) are counted too (row "webhooks").
 */
const CHECKOUTS = 10_000;
const CONCURRENCY = 16;
const RATE = 10_000;
const GOAL = 500;

/** A small deterministic generator, so that every run sends the same carts. */
function generator(seed: number) {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

export async function measureScale(record: Recorder, fixtures: Fixtures, dynamo: LocalDynamo): Promise<void> {
  const doc = sharedDocumentClient();
  const tables = { main: process.env.TABLE_NAME!, metrics: process.env.METRICS_TABLE_NAME! };
  const consumers = await startStreamConsumers(dynamo, tables, { autoPoll: false });
  await consumers.drain(); // what earlier sections wrote: not this burst's
  const client = await createClient(new DynamoClientStore(doc, tables.main), { name: 'On-sale Shop' });
  // The merchant listens to every event (the default): each checkout is also a webhook delivery.
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const registered = await fixtures.handlers['webhook-endpoints'](
    apiEvent({
      method: 'POST',
      path: '/api/v2/webhook_endpoints',
      clientId: client.client_id,
      body: { url: `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks` },
    }),
    lambdaContext(),
  );
  if (registered.statusCode !== 201) throw new Error(`scale: webhook endpoint ${registered.statusCode} ${registered.body}`);
  const random = generator(2026);
  const checkouts = Array.from({ length: CHECKOUTS }, (_, n) => {
    const items = Array.from({ length: 1 + Math.floor(random() * 4) }, (_, i) => ({
      name: `Seat ${i + 1}`,
      reference_number: `s-${i + 1}`,
      cost: (40 + Math.floor(random() * 80)).toFixed(2),
    }));
    const optIn = random() < 0.5;
    // One opt-in in ten comes without a quote token (a back-end that prices with the client's rate): it reads the client.
    return { items, optIn, token: !optIn || random() < 0.9, key: random() < 0.5 ? `onsale-key-${n}` : undefined, orderNumber: `ONSALE-${n}` };
  });

  const load = recordKeyLoad(doc, tables);
  let optIns = 0;
  let policies = 0;
  try {
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < checkouts.length) {
          const checkout = checkouts[next++]!;
          const quoted = await fixtures.handlers['quotes-create'](
            apiEvent({
              method: 'POST',
              path: '/api/v2/quotes',
              headers: { 'x-public-key': client.public_key },
              body: { currency: 'USD', items: checkout.items },
            }),
            lambdaContext(),
          );
          const { tokens } = JSON.parse(quoted.body!) as { tokens: { opt_in: string; opt_out: string } };
          const ordered = await fixtures.handlers['orders-create'](
            apiEvent({
              method: 'POST',
              path: '/api/v2/orders',
              clientId: client.client_id,
              headers: checkout.key ? { 'idempotency-key': checkout.key } : {},
              body: {
                ...(checkout.token ? { token: checkout.optIn ? tokens.opt_in : tokens.opt_out } : {}),
                order_number: checkout.orderNumber,
                currency: 'USD',
                items: checkout.items,
              },
            }),
            lambdaContext(),
          );
          if (ordered.statusCode !== (checkout.optIn ? 201 : 204)) throw new Error(`scale burst: HTTP ${ordered.statusCode} ${ordered.body}`);
          if (checkout.optIn) {
            optIns++;
            policies += checkout.items.length;
          }
        }
      }),
    );
    const checkoutWrites = new Map(load.writes);
    const checkoutTotals = { ...load.totals };
    const checkoutReads = new Map(load.reads);
    load.reset();
    await consumers.drain();
    const dayKey = `metrics:CLIENT#${client.client_id}`;
    const dayCountWrites = load.writes.get(dayKey)?.writes ?? 0;
    // The ledger's entries (a month's, sharded; each with its id record, a partition of its own) and statements (one per client, month and currency), from the same stream.
    const isLedger = (key: string) => key.includes('#LEDGER#') || key.includes('#LEDGER_ENTRY#');
    const isStatement = (key: string) => key.includes('#STATEMENT#');
    const ledgerWrites = [...load.writes.entries()].filter(([key]) => isLedger(key)).sort((a, b) => b[1].writes - a[1].writes);
    const statementWrites = [...load.writes.entries()].filter(([key]) => isStatement(key)).reduce((sum, [, count]) => sum + count.writes, 0);
    // The same second's webhook events (order.created, order.opted_out), recorded, sent and logged.
    const webhookWrites = [...load.writes.entries()]
      .filter(([key]) => key !== dayKey && !isLedger(key) && !isStatement(key))
      .sort((a, b) => b[1].writes - a[1].writes);

    const perSecond = (count: number) => (count / CHECKOUTS) * RATE;
    const hottest = (filter: (key: string) => boolean) =>
      [...checkoutWrites.entries()].filter(([key]) => filter(key)).sort((a, b) => b[1].writes - a[1].writes)[0];
    const shown = (key: string) =>
      key
        .replace(client.client_id, '<client>')
        .replace(client.public_key, '<public key>')
        .replace(/[0-9a-f-]{16,}/gi, '…');
    const describe = ([key, count]: [string, KeyCount]) =>
      `${perSecond(count.writes).toFixed(0)} writes/s, ${perSecond(count.units).toFixed(0)} WCU/s on ${shown(key)}`;

    record({
      subject: 'burst',
      figure: `${CHECKOUTS} checkouts of one client (${optIns} opt-ins with ${policies} policies), ${checkoutTotals.itemWrites} item writes, ${checkoutWrites.size} keys written`,
      goal: 'reported',
      ok: true,
    });
    for (const [subject, filter] of [
      ['hottest table key', (key: string) => !key.includes('/')],
      ['hottest index key', (key: string) => key.includes('/')],
    ] as const) {
      const top = hottest(filter);
      const rate = top ? perSecond(top[1].writes) : 0;
      record({
        subject: `${subject} at ${RATE.toLocaleString('en-US')}/s`,
        figure: top ? describe(top) : 'none',
        goal: `≤ ${GOAL} writes/s`,
        ok: rate <= GOAL,
      });
    }
    const allWrites = [...checkoutWrites.values()].reduce((sum, count) => sum + count.writes, 0);
    const top = hottest(() => true);
    const family = top ? top[0].slice(0, top[0].lastIndexOf('#')) : '';
    const familyWrites = [...checkoutWrites.entries()].filter(([key]) => key.startsWith(`${family}#`)).reduce((sum, [, count]) => sum + count.writes, 0);
    record({
      subject: 'hottest partition share',
      figure: top
        ? `${((100 * top[1].writes) / allWrites).toFixed(2)}% of all item writes; its ${LIST_SHARDS} shards evenly would take ${((100 * familyWrites) / LIST_SHARDS / allWrites).toFixed(2)}% each`
        : 'none',
      goal: 'reported',
      ok: true,
    });
    // The quote path keeps the client per container for a minute: its public key is read once per container, not per checkout.
    const hottestRead = [...checkoutReads.entries()].sort((a, b) => b[1] - a[1])[0];
    record({
      subject: 'hottest read key',
      figure: hottestRead
        ? `${hottestRead[1]} reads in the burst on ${shown(hottestRead[0])} (the public key and the client are read once a minute per container, not per checkout)`
        : 'none',
      goal: `≤ ${GOAL} reads/s`,
      ok: !hottestRead || perSecond(hottestRead[1]) <= GOAL,
    });
    const webhookTop = webhookWrites[0];
    record({
      subject: 'hottest key of the webhooks',
      figure: webhookTop
        ? `${webhookTop[1].writes} writes, ${webhookTop[1].units} WCU in that second's ${webhookWrites.reduce((sum, [, count]) => sum + count.writes, 0)} webhook writes, on ${shown(webhookTop[0])}`
        : 'none',
      goal: `≤ ${GOAL} writes/s`,
      ok: (webhookTop?.[1].writes ?? 0) <= GOAL,
    });
    const ledgerTop = ledgerWrites[0];
    record({
      subject: 'hottest key of the ledger',
      figure: ledgerTop
        ? `${ledgerTop[1].writes} writes in that second's ${ledgerWrites.reduce((sum, [, count]) => sum + count.writes, 0)} ledger entries (one per policy written), on ${shown(ledgerTop[0])}`
        : 'none',
      goal: `≤ ${GOAL} writes/s`,
      ok: ledgerTop !== undefined && ledgerTop[1].writes <= GOAL,
    });
    record({
      subject: 'statements (stream consumer)',
      figure: `${statementWrites} writes for the burst's ${policies} policies (one per statement per stream batch, as the day counts)`,
      goal: `≤ ${GOAL} writes/s`,
      ok: statementWrites < CHECKOUTS / 100,
    });
    record({
      subject: 'day counts (stream consumer)',
      figure: `${dayCountWrites} writes for the burst's ${CHECKOUTS} checkouts (one per day per stream batch; deployed ≤ 1 per stream shard per second at batches of ≤ 1,000: at 10,000/s, 10 shards → ~10 writes/s)`,
      goal: `≤ ${GOAL} writes/s`,
      ok: dayCountWrites < CHECKOUTS / 100,
    });
  } finally {
    load.detach();
    await consumers.stop();
    await new Promise((resolve) => receiver.close(resolve));
  }
}
