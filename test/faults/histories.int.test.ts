import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { describeDifference, reconcile } from '../../scripts/reconcile.js';
import { DIED_MID_BATCH, FAULT_KINDS, faultPlan, injectFaults, streamFaults, type FaultKind } from '../support/faults.js';
import { startService, type FunctionName, type HandlerResult, type Service } from '../support/service.js';

/**
 * Proof under faults (docs/reliability.md): random histories of checkouts, changes (to another
 * date too), cancels, voids, previews and their confirms, and Idempotency-Key replays, through
 * the real handlers on DynamoDB Local while the SDK throttles calls, loses the answers of
 * committed writes and cancels transactions for conflicts. A call answered 429 or 503 is a
 * "maybe": the client retries it with the same key, as docs/api.md tells merchants to. After each
 * history, with the faults off: no answer was a 500; every keyed call replays as it was answered;
 * `npm run reconcile` finds nothing; every movement of money has exactly one ledger entry.
 *
 * `npm test` runs HISTORIES histories from a fixed seed; `npm run soak -- --minutes N` runs new
 * seeds for N minutes and prints the seed of a failure (FAULT_SEED=<seed> replays it).
 */
process.env.WEBHOOK_URLS = 'local';

const SOAK_MINUTES = Number(process.env.FAULT_SOAK_MINUTES ?? 0);
const SEED = process.env.FAULT_SEED ? Number(process.env.FAULT_SEED) : SOAK_MINUTES ? Date.now() ^ (Math.random() * 2 ** 31) : 20_261_128;
const HISTORIES = SOAK_MINUTES ? 1_000_000 : Number(process.env.FAULT_HISTORIES ?? 100);
/** A history's calls: few enough to run 200 in a test file's time, enough to interleave every kind. */
const MAX_COMMANDS = 8;
/** The chance of a fault per SDK call while a history runs. */
const FAULT_RATE = 0.15;
/** Drains of the streams after a history, while consumers die mid-batch (each fault is a coin flip: 30 in a row do not happen). */
const MAX_DRAINS = 30;
/** Tries of one request (the first included) while it is answered 429 or 503. */
const MAX_TRIES = 8;

const CURRENCIES = { USD: ['120.00', '35.50', '80.00'], JPY: ['15000', '4500', '9800'], KWD: ['36.500', '10.750', '5.125'] } as const;
type Currency = keyof typeof CURRENCIES;

interface Call {
  fn: FunctionName;
  method: 'POST' | 'PATCH';
  path: string;
  body?: unknown;
  key: string;
}
interface Answered extends Call {
  answer: HandlerResult;
  tries: number;
}
interface Real {
  clientId: string;
  orders: { id: string; currency: Currency; refs: string[]; policies: string[] }[];
  answered: Answered[];
  serial: number;
}
type Model = { orders: number };

let service: Service;
const plan = faultPlan(SEED, FAULT_RATE);
const totals = { histories: 0, calls: 0, retried: 0, unkept: 0, faults: Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])) as Record<FaultKind, number> };

beforeAll(async () => {
  service = await startService();
  injectFaults(sharedDocumentClient(), plan);
  service.wrapStreamHandlers(streamFaults(plan));
}, 60_000);
afterAll(async () => {
  plan.on = false;
  await service.stop();
  console.log(
    `fault histories: ${totals.histories} histories, ${totals.calls} calls (${totals.retried} retried, ${totals.unkept} answers not kept), faults ${JSON.stringify(totals.faults)}, seed ${SEED}`,
  );
});

/** Sends a call with its Idempotency-Key until it is not a "maybe" (429, 503), at most MAX_TRIES times. */
async function send(real: Real, call: Call): Promise<HandlerResult> {
  let answer: HandlerResult | undefined;
  let tries = 0;
  plan.on = true;
  try {
    do {
      tries++;
      answer = await service.call(call.fn, {
        method: call.method,
        path: call.path,
        clientId: real.clientId,
        headers: { 'idempotency-key': call.key },
        ...(call.body === undefined ? {} : { body: call.body }),
      });
    } while ((answer.status === 429 || answer.status === 503 || isInProgress(answer)) && tries < MAX_TRIES);
  } finally {
    plan.on = false;
  }
  totals.calls++;
  if (tries > 1) totals.retried++;
  real.answered.push({ ...call, answer, tries });
  return answer;
}
/** A preview, then (when it is one) its confirm, each a call of its own. */
async function previewThenConfirm(real: Real, preview: Call): Promise<void> {
  const answer = await send(real, preview);
  if (answer.status !== 200) return;
  const id = (answer.json as { cancellation_id: string }).cancellation_id;
  await send(real, { fn: 'cancellations-confirm', method: 'POST', path: `/api/v2/cancellations/${id}/confirm`, key: key(real, 'confirm') });
}
const isInProgress = (answer: HandlerResult) => answer.status === 409 && answer.json?.error?.code === 'request_in_progress';
const key = (real: Real, what: string) => `${what}-${real.clientId}-${real.serial++}`;

class Checkout implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly currency: Currency,
    readonly count: number,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const number = key(real, 'order');
    const costs = CURRENCIES[this.currency].slice(0, this.count);
    const items = costs.map((cost, i) => ({
      name: `Seat ${i}`,
      reference_number: `s${i}`,
      cost,
      event: { name: 'Gala', start_date: '2027-04-10', start_time: '19:30', location: 'Hall' },
    }));
    const answer = await send(real, {
      fn: 'orders-create',
      method: 'POST',
      path: '/api/v2/orders',
      body: { order_number: number, currency: this.currency, items },
      key: number,
    });
    if (answer.status === 201) {
      const json = answer.json as { service_order_id: string; policies: { policy_number: string }[] };
      real.orders.push({
        id: json.service_order_id,
        currency: this.currency,
        refs: items.map((i) => i.reference_number),
        policies: json.policies.map((p) => p.policy_number),
      });
      model.orders++;
    }
  }
  toString = () => `checkout(${this.currency}×${this.count})`;
}

class Change implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly order: number,
    readonly item: number,
    readonly cost: number,
    readonly newDate: boolean,
  ) {}
  check = (model: Readonly<Model>) => model.orders > 0;
  async run(_: Model, real: Real) {
    const order = real.orders[this.order % real.orders.length]!;
    const old = order.refs[this.item % order.refs.length]!;
    const reference = key(real, 'r');
    const cost = CURRENCIES[order.currency][this.cost % 3]!;
    const event = this.newDate ? { event: { name: 'Gala', start_date: '2027-05-08', start_time: '20:00', location: 'Hall' } } : {};
    const answer = await send(real, {
      fn: 'orders-change',
      method: 'PATCH',
      path: `/api/v2/orders/${order.id}`,
      body: { items: [{ name: 'Moved', old_reference_number: old, reference_number: reference, cost, ...event }] },
      key: key(real, 'change'),
    });
    if (answer.status === 200) order.refs.push(reference);
  }
  toString = () => `change(order ${this.order}, item ${this.item}, cost ${this.cost}${this.newDate ? ', new date' : ''})`;
}

class CancelOrder implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly order: number,
    readonly mode: 'cancel' | 'void',
    readonly preview: boolean,
  ) {}
  check = (model: Readonly<Model>) => model.orders > 0;
  async run(_: Model, real: Real) {
    const order = real.orders[this.order % real.orders.length]!;
    const path = `/api/v2/orders/${order.id}/cancel`;
    if (!this.preview) {
      await send(real, { fn: 'orders-cancel', method: 'POST', path, body: { mode: this.mode }, key: key(real, 'cancel') });
      return;
    }
    await previewThenConfirm(real, { fn: 'orders-cancel', method: 'POST', path, body: { mode: this.mode, preview: true }, key: key(real, 'preview') });
  }
  toString = () => `${this.preview ? 'preview+confirm ' : ''}${this.mode}(order ${this.order})`;
}

class SettlePolicy implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly order: number,
    readonly policy: number,
    readonly action: 'cancel' | 'void',
    readonly preview: boolean,
  ) {}
  check = (model: Readonly<Model>) => model.orders > 0;
  async run(_: Model, real: Real) {
    const order = real.orders[this.order % real.orders.length]!;
    const number = order.policies[this.policy % order.policies.length]!;
    const path = `/api/v2/policies/${number}/${this.action}`;
    if (!this.preview) {
      await send(real, { fn: 'policies-settle', method: 'POST', path, body: { reason: 'customer_request' }, key: key(real, 'settle') });
      return;
    }
    await previewThenConfirm(real, { fn: 'policies-settle', method: 'POST', path, body: { preview: true }, key: key(real, 'preview') });
  }
  toString = () => `${this.preview ? 'preview+confirm ' : ''}${this.action}(order ${this.order}, policy ${this.policy})`;
}

/** Sends an earlier call again with its key, faults on: it is a replay, whatever happened since. */
class Replay implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (model: Readonly<Model>) => model.orders > 0;
  async run(_: Model, real: Real) {
    const earlier = real.answered.filter((call) => settled(call.answer));
    if (earlier.length === 0) return;
    const call = earlier[this.pick % earlier.length]!;
    await send(real, { ...call, key: call.key });
  }
  toString = () => `replay(${this.pick})`;
}

const settled = (answer: HandlerResult) => answer.status < 500 && answer.status !== 429 && !isInProgress(answer);

const commands = [
  fc.tuple(fc.constantFrom<Currency>('USD', 'JPY', 'KWD'), fc.integer({ min: 1, max: 3 })).map(([currency, count]) => new Checkout(currency, count)),
  fc.tuple(fc.nat(9), fc.nat(9), fc.nat(2), fc.boolean()).map(([order, item, cost, date]) => new Change(order, item, cost, date)),
  fc
    .tuple(fc.nat(9), fc.constantFrom<'cancel' | 'void'>('cancel', 'void'), fc.boolean())
    .map(([order, mode, preview]) => new CancelOrder(order, mode, preview)),
  fc
    .tuple(fc.nat(9), fc.nat(9), fc.constantFrom<'cancel' | 'void'>('cancel', 'void'), fc.boolean())
    .map(([order, policy, action, preview]) => new SettlePolicy(order, policy, action, preview)),
  fc.nat(99).map((pick) => new Replay(pick)),
];

/** A ledger entry's identity: the movement it books (its policy and type). */
type Entry = { type: string; policy_number: string; amount: number };

/** The client's order items (each order's partition) and its month's ledger entries (through the API), after the streams caught up. */
async function recordsOf(real: Real): Promise<{ items: Record<string, unknown>[]; ledger: Entry[] }> {
  plan.streams = true;
  try {
    // A consumer that died mid-batch is given the batch again by the next drain, as Lambda retries it.
    for (let drain = 1; ; drain++) {
      try {
        await service.drainStreams();
        break;
      } catch (err) {
        if ((err as Error).message !== DIED_MID_BATCH || drain >= MAX_DRAINS) throw err;
      }
    }
  } finally {
    plan.streams = false;
  }
  const items: Record<string, unknown>[] = [];
  for (const order of real.orders) {
    const page = await service.tables.doc.send(
      new QueryCommand({
        TableName: service.tables.main,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': `CLIENT#${real.clientId}#ORDER#${order.id}` },
      }),
    );
    items.push(...(page.Items ?? []).filter((record) => record.entity === 'item'));
  }
  const ledger: Entry[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const res = await service.call('ledger-read', {
      method: 'GET',
      path: '/api/v2/ledger',
      clientId: real.clientId,
      query: { limit: '100', ...(cursor ? { cursor } : {}) },
    });
    expect(res.status, res.body).toBe(200);
    ledger.push(...(res.json.data as Entry[]));
    cursor = res.json.next_cursor ?? undefined;
    if (!cursor) break;
  }
  return { items, ledger };
}

/** The movements of money the policies made, each once: a sale, a change's difference, a void's refund. */
function movements(items: Record<string, unknown>[]): string[] {
  const moved: string[] = [];
  for (const item of items) {
    const policy = item.policy as { policy_number: string; change_type?: string; history: { status: string }[] };
    moved.push(`${policy.change_type ? 'premium_adjusted' : 'premium_written'} ${policy.policy_number}`);
    if (policy.history.some((step) => step.status === 'Void')) moved.push(`premium_refunded ${policy.policy_number}`);
  }
  return moved.sort();
}

async function checkHistory(real: Real): Promise<void> {
  const broken = real.answered.filter((call) => call.answer.status >= 500 && call.answer.status !== 503);
  expect(
    broken.map((call) => `${call.method} ${call.path} → ${call.answer.status} ${call.answer.body}`),
    'no 500 where a retry was possible',
  ).toEqual([]);

  // A checkout's order number is new, so its answer is 201 whatever failed on the way (an order_exists
  // would be a retry after a lost answer run again, not replayed).
  const checkouts = real.answered.filter((call) => call.fn === 'orders-create' && settled(call.answer));
  expect(
    checkouts.filter((call) => call.answer.status !== 201).map((call) => `${call.answer.status} ${call.answer.body}`),
    'every checkout answered 201',
  ).toEqual([]);

  // Every call that got its answer, sent again with its key, answers the same.
  for (const call of real.answered.filter((c) => settled(c.answer))) {
    const again = await service.call(call.fn, {
      method: call.method,
      path: call.path,
      clientId: real.clientId,
      headers: { 'idempotency-key': call.key },
      ...(call.body === undefined ? {} : { body: call.body }),
    });
    // An answer whose record could not be kept (its writes failed COMPLETE_ATTEMPTS times) is a
    // "maybe" for its lock's 30 seconds: 409 request_in_progress, then the request runs again.
    if (isInProgress(again)) {
      totals.unkept++;
      continue;
    }
    expect({ status: again.status, body: again.json }, `replay of ${call.method} ${call.path}`).toEqual({ status: call.answer.status, body: call.answer.json });
  }

  const { items, ledger } = await recordsOf(real);
  const booked = ledger.map((entry) => `${entry.type} ${entry.policy_number}`).sort();
  expect(booked, 'each movement of money has exactly one ledger entry').toEqual(movements(items));
}

/** `npm run reconcile` over the whole table (every history's client): every RECONCILE_EVERY histories, and at the end. */
const RECONCILE_EVERY = 25;
async function reconciled(): Promise<void> {
  const differences = await reconcile(service.tables.doc, service.tables.main);
  expect(differences.map(describeDifference), 'npm run reconcile finds nothing').toEqual([]);
}

describe('histories under faults', () => {
  it(
    `hold money, replays and the ledger through ${SOAK_MINUTES ? `${SOAK_MINUTES} minutes of` : HISTORIES} histories`,
    async () => {
      const deadline = Date.now() + SOAK_MINUTES * 60_000;
      await fc.assert(
        fc.asyncProperty(fc.commands(commands, { maxCommands: MAX_COMMANDS }), async (history) => {
          if (SOAK_MINUTES && Date.now() > deadline) return;
          const { client_id: clientId } = await service.newClient('Fault Shop');
          const real: Real = { clientId, orders: [], answered: [], serial: 0 };
          const before = { ...plan.counts };
          await fc.asyncModelRun(() => ({ model: { orders: 0 }, real }), history);
          await checkHistory(real);
          totals.histories++;
          if (totals.histories % RECONCILE_EVERY === 0) await reconciled();
          for (const kind of FAULT_KINDS) totals.faults[kind] += plan.counts[kind] - before[kind];
        }),
        { numRuns: HISTORIES, seed: SEED, endOnFailure: true },
      );
      await reconciled();
      expect(totals.faults.lost_answer + totals.faults.throttle + totals.faults.conflict).toBeGreaterThan(0);
    },
    SOAK_MINUTES ? (SOAK_MINUTES + 30) * 60_000 : 900_000,
  );
});
