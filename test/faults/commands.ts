import fc from 'fast-check';
import type { FaultPlan } from '../support/faults.js';
import type { FunctionName, HandlerResult, Service } from '../support/service.js';

/**
 * The fault histories' commands (fast-check `commands`): what a merchant's back-end, a customer and
 * the insurer's staff do, each through the real handler, with the SDK's faults on while it runs.
 * A call answered 429 or 503 (or 409 `request_in_progress`) is a "maybe": it is sent again, the
 * same, as docs/api.md tells callers to, at most MAX_TRIES times. Calls with an Idempotency-Key are
 * kept to be replayed (by the Replay command, with faults, and by the checks, without).
 */

/** Tries of one request (the first included) while it is answered 429 or 503. */
export const MAX_TRIES = 8;

export const CURRENCIES = { USD: ['120.00', '35.50', '80.00'], JPY: ['15000', '4500', '9800'], KWD: ['36.500', '10.750', '5.125'] } as const;
export type Currency = keyof typeof CURRENCIES;

export interface Call {
  fn: FunctionName;
  method: 'POST' | 'PATCH' | 'GET';
  path: string;
  body?: unknown;
  /** The Idempotency-Key; a call without one is not replayed. */
  key?: string;
  /** Who calls: the merchant's back-end (its client id), the insurer's staff (the operator key), a customer (nothing, or a claim token). */
  as?: 'client' | 'staff' | 'customer' | { bearer: string };
  query?: Record<string, string>;
}
export interface Answered extends Call {
  answer: HandlerResult;
  tries: number;
}
/** One history's doings, under its shop (histories of a batch share one shop, each with its own orders, claims and payments). */
export interface Real {
  clientId: string;
  /** Names the history's order numbers, references and keys apart from the other histories of its shop. */
  tag: string;
  orders: { id: string; number: string; email: string; currency: Currency; refs: string[]; policies: string[]; costs: string[] }[];
  claims: { id: string; amount: string }[];
  remittances: string[];
  answered: Answered[];
  serial: number;
}
export type Model = { orders: number; claims: number; remittances: number };

export interface Totals {
  calls: number;
  retried: number;
  /** Races run (two commands at once) and, of them, those in which two calls waited at the scheduler's gate together. */
  races: number;
  interleaved: number;
}

/** What the commands run against: the service, the fault plan (on while a call runs) and the run's totals. */
export interface Harness {
  service: Service;
  plan: FaultPlan;
  totals: Totals;
  /** Calls under way (two at once in a race): the SDK's faults are on while any is. */
  inFlight: number;
}

export const isInProgress = (answer: HandlerResult) => answer.status === 409 && answer.json?.error?.code === 'request_in_progress';
/** An answer that is not a "maybe": what the call did is known. */
export const settled = (answer: HandlerResult) => answer.status < 500 && answer.status !== 429 && !isInProgress(answer);
export const keyOf = (real: Real, what: string) => `${what}-${real.tag}-${real.serial++}`;

/** The call as the service's event: its caller, its key. */
export function request(real: Real, call: Call) {
  const as = call.as ?? 'client';
  const headers: Record<string, string> = {
    ...(call.key ? { 'idempotency-key': call.key } : {}),
    ...(typeof as === 'object' ? { authorization: `Bearer ${as.bearer}` } : {}),
  };
  return {
    method: call.method,
    path: call.path,
    headers,
    ...(as === 'client' ? { clientId: real.clientId } : {}),
    ...(as === 'staff' ? { operator: 'fault-suite' } : {}),
    ...(call.body === undefined ? {} : { body: call.body }),
    ...(call.query ? { query: call.query } : {}),
  };
}

/** Sends a call until it is not a "maybe" (429, 503), at most MAX_TRIES times, with the SDK's faults on. */
export async function send(h: Harness, real: Real, call: Call): Promise<HandlerResult> {
  let answer: HandlerResult | undefined;
  let tries = 0;
  h.inFlight++;
  h.plan.on = true;
  try {
    do {
      tries++;
      answer = await h.service.call(call.fn, request(real, call));
    } while (!settled(answer) && answer.status !== 500 && tries < MAX_TRIES);
  } finally {
    if (--h.inFlight === 0) h.plan.on = false;
  }
  h.totals.calls++;
  if (tries > 1) h.totals.retried++;
  real.answered.push({ ...call, answer, tries });
  return answer;
}

/** A preview, then (when it is one) its confirm, each a call of its own. */
async function previewThenConfirm(h: Harness, real: Real, preview: Call): Promise<void> {
  const answer = await send(h, real, preview);
  if (answer.status !== 200) return;
  const id = (answer.json as { cancellation_id: string }).cancellation_id;
  await send(h, real, { fn: 'cancellations-confirm', method: 'POST', path: `/api/v2/cancellations/${id}/confirm`, key: keyOf(real, 'confirm') });
}

type Command = fc.AsyncCommand<Model, Real>;

class Checkout implements Command {
  constructor(
    readonly h: Harness,
    readonly currency: Currency,
    readonly count: number,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const number = keyOf(real, 'order');
    const email = `${number}@example.org`;
    const costs = CURRENCIES[this.currency].slice(0, this.count);
    const items = costs.map((cost, i) => ({
      name: `Seat ${i}`,
      reference_number: `s${i}`,
      cost,
      event: { name: 'Gala', start_date: '2027-04-10', start_time: '19:30', location: 'Hall' },
    }));
    const answer = await send(this.h, real, {
      fn: 'orders-create',
      method: 'POST',
      path: '/api/v2/orders',
      body: { order_number: number, currency: this.currency, items, customer: { first_name: 'Fay', last_name: 'Ault', email } },
      key: number,
    });
    if (answer.status === 201) {
      const json = answer.json as { service_order_id: string; policies: { policy_number: string }[] };
      real.orders.push({
        id: json.service_order_id,
        number,
        email,
        currency: this.currency,
        refs: items.map((i) => i.reference_number),
        policies: json.policies.map((p) => p.policy_number),
        costs: [...costs],
      });
      model.orders++;
    }
  }
  toString = () => `checkout(${this.currency}×${this.count})`;
}

class Change implements Command {
  constructor(
    readonly h: Harness,
    readonly order: number,
    readonly item: number,
    readonly cost: number,
    readonly newDate: boolean,
  ) {}
  check = (model: Readonly<Model>) => model.orders > 0;
  async run(_: Model, real: Real) {
    const order = real.orders[this.order % real.orders.length]!;
    const old = order.refs[this.item % order.refs.length]!;
    const reference = keyOf(real, 'r');
    const cost = CURRENCIES[order.currency][this.cost % 3]!;
    const event = this.newDate ? { event: { name: 'Gala', start_date: '2027-05-08', start_time: '20:00', location: 'Hall' } } : {};
    const answer = await send(this.h, real, {
      fn: 'orders-change',
      method: 'PATCH',
      path: `/api/v2/orders/${order.id}`,
      body: { items: [{ name: 'Moved', old_reference_number: old, reference_number: reference, cost, ...event }] },
      key: keyOf(real, 'change'),
    });
    if (answer.status === 200) order.refs.push(reference);
  }
  toString = () => `change(order ${this.order}, item ${this.item}, cost ${this.cost}${this.newDate ? ', new date' : ''})`;
}

class CancelOrder implements Command {
  constructor(
    readonly h: Harness,
    readonly order: number,
    readonly mode: 'cancel' | 'void',
    readonly preview: boolean,
  ) {}
  check = (model: Readonly<Model>) => model.orders > 0;
  async run(_: Model, real: Real) {
    const order = real.orders[this.order % real.orders.length]!;
    const path = `/api/v2/orders/${order.id}/cancel`;
    if (!this.preview) {
      await send(this.h, real, { fn: 'orders-cancel', method: 'POST', path, body: { mode: this.mode }, key: keyOf(real, 'cancel') });
      return;
    }
    await previewThenConfirm(this.h, real, {
      fn: 'orders-cancel',
      method: 'POST',
      path,
      body: { mode: this.mode, preview: true },
      key: keyOf(real, 'preview'),
    });
  }
  toString = () => `${this.preview ? 'preview+confirm ' : ''}${this.mode}(order ${this.order})`;
}

class SettlePolicy implements Command {
  constructor(
    readonly h: Harness,
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
      await send(this.h, real, { fn: 'policies-settle', method: 'POST', path, body: { reason: 'customer_request' }, key: keyOf(real, 'settle') });
      return;
    }
    await previewThenConfirm(this.h, real, { fn: 'policies-settle', method: 'POST', path, body: { preview: true }, key: keyOf(real, 'preview') });
  }
  toString = () => `${this.preview ? 'preview+confirm ' : ''}${this.action}(order ${this.order}, policy ${this.policy})`;
}

/**
 * A customer claims one policy of an order: a session by what they know, then the claim. A filing
 * whose answer was lost is sent again and meets its own claim (409 `claim_open`): the claim is
 * found by the checks, through the staff's search by order number, not decided here.
 */
class FileClaim implements Command {
  constructor(
    readonly h: Harness,
    readonly order: number,
    readonly policy: number,
  ) {}
  check = (model: Readonly<Model>) => model.orders > 0;
  async run(model: Model, real: Real) {
    const order = real.orders[this.order % real.orders.length]!;
    const session = await send(this.h, real, {
      fn: 'claims-session',
      method: 'POST',
      path: '/api/v2/claims/sessions',
      as: 'customer',
      body: { order_number: order.number, email: order.email, client_id: real.clientId },
    });
    if (session.status !== 201) return;
    const bearer = (session.json as { claim_token: string }).claim_token;
    const index = this.policy % order.policies.length;
    const filed = await send(this.h, real, {
      fn: 'claims-customer',
      method: 'POST',
      path: '/api/v2/claims',
      as: { bearer },
      body: { policy_numbers: [order.policies[index]], reason: 'illness', description: 'Fever the night before the gala.' },
    });
    if (filed.status !== 201) return;
    real.claims.push({ id: (filed.json as { claim_id: string }).claim_id, amount: order.costs[index] ?? order.costs[0]! });
    model.claims++;
  }
  toString = () => `claim(order ${this.order}, policy ${this.policy})`;
}

/** The claims team decides a claim: approve (the whole claimed amount, or less), or deny. */
class Decide implements Command {
  constructor(
    readonly h: Harness,
    readonly claim: number,
    readonly decision: 'approve' | 'deny',
  ) {}
  check = (model: Readonly<Model>) => model.claims > 0;
  async run(_: Model, real: Real) {
    const claim = real.claims[this.claim % real.claims.length]!;
    await send(this.h, real, {
      fn: 'claims-admin',
      method: 'POST',
      path: `/api/v2/admin/claims/${claim.id}/decision`,
      as: 'staff',
      body: this.decision === 'approve' ? { decision: 'approve', amount: claim.amount } : { decision: 'deny', note: 'Not covered.' },
    });
  }
  toString = () => `${this.decision}(claim ${this.claim})`;
}

/** Finance records the payout of an approved claim. */
class PayClaim implements Command {
  constructor(
    readonly h: Harness,
    readonly claim: number,
  ) {}
  check = (model: Readonly<Model>) => model.claims > 0;
  async run(_: Model, real: Real) {
    const claim = real.claims[this.claim % real.claims.length]!;
    await send(this.h, real, {
      fn: 'claims-admin',
      method: 'POST',
      path: `/api/v2/admin/claims/${claim.id}/paid`,
      as: 'staff',
      body: { payout_reference: `po-${claim.id}` },
    });
  }
  toString = () => `pay(claim ${this.claim})`;
}

/** Finance records a merchant's payment (idempotent by its reference: a retry with the same body answers the first). */
class Remit implements Command {
  constructor(
    readonly h: Harness,
    readonly currency: Currency,
    readonly amount: number,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const reference = keyOf(real, 'RM');
    const answer = await send(this.h, real, {
      fn: 'admin-collections',
      method: 'POST',
      path: `/api/v2/admin/clients/${real.clientId}/remittances`,
      as: 'staff',
      body: { currency: this.currency, amount: CURRENCIES[this.currency][this.amount % 3], reference, received_on: new Date().toISOString().slice(0, 10) },
    });
    if (answer.status === 201) {
      real.remittances.push(reference);
      model.remittances++;
    }
  }
  toString = () => `remit(${this.currency} ${this.amount})`;
}

/** Finance reverses a payment that bounced (again answers the same). */
class Reverse implements Command {
  constructor(
    readonly h: Harness,
    readonly pick: number,
  ) {}
  check = (model: Readonly<Model>) => model.remittances > 0;
  async run(_: Model, real: Real) {
    const reference = real.remittances[this.pick % real.remittances.length]!;
    await send(this.h, real, {
      fn: 'admin-collections',
      method: 'POST',
      path: `/api/v2/admin/clients/${real.clientId}/remittances/reverse`,
      as: 'staff',
      body: { reference, reason: 'The transfer bounced.' },
    });
  }
  toString = () => `reverse(remittance ${this.pick})`;
}

/** Sends an earlier keyed call again with its key, faults on: it is a replay, whatever happened since. */
class Replay implements Command {
  constructor(
    readonly h: Harness,
    readonly pick: number,
  ) {}
  check = (model: Readonly<Model>) => model.orders > 0;
  async run(_: Model, real: Real) {
    const earlier = real.answered.filter((call) => call.key !== undefined && settled(call.answer));
    if (earlier.length === 0) return;
    const { answer: _answer, tries: _tries, ...call } = earlier[this.pick % earlier.length]!;
    await send(this.h, real, call);
  }
  toString = () => `replay(${this.pick})`;
}

/**
 * Two commands at once: a merchant's change racing its own cancel, the staff's decision racing a
 * customer's void, a replay racing the call it repeats. fast-check's scheduler picks, before each
 * DynamoDB call either makes, which of the waiting calls goes on (the fault plan's gate), so the
 * race's interleaving is drawn like the rest of the history. DynamoDB Local answers in real time:
 * which calls wait together at a gate can vary, so a replayed race meets the same choices, not
 * always the same interleaving.
 */
/** Calls released after a race ended: far above any command's DynamoDB calls. */
const MAX_LATE_CALLS = 100;

class Together implements Command {
  constructor(
    readonly h: Harness,
    readonly scheduler: fc.Scheduler,
    readonly first: Command,
    readonly second: Command,
  ) {}
  check = (model: Readonly<Model>) => this.first.check(model) && this.second.check(model);
  async run(model: Model, real: Real) {
    // Counts only grow, so what one of the two does never breaks the other's precondition.
    let met = false;
    this.h.plan.gate = () => {
      // Another call already waits: the scheduler, not arrival, chooses which of the two goes on.
      if (this.scheduler.count() > 0) met = true;
      return this.scheduler.schedule(Promise.resolve(), 'DynamoDB call');
    };
    try {
      // Both run to their end even when one fails, so that no call of the other stays at the gate.
      const results = await this.scheduler.waitFor(Promise.allSettled([this.first.run(model, real), this.second.run(model, real)]));
      const failed = results.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
    } finally {
      this.h.plan.gate = undefined;
      // A call that reached the gate after both commands ended (one neither awaited) goes on rather than hang unseen.
      for (let left = MAX_LATE_CALLS; left > 0 && this.scheduler.count() > 0; left--) await this.scheduler.waitOne();
    }
    this.h.totals.races++;
    if (met) this.h.totals.interleaved++;
  }
  toString = () => `together(${String(this.first)}, ${String(this.second)})`;
}

/**
 * The commands a history is drawn from. `races: false` leaves out Together: the cases found before
 * races existed were drawn from that set, and their seed and path replay them only from it.
 */
/** fast-check picks among the arbitraries alike: listed this often beside the 10 single commands, about one pick in four is a race. */
const RACE_COPIES = 3;

export function commands(h: Harness, options: { races: boolean } = { races: true }) {
  const one = single(h);
  if (!options.races) return one;
  const race = fc.tuple(fc.scheduler(), fc.oneof(...one), fc.oneof(...one)).map(([scheduler, first, second]) => new Together(h, scheduler, first, second));
  return [...one, ...Array.from({ length: RACE_COPIES }, () => race)];
}

function single(h: Harness): fc.Arbitrary<Command>[] {
  const nat = (max: number) => fc.nat(max);
  const mode = fc.constantFrom<'cancel' | 'void'>('cancel', 'void');
  return [
    fc.tuple(fc.constantFrom<Currency>('USD', 'JPY', 'KWD'), fc.integer({ min: 1, max: 3 })).map(([currency, count]) => new Checkout(h, currency, count)),
    fc.tuple(nat(9), nat(9), nat(2), fc.boolean()).map(([order, item, cost, date]) => new Change(h, order, item, cost, date)),
    fc.tuple(nat(9), mode, fc.boolean()).map(([order, how, preview]) => new CancelOrder(h, order, how, preview)),
    fc.tuple(nat(9), nat(9), mode, fc.boolean()).map(([order, policy, how, preview]) => new SettlePolicy(h, order, policy, how, preview)),
    fc.tuple(nat(9), nat(9)).map(([order, policy]) => new FileClaim(h, order, policy)),
    fc.tuple(nat(9), fc.constantFrom<'approve' | 'deny'>('approve', 'approve', 'deny')).map(([claim, decision]) => new Decide(h, claim, decision)),
    nat(9).map((claim) => new PayClaim(h, claim)),
    fc.tuple(fc.constantFrom<Currency>('USD', 'JPY', 'KWD'), nat(2)).map(([currency, amount]) => new Remit(h, currency, amount)),
    nat(9).map((pick) => new Reverse(h, pick)),
    nat(99).map((pick) => new Replay(h, pick)),
  ];
}
