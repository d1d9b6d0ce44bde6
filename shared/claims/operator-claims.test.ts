import { describe, expect, it } from 'vitest';
import { decide, markPaid, type Claim } from './claim.js';
import { claimSummaryView, operatorClaimSummaryView } from './claim-view.js';
import { claimContexts, operatorClaimsOfOrder, type ContextDeps } from './operator-claims.js';
import * as v from 'valibot';
import { ClaimQueueQuery } from './schemas.js';
import type { ItemsWanted, OrderExcerpt } from '../orders/index.js';
import type { ClientLabel } from '../clients/index.js';

/** What the operator reads beside a claim: one batched read of orders and one of clients per page, and the view made of them. */
const at = '2026-11-01T10:00:00.000Z';
const claimOn = (id: string, clientId: string, orderId: string, references: string[]): Claim => ({
  claim_id: `clm_${id.padEnd(24, 'A')}`,
  client_id: clientId,
  service_order_id: orderId,
  currency: 'USD',
  status: 'Submitted',
  reason: 'illness',
  policies: references.map((reference, index) => ({ policy_number: `OP-0000-0000-000${index}`, reference_number: reference, coverage_amount: 8000 })),
  amount_claimed: 8000 * references.length,
  history: [{ status: 'Submitted', at, by: 'customer' }],
  created: at,
  updated: at,
  version: 1,
});
const concert = { id: 'ev1', name: 'Spring Concert', start_date: '2027-04-10', start_time: '19:30:00', end_date: null, end_time: null, location: 'City Hall' };

/** Ports that answer from these records and count their calls. */
function ports(orders: OrderExcerpt[], names: Record<string, ClientLabel>) {
  const calls = { orders: [] as ItemsWanted[][], clients: [] as string[][] };
  const deps: ContextDeps = {
    orders: {
      excerpts: async (wanted) => {
        calls.orders.push([...wanted]);
        return orders.flatMap((order) => {
          const asked = wanted.find((w) => w.client_id === order.client_id && w.service_order_id === order.service_order_id);
          return asked ? [{ ...order, items: order.items.filter((item) => asked.reference_numbers.includes(item.reference_number)) }] : [];
        });
      },
    },
    clients: {
      names: async (ids) => {
        calls.clients.push([...ids]);
        return new Map(ids.flatMap((id) => (names[id] ? [[id, names[id]] as const] : [])));
      },
    },
  };
  return { deps, calls };
}

describe('claim contexts', () => {
  const order1: OrderExcerpt = {
    client_id: 'cl_1',
    service_order_id: 'o1',
    order_number: 'DEMO-1',
    items: [
      { reference_number: 'a', name: 'Seat A1', event: concert },
      { reference_number: 'b', name: 'Parking', event: null },
    ],
  };

  it('reads a whole page with one call to each port, each order and client asked for once', async () => {
    const { deps, calls } = ports([order1], { cl_1: { name: 'Acme Tickets', mode: 'live' } });
    const claims = [claimOn('1', 'cl_1', 'o1', ['a']), claimOn('2', 'cl_1', 'o1', ['b']), claimOn('3', 'cl_2', 'o2', ['z'])];
    const contexts = await claimContexts(deps, claims);
    expect(calls.orders).toHaveLength(1);
    expect(calls.clients).toEqual([['cl_1', 'cl_2']]);
    expect(calls.orders[0]).toEqual([
      { client_id: 'cl_1', service_order_id: 'o1', reference_numbers: ['a', 'b'] },
      { client_id: 'cl_2', service_order_id: 'o2', reference_numbers: ['z'] },
    ]);
    expect(contexts[0]).toMatchObject({ client: { name: 'Acme Tickets', mode: 'live' }, order: { order_number: 'DEMO-1' } });
    expect(contexts[2]).toEqual({});
  });

  it('reads nothing for an empty page', async () => {
    const { deps, calls } = ports([], {});
    expect(await claimContexts(deps, [])).toEqual([]);
    expect(calls).toEqual({ orders: [], clients: [] });
  });
});

describe("the operator's view", () => {
  const claim = claimOn('1', 'cl_1', 'o1', ['a', 'b', 'gone']);
  const order: OrderExcerpt = {
    client_id: 'cl_1',
    service_order_id: 'o1',
    order_number: 'DEMO-1',
    items: [
      { reference_number: 'a', name: 'Seat A1', event: concert },
      { reference_number: 'b', name: 'Parking', event: null },
    ],
  };

  it("names the order, the merchant, each policy's item and event, and nobody yet", () => {
    const view = operatorClaimSummaryView({ claim, context: { order, client: { name: 'Acme Tickets', mode: 'test' } } });
    expect(view).toMatchObject({
      client_id: 'cl_1',
      client_name: 'Acme Tickets',
      client_mode: 'test',
      order_number: 'DEMO-1',
      decided_by: null,
      paid_by: null,
    });
    expect(view.policies).toEqual([
      {
        policy_number: 'OP-0000-0000-0000',
        reference_number: 'a',
        coverage_amount: '80.00',
        item: { name: 'Seat A1' },
        event: { name: 'Spring Concert', start_date: '2027-04-10', start_time: '19:30:00' },
      },
      { policy_number: 'OP-0000-0000-0001', reference_number: 'b', coverage_amount: '80.00', item: { name: 'Parking' }, event: null },
      { policy_number: 'OP-0000-0000-0002', reference_number: 'gone', coverage_amount: '80.00', item: null, event: null },
    ]);
  });

  it('shows nulls where the order or the merchant is gone', () => {
    expect(operatorClaimSummaryView({ claim, context: {} })).toMatchObject({ client_name: null, client_mode: null, order_number: null });
  });

  it('names who decided and who recorded the payout; the customer never sees either', () => {
    const approved = decide(claim, { decision: 'approve' }, new Date('2026-11-02T10:00:00Z'), 'arn:aws:sts::1:assumed-role/Claims/ann');
    if (approved.unchanged) throw new Error('expected a move');
    const paid = markPaid(approved.claim, 'P-1', new Date('2026-11-03T10:00:00Z'), 'arn:aws:sts::1:assumed-role/Claims/bob');
    if (paid.unchanged) throw new Error('expected a move');
    const view = operatorClaimSummaryView({ claim: paid.claim, context: { order } });
    expect(view).toMatchObject({ decided_by: 'arn:aws:sts::1:assumed-role/Claims/ann', paid_by: 'arn:aws:sts::1:assumed-role/Claims/bob' });
    const customer = JSON.stringify(claimSummaryView(paid.claim));
    expect(customer).not.toContain('assumed-role');
    expect(customer).not.toContain('DEMO-1');
  });
});

describe('the search by order number', () => {
  const first = claimOn('a', 'cl_1', 'o1', ['a']);
  const second = { ...claimOn('b', 'cl_1', 'o1', ['b']), status: 'Approved' as const };
  /** The order o1 of cl_1 is DEMO-1; its claims are the two above. */
  function searchPorts() {
    const asked = { numbers: [] as string[][], orders: [] as string[][] };
    const { deps } = ports([], { cl_1: { name: 'Shop X', mode: 'test' } });
    return {
      asked,
      deps: {
        ...deps,
        orderIdByNumber: async (clientId: string, orderNumber: string) => {
          asked.numbers.push([clientId, orderNumber]);
          return clientId === 'cl_1' && orderNumber === 'DEMO-1' ? 'o1' : undefined;
        },
        claims: {
          ofOrder: async (clientId: string, orderId: string) => {
            asked.orders.push([clientId, orderId]);
            return clientId === 'cl_1' && orderId === 'o1' ? [first, second] : [];
          },
        },
      },
    };
  }

  it("finds the order's claims in every status, each with its context", async () => {
    const { deps, asked } = searchPorts();
    const found = await operatorClaimsOfOrder(deps, { client_id: 'cl_1', order_number: 'DEMO-1' });
    expect(found.claims.map(({ claim }) => [claim.claim_id, claim.status])).toEqual([
      [first.claim_id, 'Submitted'],
      [second.claim_id, 'Approved'],
    ]);
    expect(found.claims[0]!.context.client).toMatchObject({ name: 'Shop X' });
    expect(asked).toEqual({ numbers: [['cl_1', 'DEMO-1']], orders: [['cl_1', 'o1']] });
  });

  it('finds nothing, without reading claims, for an unknown order number or another merchant', async () => {
    const { deps, asked } = searchPorts();
    expect((await operatorClaimsOfOrder(deps, { client_id: 'cl_1', order_number: 'DEMO-2' })).claims).toEqual([]);
    expect((await operatorClaimsOfOrder(deps, { client_id: 'cl_2', order_number: 'DEMO-1' })).claims).toEqual([]);
    expect(asked.orders).toEqual([]);
  });

  const refusal = (query: Record<string, string>) => {
    const result = v.safeParse(ClaimQueueQuery, query, { abortEarly: true });
    return result.success ? undefined : v.getDotPath(result.issues[0]);
  };
  it('takes the merchant and the number together, and neither a status nor a cursor with them', () => {
    expect(refusal({ client_id: 'cl_AAAAAAAAAAAAAAAAAAAAAAAA', order_number: 'DEMO-1' })).toBeUndefined();
    expect(refusal({ client_id: 'cl_AAAAAAAAAAAAAAAAAAAAAAAA', order_number: 'DEMO-1', limit: '5' })).toBeUndefined();
    expect(refusal({ order_number: 'DEMO-1' })).toBe('client_id');
    expect(refusal({ client_id: 'cl_AAAAAAAAAAAAAAAAAAAAAAAA' })).toBe('order_number');
    expect(refusal({ client_id: 'cl_AAAAAAAAAAAAAAAAAAAAAAAA', order_number: 'DEMO-1', status: 'Approved' })).toBe('status');
    expect(refusal({ client_id: 'cl_AAAAAAAAAAAAAAAAAAAAAAAA', order_number: 'DEMO-1', cursor: 'abc' })).toBe('cursor');
    expect(refusal({ status: 'Approved', cursor: 'abc' })).toBeUndefined();
    expect(refusal({ client_id: 'cl_AAAAAAAAAAAAAAAAAAAAAAAA,cl_BBBBBBBBBBBBBBBBBBBBBBBB', order_number: 'DEMO-1' })).toBe('client_id');
  });
});
