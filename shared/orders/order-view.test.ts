import { describe, expect, it } from 'vitest';
import { createOrder } from './create-order.js';
import { randomIds } from '../platform/ids.js';
import type { Order } from './order.js';
import { orderView, policyDetailView } from './order-view.js';
import { settled } from './settle-policy.js';

/** Every field format of spec §2.9, on an order made by the real use case. */
async function madeOrder(): Promise<Order> {
  let created: Order | undefined;
  const deps = {
    orders: {
      create: async (order: Order) => {
        created = order;
      },
      get: async () => undefined,
      applyChanges: async () => undefined,
    },
    metrics: { logOptOut: async () => 'logged' as const, dailyCounts: async () => [] },
    clients: {
      get: async () => ({
        client_id: 'cl_AAAAAAAAAAAAAAAAAAAAAAAA',
        name: 'x',
        public_key: 'pk',
        secret_hash: 'h',
        rate_ppm: 85_000,
        look_period_days: 14,
        created: '',
      }),
      create: async () => undefined,
      findByPublicKey: async () => undefined,
      replaceSecretHash: async () => undefined,
    },
    quotes: {
      read: async () => {
        throw new Error('no token here');
      },
    },
    terms: async () => undefined,
    hashOrderNumber: async () => 'hashed',
    sealOrderNumber: async () => 'sealed',
    clock: { now: () => new Date('2026-11-23T10:15:30.120Z') },
    ids: randomIds,
  };
  await createOrder(deps, 'cl_AAAAAAAAAAAAAAAAAAAAAAAA', {
    order_number: 'A-1',
    currency: 'USD',
    event: { name: 'Gala', start_date: '2027-01-02', start_time: '20:00:00' },
    items: [
      { name: 'Seat', reference_number: 's1', cost: 1000 },
      {
        name: 'Box',
        reference_number: 's2',
        cost: 1,
        event: { name: 'Matinee', start_date: '2027-01-03', start_time: '14:30:00', end_date: '2027-01-03', end_time: '16:00:00', location: 'Hall' },
      },
    ],
    customer: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
  });
  return created!;
}

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MONEY = /^\d+\.\d{2}$/;

describe('orderView (spec §2.9)', () => {
  it('formats every field', async () => {
    const view = orderView(await madeOrder());

    expect(view.created).toMatch(ISO_MS);
    expect(view.updated).toMatch(ISO_MS);
    expect(view).toMatchObject({ order_number: 'A-1', subtotal: '10.01', currency: 'USD', client: 'cl_AAAAAAAAAAAAAAAAAAAAAAAA' });
    expect(view.service_order_id).toMatch(UUID_V4);
    expect(view.customer).toEqual({ id: expect.stringMatching(/^cus_[0-9A-Za-z]{24}$/), email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' });
    for (const item of view.items) {
      expect(item.id).toMatch(/^itm_[0-9A-Za-z]{24}$/);
      expect(item.cost).toMatch(MONEY);
      expect(item.customer).toEqual(view.customer);
      expect(item.event!.id).toMatch(/^evnt_[0-9A-Za-z]{24}$/);
      expect(item.event_id).toBe(item.event!.id);
      expect(item.event!.start_time).toMatch(/^\d{2}:\d{2}:\d{2}$/);
    }
    expect(view.items[0]!.event).toMatchObject({ name: 'Gala', end_date: null, end_time: null, location: null });
    expect(view.items[1]!.event).toMatchObject({ name: 'Matinee', end_date: '2027-01-03', end_time: '16:00:00', location: 'Hall' });
    for (const [i, policy] of view.policies.entries()) {
      expect(policy.policy_number).toMatch(/^OP-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
      expect(policy.policy_number_new).toMatch(UUID);
      expect(policy).toMatchObject({ currency: 'USD', status: 'Issued' });
      expect(policy.premium).toMatch(MONEY);
      expect(policy.coverage_amount).toBe(view.items[i]!.cost);
      expect(policy.item).toEqual({
        id: view.items[i]!.id,
        name: view.items[i]!.name,
        reference_number: view.items[i]!.reference_number,
        cost: view.items[i]!.cost,
      });
      expect(policy).not.toHaveProperty('change_type');
    }
    expect(view.policies.map((p) => p.premium)).toEqual(['0.85', '0.01']); // no cover sold for nothing: at least one minor unit
  });
});

describe('policyDetailView (GET /policies, a policy’s cancel and void)', () => {
  it('names the currency its amounts count in (issue 35.8: "refund_due":"8500" could be yen or dong)', async () => {
    const order = await madeOrder();
    for (const [currency, premium, refund] of [
      ['USD', '0.85', '0.85'],
      ['JPY', '85', '85'],
      ['VND', '85', '85'],
    ] as const) {
      const item = order.items[0]!;
      const voided = { ...item, policy: settled(item.policy, 'void', 'customer_request', new Date('2026-11-24T00:00:00.000Z')) };
      const view = policyDetailView({ service_order_id: order.service_order_id, currency, item: voided });
      expect(view, currency).toMatchObject({ currency, premium, refund_due: refund, status: 'Void' });
      expect(Object.keys(view).slice(0, 3), currency).toEqual(['policy_number', 'status', 'currency']);
    }
  });
});
