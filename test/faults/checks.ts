import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { PASSING_CONFLICTS } from '#shared/platform/http/idempotency.js';
import type { Receiver } from '../support/receiver.js';
import type { HandlerResult } from '../support/service.js';
import { isInProgress, request, settled, type Call, type Harness, type Real } from './commands.js';

/**
 * What must hold after every history of the fault suite, checked with the faults off:
 * no 500 where a retry was possible; every checkout answered 201; every keyed call replays as it
 * was answered; each movement of money (a premium written, changed or refunded, a claim approved
 * or paid, a remittance received or reversed) has exactly one ledger entry; every event reached
 * the merchant's receiver, each order's in order, and each request it got is an attempt in the log.
 */

/** Drains of the streams after a batch of histories, while consumers fail (each fault is a coin flip: 30 in a row do not happen). */
const MAX_DRAINS = 30;
/**
 * The chance of a fault per SDK call of a stream consumer. A consumer's batch makes tens of calls
 * and any fault fails it whole (Lambda then gives it again), so the histories' rate would fail
 * nearly every batch: this one fails about one in three.
 */
const CONSUMER_FAULT_RATE = 0.01;
/** Runs of the retry sweep after the drains until every event is delivered (a delivery whose first try failed is due again at once: WEBHOOK_RETRY_SCALE). */
const MAX_SWEEPS = 10;
/** Pages of a list read by the checks (100 a page): far above what a history of a few commands makes. */
const MAX_PAGES = 20;

export interface Counts {
  /** Answers whose record could not be kept (a "maybe" for its lock's 30 seconds): replays that met `request_in_progress`. */
  unkept: number;
  events: number;
}

/** Every item of a list route, page by page (the merchant's or the staff's), with the faults off. */
async function listAll<T>(h: Harness, real: Real, call: Call): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await h.service.call(call.fn, request(real, { ...call, query: { ...call.query, limit: '100', ...(cursor ? { cursor } : {}) } }));
    expect(res.status, `${call.path}: ${res.body}`).toBe(200);
    all.push(...(res.json.data as T[]));
    cursor = res.json.next_cursor ?? undefined;
    if (!cursor) return all;
  }
  throw new Error(`${call.path}: more than ${MAX_PAGES} pages`);
}

/**
 * The streams caught up, with the consumers' batches and their SDK calls failing: a batch whose
 * handler threw (it died mid-batch, or an SDK call failed) is given again by the next drain, as
 * Lambda retries it.
 */
async function drain(h: Harness): Promise<void> {
  const rate = h.plan.rate;
  Object.assign(h.plan, { streams: true, on: true, rate: CONSUMER_FAULT_RATE });
  try {
    for (let drain = 1; ; drain++) {
      try {
        await h.service.drainStreams();
        return;
      } catch (err) {
        if (drain >= MAX_DRAINS) throw err;
      }
    }
  } finally {
    Object.assign(h.plan, { streams: false, on: false, rate });
  }
}

type Entry = { type: string; policy_number: string | null; claim_id: string | null; reference: string | null };
type LoggedEvent = { id: string; type: string; created: string; data: { service_order_id?: string }; delivery_success: boolean | null };

/** A movement of money as `type subject`: a premium's policy, a claim, a remittance's reference. */
const movementOf = (entry: Entry) =>
  `${entry.type} ${entry.type.startsWith('claim_') ? entry.claim_id : entry.type.startsWith('remittance_') ? entry.reference : entry.policy_number}`;

/** The movements the records say happened, each once: from the policies, the claims (the staff's search) and the remittances. */
async function movements(h: Harness, reals: readonly Real[]): Promise<string[]> {
  const moved: string[] = [];
  const real = reals[0]!;
  for (const order of reals.flatMap((r) => r.orders)) {
    const page = await h.service.tables.doc.send(
      new QueryCommand({
        TableName: h.service.tables.main,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': `CLIENT#${real.clientId}#ORDER#${order.id}` },
      }),
    );
    for (const item of (page.Items ?? []).filter((record) => record.entity === 'item')) {
      const policy = item.policy as { policy_number: string; change_type?: string; history: { status: string }[] };
      moved.push(`${policy.change_type ? 'premium_adjusted' : 'premium_written'} ${policy.policy_number}`);
      if (policy.history.some((step) => step.status === 'Void')) moved.push(`premium_refunded ${policy.policy_number}`);
    }
    const claims = await listAll<{ claim_id: string; status: string }>(h, real, {
      fn: 'claims-admin',
      method: 'GET',
      path: '/api/v2/admin/claims',
      as: 'staff',
      query: { client_id: real.clientId, order_number: order.number },
    });
    for (const claim of claims) {
      if (claim.status === 'Approved' || claim.status === 'Paid') moved.push(`claim_approved ${claim.claim_id}`);
      if (claim.status === 'Paid') moved.push(`claim_paid ${claim.claim_id}`);
    }
  }
  const remittances = await listAll<{ reference: string; reversal: unknown }>(h, real, {
    fn: 'admin-collections',
    method: 'GET',
    path: `/api/v2/admin/clients/${real.clientId}/remittances`,
    as: 'staff',
  });
  for (const remittance of remittances) {
    moved.push(`remittance_received ${remittance.reference}`);
    if (remittance.reversal) moved.push(`remittance_reversed ${remittance.reference}`);
  }
  return moved.sort();
}

/**
 * Whether a key keeps an answer (shared/platform/http/idempotency.ts): a success, a 404, a 409 no
 * later state changes. A 422 and a passing conflict (an open claim, a concurrent change) are not
 * kept: the same request runs again and may succeed.
 */
const kept = (answer: HandlerResult) =>
  answer.status < 400 || answer.status === 404 || (answer.status === 409 && !PASSING_CONFLICTS.has(String(answer.json?.error?.code)));

/** Every keyed call whose answer was kept, sent again with its key, answers the same. */
async function replays(h: Harness, real: Real, counts: Counts): Promise<void> {
  for (const { answer, tries: _tries, ...call } of real.answered.filter((c) => c.key !== undefined && settled(c.answer) && kept(c.answer))) {
    const again: HandlerResult = await h.service.call(call.fn, request(real, call));
    // An answer whose record could not be kept (its writes failed COMPLETE_ATTEMPTS times) is a
    // "maybe" for its lock's 30 seconds: 409 request_in_progress, then the request runs again.
    if (isInProgress(again)) {
      counts.unkept++;
      continue;
    }
    expect({ status: again.status, body: again.json }, `replay of ${call.method} ${call.path}`).toEqual({ status: answer.status, body: answer.json });
  }
}

/**
 * The merchant's receiver got every event of the log (by `webhook-id`), each order's events in the
 * order they happened, and every request it got is an attempt in the event's log.
 */
async function webhooks(h: Harness, real: Real, receiver: Receiver, counts: Counts): Promise<void> {
  let events: LoggedEvent[] = [];
  for (let sweep = 0; sweep <= MAX_SWEEPS; sweep++) {
    events = await listAll<LoggedEvent>(h, real, { fn: 'events', method: 'GET', path: '/api/v2/events' });
    if (events.every((event) => event.delivery_success === true)) break;
    await h.service.runScheduled('webhooks-retry');
  }
  counts.events += events.length;
  expect(
    events.filter((event) => event.delivery_success !== true).map((event) => `${event.type} ${event.id}: ${event.delivery_success}`),
    'every event delivered',
  ).toEqual([]);

  const mine = receiver.received.filter((delivery) => delivery.url.endsWith(`/${real.clientId}`));
  const ids = mine.map((delivery) => String(delivery.headers['webhook-id']));
  expect([...new Set(ids)].sort(), 'the receiver got exactly the events of the log').toEqual(events.map((event) => event.id).sort());

  // Each order's events reached the receiver in the order they happened (first receipts; a repeat carries the same id).
  const byId = new Map(events.map((event) => [event.id, event]));
  const firsts = [...new Set(ids)].map((id) => byId.get(id)!);
  const orders = new Set(firsts.map((event) => event.data.service_order_id));
  for (const order of orders) {
    const created = firsts.filter((event) => event.data.service_order_id === order).map((event) => event.created);
    expect(created, `the events of order ${order} in order`).toEqual([...created].sort());
  }

  // The log shows every request the receiver got: as many attempts per event as requests with its id.
  for (const event of events) {
    const res = await h.service.call('events', request(real, { fn: 'events', method: 'GET', path: `/api/v2/events/${event.id}` }));
    expect(res.status, res.body).toBe(200);
    const attempts = res.json.attempts as unknown[];
    expect(
      attempts.length,
      `attempts of ${event.type} ${event.id} against requests received: ${JSON.stringify(res.json.deliveries)} ${JSON.stringify(attempts)}`,
    ).toBe(ids.filter((id) => id === event.id).length);
  }
}

/**
 * The checks after a batch of histories, all of one shop (`reals`, in the order they ran): each
 * history's answers and replays, then, once the streams caught up, the shop's ledger and webhooks
 * against what all of them did (their orders, claims and payments are their own).
 */
export async function checkHistories(h: Harness, reals: readonly Real[], receiver: Receiver, counts: Counts): Promise<void> {
  const answered = reals.flatMap((real) => real.answered);
  const broken = answered.filter((call) => call.answer.status >= 500 && call.answer.status !== 503);
  expect(
    broken.map((call) => `${call.method} ${call.path} → ${call.answer.status} ${call.answer.body}`),
    'no 500 where a retry was possible',
  ).toEqual([]);

  // A checkout's order number is new, so its answer is 201 whatever failed on the way (an order_exists
  // would be a retry after a lost answer run again, not replayed).
  const checkouts = answered.filter((call) => call.fn === 'orders-create' && settled(call.answer));
  expect(
    checkouts.filter((call) => call.answer.status !== 201).map((call) => `${call.answer.status} ${call.answer.body}`),
    'every checkout answered 201',
  ).toEqual([]);

  for (const real of reals) await replays(h, real, counts);
  await drain(h);

  const shop = reals[0]!;
  const ledger = await listAll<Entry>(h, shop, { fn: 'ledger-read', method: 'GET', path: '/api/v2/ledger' });
  expect(ledger.map(movementOf).sort(), 'each movement of money has exactly one ledger entry').toEqual(await movements(h, reals));

  await webhooks(h, shop, receiver, counts);
}
