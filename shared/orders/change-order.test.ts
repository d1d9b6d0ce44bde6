import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { EventInput } from '../platform/http/schemas.js';
import { AppError } from '../platform/errors.js';
import { changeOrder, planChanges, type ItemChange } from './change-order.js';
import { randomIds } from '../platform/ids.js';
import { formatMoney, maxItemCost, minorUnit } from '../platform/money/index.js';
import { premiumUnder } from '../terms/index.js';

/** A premium at a flat rate, as terms without a minimum price it (shared/terms: never below one minor unit, never above the cost). */
const premiumFor = (cost: number, ratePpm: number): number =>
  premiumUnder({ rate_bands: [{ rate_ppm: ratePpm }], minimum_premium: {} }, cost, 'USD', undefined);
import { MINOR_UNITS } from '../platform/money/currencies.generated.js';
import { isCurrent, type Order, type OrderItem } from './order.js';
import { ChangeRejectedError } from '../platform/errors.js';
import type { OrderStore } from './ports.js';
import type { LiveTerms } from '../terms/index.js';

/** PATCH rules on the pure planner, and the lineage invariants through the use case. */
const NOW = new Date('2026-11-23T10:00:00.000Z');

/** Version 1 of a client's terms at one flat rate, as a client from before versions has it. */
const flatTerms = (rate: number): LiveTerms => ({
  client_id: 'cl_1',
  version: 1,
  effective_from: NOW.toISOString(),
  rate_bands: [{ rate_ppm: rate }],
  minimum_premium: {},
  commission_ppm: 0,
  look_period_days: 14,
});
const TERMS = new Map([[1, flatTerms(85_000)]]);

function item(reference: string, cost: number, position = 0): OrderItem {
  return {
    id: `itm_${reference}`,
    position,
    reference_number: reference,
    name: reference,
    cost,
    event: null,
    created: NOW.toISOString(),
    policy: {
      policy_number: `OP-${reference}`,
      policy_number_new: `uuid-${reference}`,
      premium: premiumFor(cost, 85_000),
      coverage_amount: cost,
      status: 'Issued',
      history: [{ status: 'Issued', at: NOW.toISOString(), reason: 'order_created' }],
      created: NOW.toISOString(),
    },
  };
}

function order(...costs: number[]): Order {
  return orderIn('USD', ...costs);
}

function orderIn(currency: string, ...costs: number[]): Order {
  const items = costs.map((cost, i) => item(`r${i}`, cost, i));
  return {
    service_order_id: 'o-1',
    client_id: 'cl_1',
    order_number: 'N-1',
    currency,
    rate_ppm: 85_000,
    customer: null,
    created: NOW.toISOString(),
    updated: NOW.toISOString(),
    version: 1,
    items,
    subtotal: costs.reduce((a, b) => a + b, 0),
  };
}

const change = (old: string, ref: string, cost: number): ItemChange => ({
  name: ref,
  old_reference_number: old,
  reference_number: ref,
  cost: formatMoney(cost, 'USD'),
});

/** An OrderStore in memory with the same all-or-nothing, version-checked semantics as DynamoDB's. */
function memoryStore(initial: Order): Pick<OrderStore, 'create' | 'get' | 'applyChanges'> & { current(): Order } {
  let stored = structuredClone(initial);
  return {
    current: () => stored,
    create: async () => undefined,
    get: async (clientId, orderId) => (clientId === stored.client_id && orderId === stored.service_order_id ? structuredClone(stored) : undefined),
    applyChanges: async (before, changes, after) => {
      if (before.version !== stored.version) throw new ChangeRejectedError('stale');
      const replaced = new Map(changes.map((c) => [c.old.reference_number, c]));
      stored = {
        ...stored,
        ...after,
        items: [
          ...stored.items.map((i) =>
            replaced.has(i.reference_number)
              ? {
                  ...i,
                  replaced_by: replaced.get(i.reference_number)!.replacement.reference_number,
                  policy: {
                    ...i.policy,
                    status: replaced.get(i.reference_number)!.oldStep.status,
                    history: [...i.policy.history, replaced.get(i.reference_number)!.oldStep],
                  },
                }
              : i,
          ),
          ...changes.map((c) => c.replacement),
        ],
      };
    },
  };
}

const errorOf = (fn: () => unknown): AppError => {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
  }
  throw new Error('expected an AppError');
};

describe('planChanges', () => {
  it('gives a replacement premium_delta = new premium − old premium in minor units, in every currency, and reads the cost in the order’s digits', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(MINOR_UNITS)).chain((currency) =>
          fc.record({
            currency: fc.constant(currency),
            old: fc.integer({ min: 0, max: maxItemCost(currency) }),
            next: fc.integer({ min: 0, max: maxItemCost(currency) }),
            rate: fc.integer({ min: 1, max: 1_000_000 }),
          }),
        ),
        ({ currency, old, next, rate }) => {
          const before = orderIn(currency, old);
          before.items[0]!.policy.premium = premiumFor(old, rate);
          const text = formatMoney(next, currency);
          const [planned] = planChanges(
            before,
            [{ name: 'n', old_reference_number: 'r0', reference_number: 'n0', cost: text }],
            randomIds,
            NOW,
            new Map([[1, flatTerms(rate)]]),
          ).changes;
          const policy = planned!.replacement.policy;
          expect(planned!.replacement.cost).toBe(next);
          expect(policy.premium).toBe(premiumFor(next, rate));
          expect(policy.premium_delta).toBe(premiumFor(next, rate) - premiumFor(old, rate));
          // The answer's strings agree too: delta text = new premium text − old premium text, as decimals.
          const digits = minorUnit(currency)!;
          const asBig = (t: string) => BigInt(t.replace('.', ''));
          expect(asBig(formatMoney(policy.premium_delta!, currency))).toBe(
            asBig(formatMoney(policy.premium, currency)) - asBig(formatMoney(premiumFor(old, rate), currency)),
          );
          expect(formatMoney(policy.premium_delta!, currency)).toMatch(digits === 0 ? /^-?\d+$/ : new RegExp(`^-?\\d+\\.\\d{${digits}}$`));
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('refuses a cost with more digits than the order’s currency has, naming the change', () => {
    const yen = orderIn('JPY', 1500);
    expect(
      errorOf(() => planChanges(yen, [{ name: 'n', old_reference_number: 'r0', reference_number: 'n0', cost: '1600.5' }], randomIds, NOW, TERMS)),
    ).toMatchObject({
      status: 422,
      code: 'validation_failed',
      param: 'items[0].cost',
      message: 'items[0].cost: must have at most 0 fraction digits: JPY has no fraction digits (its ISO 4217 minor unit)',
    });
    expect(planChanges(yen, [{ name: 'n', old_reference_number: 'r0', reference_number: 'n0', cost: '1600.00' }], randomIds, NOW, TERMS).order.subtotal).toBe(
      1600,
    );
  });

  it('classes each change by cost and prices the new policy at the order rate', () => {
    const { changes, order: after } = planChanges(
      order(1000, 1000, 1000),
      [change('r0', 'up', 1500), change('r1', 'down', 500), change('r2', 'same', 1000)],
      randomIds,
      NOW,
      TERMS,
    );

    expect(changes.map((c) => [c.replacement.policy.change_type, c.oldStep.status])).toEqual([
      ['upgrade', 'Upgraded'],
      ['downgrade', 'Downgraded'],
      ['exchange', 'Exchanged'],
    ]);
    expect(changes[0]!.replacement.policy).toMatchObject({ premium: 128, coverage_amount: 1500, status: 'Issued', replaces: 'OP-r0' });
    expect(after).toMatchObject({ subtotal: 3000, version: 2, updated: NOW.toISOString() });
  });

  it.each([
    ['an unknown item', [change('r0', 'a', 1), change('nope', 'b', 1)], 404, 'item_not_found', 'items[1].old_reference_number'],
    ['a reference already in the order', [change('r0', 'r1', 1)], 409, 'reference_exists', 'items[0].reference_number'],
    ['a new reference repeated in the body', [change('r0', 'a', 1), change('r1', 'a', 1)], 422, 'duplicate_reference', 'items[1].reference_number'],
    ['an item replaced twice in the body', [change('r0', 'a', 1), change('r0', 'b', 1)], 422, 'duplicate_reference', 'items[1].old_reference_number'],
  ] as const)('refuses %s, naming the element', (_name, changes, status, code, param) => {
    const error = errorOf(() => planChanges(order(100, 200), [...changes], randomIds, NOW, TERMS));
    expect([error.status, error.code, error.param]).toEqual([status, code, param]);
  });

  it('refuses a policy that is no longer Issued with 409', () => {
    const changed = planChanges(order(100), [change('r0', 'a', 150)], randomIds, NOW, TERMS).order;
    const error = errorOf(() => planChanges(changed, [change('r0', 'b', 90)], randomIds, NOW, TERMS));
    expect([error.status, error.code, error.param]).toEqual([409, 'policy_not_issued', 'items[0].old_reference_number']);
  });
});

describe('changeOrder over random sequences', () => {
  it('keeps exactly one Issued policy per lineage and subtotal = the sum of current costs', async () => {
    const step = fc.array(fc.record({ pick: fc.nat(20), fresh: fc.boolean(), cost: fc.integer({ min: 0, max: 50_000 }) }), { minLength: 1, maxLength: 4 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 50_000 }), { minLength: 1, maxLength: 5 }),
        fc.array(step, { maxLength: 8 }),
        async (costs, steps) => {
          const store = memoryStore(order(...costs));
          const deps = {
            orders: store,
            terms: async () => flatTerms(85_000),
            clients: { get: async () => undefined },
            clock: { now: () => NOW },
            ids: randomIds,
          };
          let serial = 0;
          for (const requested of steps) {
            const before = structuredClone(store.current());
            const refs = before.items.map((i) => i.reference_number);
            const body = requested.map((r) => change(refs[r.pick % refs.length]!, r.fresh ? `n${serial++}` : refs[(r.pick + 1) % refs.length]!, r.cost));
            try {
              await changeOrder(deps, 'cl_1', 'o-1', body);
            } catch (err) {
              expect(err).toBeInstanceOf(AppError);
              expect(store.current()).toEqual(before); // a refused request changes nothing
            }
            const current = store.current();
            const lineages = costs.length;
            expect(current.items.filter((i) => i.policy.status === 'Issued')).toHaveLength(lineages);
            expect(current.items.filter(isCurrent)).toHaveLength(lineages);
            expect(current.subtotal).toBe(current.items.filter(isCurrent).reduce((sum, i) => sum + i.cost, 0));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('money owed on a change, and the history it leaves', () => {
  it('states premium_delta as the new premium minus the replaced one: ≥ 0 on an upgrade, ≤ 0 on a downgrade, 0 on an exchange', () => {
    const cents = fc.integer({ min: 0, max: 100_000_000 });
    fc.assert(
      fc.property(cents, cents, (oldCost, newCost) => {
        const { changes } = planChanges(order(oldCost), [change('r0', 'n0', newCost)], randomIds, NOW, TERMS);
        const { replacement, oldStep } = changes[0]!;
        const delta = replacement.policy.premium_delta!;

        expect(delta).toBe(premiumFor(newCost, 85_000) - premiumFor(oldCost, 85_000));
        expect(Number.isInteger(delta)).toBe(true);
        if (oldStep.status === 'Upgraded') expect(delta).toBeGreaterThanOrEqual(0);
        if (oldStep.status === 'Downgraded') expect(delta).toBeLessThanOrEqual(0);
        if (oldStep.status === 'Exchanged') expect(delta).toBe(0);
      }),
    );
  });

  it('appends the replaced policy its new status and gives the new one a history of its own', () => {
    const { order: after } = planChanges(order(1000), [change('r0', 'n0', 800)], randomIds, NOW, TERMS);
    const [old, replacement] = after.items;

    expect(old!.policy.history).toEqual([
      { status: 'Issued', at: NOW.toISOString(), reason: 'order_created' },
      { status: 'Downgraded', at: NOW.toISOString(), reason: 'downgrade' },
    ]);
    expect(replacement!.policy).toMatchObject({
      status: 'Issued',
      premium_delta: -17,
      history: [{ status: 'Issued', at: NOW.toISOString(), reason: 'downgrade' }],
    });
  });
});

describe('an exchange to another date', () => {
  // Banded terms: 12% for an event within 7 days of the change, 8% after.
  const banded: LiveTerms = { ...flatTerms(80_000), rate_bands: [{ up_to_days: 7, rate_ppm: 120_000 }, { rate_ppm: 80_000 }] };
  const concert = {
    id: 'evnt_old',
    name: 'Spring Concert',
    start_date: '2026-12-20',
    start_time: '19:30:00',
    end_date: null,
    end_time: null,
    location: 'City Hall',
  };
  const withEvent = (): Order => {
    const base = order(10_000);
    return { ...base, items: base.items.map((i) => ({ ...i, event: concert, policy: { ...i.policy, premium: 800, void_until: '2026-12-07T10:00:00.000Z' } })) };
  };
  const moved = (event: ItemChange['event']): ItemChange => ({
    name: 'Seat r0',
    old_reference_number: 'r0',
    reference_number: 'r0-b',
    cost: '100.00',
    ...(event ? { event } : {}),
  });

  it('covers the new event, priced by the days to it under the replaced policy’s terms, and keeps the void window', () => {
    const postponed = { name: 'Spring Concert', start_date: '2026-11-26', start_time: '19:30:00', location: 'City Hall' }; // 3 days after NOW
    const { changes } = planChanges(withEvent(), [moved(postponed)], randomIds, NOW, new Map([[1, banded]]));
    const { replacement } = changes[0]!;
    expect(replacement.event).toMatchObject({ ...postponed, end_date: null, end_time: null });
    expect(replacement.event!.id).not.toBe(concert.id);
    expect(replacement.policy).toMatchObject({ premium: 1_200, premium_delta: 400, change_type: 'exchange', void_until: '2026-12-07T10:00:00.000Z' });
  });

  it('refuses a move to a day already past (UTC), naming the change’s start_date', () => {
    const yesterday = { name: 'Spring Concert', start_date: '2026-11-22', start_time: '19:30:00' };
    expect(() => planChanges(withEvent(), [moved(yesterday)], randomIds, NOW, new Map([[1, banded]]))).toThrow(
      expect.objectContaining({ code: 'event_in_past', param: 'items[0].event.start_date' }),
    );
    const today = { ...yesterday, start_date: '2026-11-23' };
    expect(planChanges(withEvent(), [moved(today)], randomIds, NOW, new Map([[1, banded]])).changes[0]!.replacement.event!.start_date).toBe('2026-11-23');
  });

  it('issues no new policy for a ticket whose kept event is over, naming the item it replaces; one begun and not over still changes', () => {
    const over = (event: { start_date: string; end_date: string }): Order => {
      const base = withEvent();
      return { ...base, items: base.items.map((i) => ({ ...i, event: { ...concert, ...event } })) };
    };
    expect(() => planChanges(over({ start_date: '2026-11-20', end_date: '2026-11-22' }), [moved(undefined)], randomIds, NOW, new Map([[1, banded]]))).toThrow(
      expect.objectContaining({ code: 'event_in_past', param: 'items[0].old_reference_number' }),
    );
    const festival = over({ start_date: '2026-11-20', end_date: '2026-11-25' });
    expect(planChanges(festival, [moved(undefined)], randomIds, NOW, new Map([[1, banded]])).changes[0]!.replacement.event).toBe(festival.items[0]!.event);
  });

  it('keeps the replaced item’s event (its id too) without one, or when the one given is the same', () => {
    const same = { name: concert.name, start_date: concert.start_date, start_time: concert.start_time, location: concert.location };
    // As an order shows it (its id, null end and location), read as the API reads a body.
    const readBack = v.parse(EventInput, JSON.parse(JSON.stringify(concert)));
    for (const event of [undefined, same, readBack]) {
      const { changes } = planChanges(withEvent(), [moved(event)], randomIds, NOW, new Map([[1, banded]]));
      expect(changes[0]!.replacement.event).toBe(concert);
      expect(changes[0]!.replacement.policy.premium).toBe(800); // 27 days away: the 8% band
    }
  });
});
