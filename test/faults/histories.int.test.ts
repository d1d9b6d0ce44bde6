import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { describeDifference, reconcile } from '../../scripts/reconcile.js';
import { createHash } from 'node:crypto';
import { FAULT_KINDS, faultPlan, injectFaults, reseed, streamFaults, type FaultKind } from '../support/faults.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { startService, type Service } from '../support/service.js';
import { checkHistories, type Counts } from './checks.js';
import { commands, type Harness, type Model, type Real } from './commands.js';

/**
 * Proof under faults (docs/reliability.md): random histories of checkouts, changes (to another
 * date too), cancels, voids, previews and their confirms, claims with their decisions and payouts,
 * remittances and their reversals, and Idempotency-Key replays (commands.ts), through the real
 * handlers on DynamoDB Local while the SDK throttles calls, loses the answers of committed writes
 * and cancels transactions for conflicts, and the stream consumers are given batches again, split
 * and abandoned mid-way. A call answered 429 or 503 is a "maybe": the caller sends it again, as
 * docs/api.md tells callers to. After each history, with the faults off, checks.ts: no 500; every
 * keyed call replays as it was answered; every movement of money has exactly one ledger entry;
 * every webhook reached the merchant's receiver, each order's in order, each request in the log;
 * and, every RECONCILE_EVERY histories and at the end, `npm run reconcile` finds nothing.
 *
 * `npm test` runs HISTORIES histories from a fixed seed; `npm run soak -- --minutes N` runs new
 * seeds for N minutes and prints the seed of a failure (FAULT_SEED=<seed> replays it).
 */
process.env.WEBHOOK_URLS = 'local';
// A delivery whose first try failed is due again at once (the schedule's shape, without its wait).
process.env.WEBHOOK_RETRY_SCALE = '0.000001';

const SOAK_MINUTES = Number(process.env.FAULT_SOAK_MINUTES ?? 0);
const SEED = process.env.FAULT_SEED ? Number(process.env.FAULT_SEED) : SOAK_MINUTES ? Date.now() ^ (Math.random() * 2 ** 31) : 20_261_128;
const HISTORIES = SOAK_MINUTES ? 1_000_000 : Number(process.env.FAULT_HISTORIES ?? 200);
/**
 * Histories run one after another under one shop, then checked together once the streams caught
 * up: a drain and the shop's ledger and event log read once for BATCH of them (each read Queries
 * every list shard), as a merchant's many orders meet the consumers in shared batches.
 */
const BATCH = 8;
/** A history's commands: few enough to run 200 in a test file's time, enough to interleave every kind. */
const MAX_COMMANDS = 8;
/** The chance of a fault per SDK call while a history runs. */
const FAULT_RATE = 0.15;
/** `npm run reconcile` over the whole table (every history's client): every RECONCILE_EVERY histories, and at the end. */
const RECONCILE_EVERY = 25;

let service: Service;
let receiver: Receiver;
const plan = faultPlan(SEED, FAULT_RATE);
const totals = {
  histories: 0,
  calls: 0,
  retried: 0,
  races: 0,
  interleaved: 0,
  breaks: 0,
  faults: Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])) as Record<FaultKind, number>,
};
const counts: Counts = { unkept: 0, events: 0 };

beforeAll(async () => {
  service = await startService();
  receiver = await startReceiver();
  injectFaults(sharedDocumentClient(), plan);
  service.wrapStreamHandlers(streamFaults(plan));
}, 60_000);
afterAll(async () => {
  plan.on = false;
  await service.stop();
  await receiver.stop();
  console.log(
    `fault histories: ${totals.histories} histories, ${totals.calls} calls (${totals.retried} retried, ${counts.unkept} answers not kept), ${totals.races} races (${totals.interleaved} interleaved at the scheduler), ${counts.events} webhook events, faults ${JSON.stringify(totals.faults)}, breaks ${totals.breaks}, seed ${SEED}`,
  );
});

async function reconciled(): Promise<void> {
  const differences = await reconcile(service.tables.doc, service.tables.main);
  expect(differences.map(describeDifference), 'npm run reconcile finds nothing').toEqual([]);
}

/** A new shop for a batch of histories, with a webhook endpoint on the receiver that names it (faults off: not part of a history). */
async function newShop(): Promise<string> {
  const { client_id: clientId } = await service.newClient('Fault Shop');
  const endpoint = await service.call('webhook-endpoints', {
    method: 'POST',
    path: '/api/v2/webhook_endpoints',
    clientId,
    body: { url: `${receiver.url}/${clientId}` },
  });
  expect(endpoint.status, endpoint.body).toBe(201);
  return clientId;
}

/**
 * Cases that broke once, each replayed alone from the seed and path fast-check printed (the fault
 * plan is reseeded from the case, so it meets the same faults): kept as regressions of their fixes.
 */
const REGRESSIONS = [
  // A send still in flight when its batch failed was sent again by the batch given again (two requests, one attempt logged).
  { seed: 1_984_192_690, path: '3', races: false },
];

/**
 * fast-check's run of batches of BATCH histories from `seed`, each batch under a new shop, checked
 * once the streams caught up. A soak's time limit interrupts the case running then, but fast-check
 * cannot stop it: it is awaited to its end (its checks included) before the run returns, so the
 * last reconcile never meets its writes half-done, and a break in it is reported with its path.
 */
async function runHistories(seed: number, options: { numRuns: number; path?: string; minutes?: number; races?: boolean }): Promise<void> {
  const h: Harness = { service, plan, totals, inFlight: 0 };
  let runs = 0;
  let current: { path: string; done: Promise<unknown> } | undefined;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.commands(commands(h, { races: options.races ?? true }), { maxCommands: MAX_COMMANDS }), { minLength: BATCH, maxLength: BATCH }),
      (histories) => {
        // Shrinking happens only after a failure, which ends a soak's run first: a case's index is its path.
        const done = runBatch(h, seed, histories);
        current = { path: options.path ?? String(runs++), done };
        return done;
      },
    ),
    {
      numRuns: options.numRuns,
      seed,
      endOnFailure: true,
      ...(options.path ? { path: options.path } : {}),
      ...(options.minutes ? { interruptAfterTimeLimit: options.minutes * 60_000, markInterruptAsFailure: false } : {}),
    },
  );
  const last = current;
  if (last) {
    await last.done.catch((err: unknown) => {
      throw new Error(`the case running at the time limit broke (replay it: --seed ${seed} --path ${last.path})`, { cause: err });
    });
  }
}

/** One case: its BATCH histories under a new shop, with the faults its own commands seed, then checked together. */
async function runBatch(h: Harness, seed: number, histories: readonly Iterable<fc.AsyncCommand<Model, Real>>[]): Promise<void> {
  // The faults follow from the seed and the case itself: the case replayed alone (its path) meets the same ones.
  reseed(
    plan,
    createHash('sha256')
      .update(`${seed} ${histories.map(String).join(' | ')}`)
      .digest()
      .readUInt32BE(0),
  );
  const clientId = await newShop();
  const before = { ...plan.counts };
  const reals: Real[] = [];
  for (const [index, history] of histories.entries()) {
    const real: Real = { clientId, tag: `${clientId}.${index}`, orders: [], claims: [], remittances: [], answered: [], serial: 0 };
    reals.push(real);
    await fc.asyncModelRun(() => ({ model: { orders: 0, claims: 0, remittances: 0 }, real }), history);
  }
  await checkHistories(h, reals, receiver, counts);
  const reconcileDue = Math.floor((totals.histories + BATCH) / RECONCILE_EVERY) > Math.floor(totals.histories / RECONCILE_EVERY);
  totals.histories += BATCH;
  if (reconcileDue) await reconciled();
  for (const kind of FAULT_KINDS) totals.faults[kind] += plan.counts[kind] - before[kind];
}

describe('histories under faults', () => {
  it(
    `hold money, replays, the ledger and the webhooks through ${SOAK_MINUTES ? `${SOAK_MINUTES} minutes of` : HISTORIES} histories`,
    async () => {
      const path = process.env.FAULT_PATH;
      // A break stops the run (fast-check prints its seed and path: FAULT_SEED and FAULT_PATH replay that case alone).
      await runHistories(SEED, { numRuns: path ? 1 : Math.ceil(HISTORIES / BATCH), ...(path ? { path } : {}), minutes: SOAK_MINUTES }).catch((err: unknown) => {
        totals.breaks++;
        throw err;
      });
      await reconciled();
      expect(totals.faults.lost_answer + totals.faults.throttle + totals.faults.conflict).toBeGreaterThan(0);
    },
    SOAK_MINUTES ? (SOAK_MINUTES + 30) * 60_000 : 900_000,
  );

  it.skipIf(SOAK_MINUTES > 0 || process.env.FAULT_PATH)(
    'hold in the cases that once broke, replayed alone with their faults',
    async () => {
      for (const { seed, path, races } of REGRESSIONS) await runHistories(seed, { numRuns: 1, path, races });
    },
    300_000,
  );
});
