import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { RecordChange } from '../platform/record-change.js';
import {
  EVENT_TYPES,
  eventBody,
  eventOf,
  LOGGED_EVENT_TYPES,
  TEST_EVENT_TYPE,
  namesAnOrder,
  WEBHOOK_EVENTS,
  type ChangeSource,
  type LoggedEventType,
  type WebhookEvent,
} from './webhook-events.js';

/**
 * One entry per webhook event type (issue 36.5): for each, the change that makes it, and the body
 * it makes checked against what openapi.yaml's `webhooks` promise for its type (docs/api.md
 * "Webhooks"): ids, statuses and amounts with their currency, never a customer's personal data.
 * Records as the tables' streams carry them, without a table.
 */
const spec = parse(readFileSync(join(import.meta.dirname, '..', '..', 'openapi.yaml'), 'utf8')) as {
  webhooks: Record<string, unknown>;
  components: { schemas: { EventType: { enum: string[] } } };
};
const ajv = new Ajv2020({ strict: false, allErrors: true });
// ajv-formats is CommonJS: its default export arrives wrapped under NodeNext typing.
(formats as unknown as { default: (ajv: Ajv2020) => void }).default(ajv);
ajv.addSchema(spec, 'openapi.yaml');
/** Why a delivered body is not what openapi.yaml gives its type (undefined: it is). */
function bodyErrors(type: string, body: string): string | undefined {
  const validate = ajv.getSchema(`openapi.yaml#/webhooks/${type}/post/requestBody/content/application~1json/schema`);
  if (!validate) return `openapi.yaml has no webhook ${type}`;
  return validate(JSON.parse(body)) ? undefined : ajv.errorsText(validate.errors);
}

const CLIENT = 'cl_events';
const ORDER = 'ord_events';
const ORDER_NUMBER = 'A-1001';
const eventId = (changeId: string) => `evt_${changeId.padEnd(24, 'x')}`;
const change = (kind: RecordChange['kind'], after?: Record<string, unknown>, before?: Record<string, unknown>, ofOrder = true): RecordChange => ({
  changeId: 'change1',
  kind,
  at: '2026-11-27T10:00:05.000Z',
  ...(ofOrder ? { order: { client_id: CLIENT, order_id: ORDER } } : {}),
  ...(after ? { after } : {}),
  ...(before ? { before } : {}),
});

const header = (extra: Record<string, unknown> = {}) => ({
  entity: 'order',
  service_order_id: ORDER,
  client_id: CLIENT,
  order_number: ORDER_NUMBER,
  currency: 'KWD',
  minor_units: true,
  subtotal: 12_345,
  customer: { email: 'ada@example.com', first_name: 'Ada' },
  created: '2026-11-27T10:00:04.321Z',
  ...extra,
});
const item = (policy: Record<string, unknown>) => ({
  entity: 'item',
  currency: 'USD',
  minor_units: true,
  reference_number: 'a2',
  name: 'Seat A2',
  cost: 10_000,
  policy: {
    policy_number: 'OP-2',
    premium: 1_020,
    coverage_amount: 10_000,
    status: 'Issued',
    created: '2026-11-27T10:00:04.500Z',
    history: [{ status: 'Issued', at: '2026-11-27T10:00:04.500Z' }],
    ...policy,
  },
});
const changed = (changeType: string, premium: number, delta: number, event: Record<string, unknown> | null = null) =>
  change('INSERT', { ...item({ change_type: changeType, replaces: 'OP-1', premium, premium_delta: delta }), event });
/** The new date of an exchange to another date (a postponed performance). */
const POSTPONED = {
  id: 'evnt_P0stp0nedP0stp0nedP0stpo',
  name: 'Spring Concert',
  start_date: '2027-05-08',
  start_time: '19:30:00',
  end_date: null,
  end_time: null,
  location: 'City Hall',
};
const ended = (status: 'Canceled' | 'Void', refund: number) =>
  change(
    'MODIFY',
    item({
      status,
      refund_due: refund,
      history: [
        { status: 'Issued', at: '2026-11-27T10:00:04.500Z' },
        { status, at: '2026-11-28T09:00:00.250Z' },
      ],
    }),
    item({}),
  );
const claim = (status: string, extra: Record<string, unknown> = {}) => ({
  entity: 'claim',
  minor_units: true,
  claim_id: 'clm_1',
  client_id: CLIENT,
  service_order_id: ORDER,
  currency: 'JPY',
  status,
  reason: 'illness',
  amount_claimed: 1_500,
  policies: [{ policy_number: 'OP-1', reference_number: 'a1', coverage_amount: 1_500 }],
  updated: '2026-11-29T08:00:00.000Z',
  ...extra,
});
const claimMoved = (to: string, from: string, extra: Record<string, unknown> = {}) => change('MODIFY', claim(to, extra), claim(from), false);

/** Each type: the change that makes it (and on which stream), and the data it must carry (before the dispatcher adds the order number). */
const CASES = {
  'order.created': {
    change: change('INSERT', header()),
    event: { created: '2026-11-27T10:00:04.321Z', data: { service_order_id: ORDER, currency: 'KWD', subtotal: '12.345' } },
  },
  'order.opted_out': {
    source: 'checkouts',
    change: change(
      'INSERT',
      {
        entity: 'checkout',
        client_id: CLIENT,
        order_hash: 'oh_hash',
        order_ref: 'sealed.order.number',
        opt_in: false,
        counted_by: 'stream',
        currency: 'USD',
        subtotal: '60.00',
        country: 'US',
        logged_at: '2026-11-27T10:00:04.999Z',
      },
      undefined,
      false,
    ),
    // An opt-out creates no order: its lane is the order number's hash, the number stays sealed.
    event: {
      created: '2026-11-27T10:00:04.999Z',
      order_id: 'oh_hash',
      sealed_order_number: 'sealed.order.number',
      data: { currency: 'USD', subtotal: '60.00' },
    },
  },
  'order.canceled': {
    change: change('MODIFY', header({ canceled_at: '2026-11-28T09:00:00.250Z' }), header()),
    event: { created: '2026-11-28T09:00:00.250Z', data: { service_order_id: ORDER } },
  },
  'policy.upgraded': {
    change: changed('upgrade', 1_190, 170),
    event: {
      created: '2026-11-27T10:00:04.500Z',
      data: {
        service_order_id: ORDER,
        currency: 'USD',
        policy: { policy_number: 'OP-2', status: 'Issued', premium: '11.90' },
        replaces: { policy_number: 'OP-1', premium: '10.20' },
        premium_delta: '1.70',
        event: null,
      },
    },
  },
  'policy.downgraded': {
    change: changed('downgrade', 850, -170),
    event: {
      created: '2026-11-27T10:00:04.500Z',
      data: {
        service_order_id: ORDER,
        currency: 'USD',
        policy: { policy_number: 'OP-2', status: 'Issued', premium: '8.50' },
        replaces: { policy_number: 'OP-1', premium: '10.20' },
        premium_delta: '-1.70',
        event: null,
      },
    },
  },
  'policy.exchanged': {
    change: changed('exchange', 1_020, 0, POSTPONED),
    event: {
      created: '2026-11-27T10:00:04.500Z',
      data: {
        service_order_id: ORDER,
        currency: 'USD',
        policy: { policy_number: 'OP-2', status: 'Issued', premium: '10.20' },
        replaces: { policy_number: 'OP-1', premium: '10.20' },
        premium_delta: '0.00',
        event: POSTPONED,
      },
    },
  },
  'policy.canceled': {
    change: ended('Canceled', 0),
    event: {
      created: '2026-11-28T09:00:00.250Z',
      data: { service_order_id: ORDER, currency: 'USD', policy: { policy_number: 'OP-2', status: 'Canceled', premium: '10.20', refund_due: '0.00' } },
    },
  },
  'policy.voided': {
    change: ended('Void', 1_020),
    event: {
      created: '2026-11-28T09:00:00.250Z',
      data: { service_order_id: ORDER, currency: 'USD', policy: { policy_number: 'OP-2', status: 'Void', premium: '10.20', refund_due: '10.20' } },
    },
  },
  'claim.submitted': {
    change: change('INSERT', claim('Submitted'), undefined, false),
    event: { created: '2026-11-29T08:00:00.000Z', data: claimData('Submitted', null, null) },
  },
  'claim.approved': {
    change: claimMoved('Approved', 'Submitted', { amount_approved: 1_200 }),
    event: { created: '2026-11-29T08:00:00.000Z', data: claimData('Approved', '1200', null) },
  },
  'claim.denied': {
    change: claimMoved('Denied', 'Submitted'),
    event: { created: '2026-11-29T08:00:00.000Z', data: claimData('Denied', null, null) },
  },
  'claim.paid': {
    change: claimMoved('Paid', 'Approved', { amount_approved: 1_200, payout_reference: 'PAY-7' }),
    event: { created: '2026-11-29T08:00:00.000Z', data: claimData('Paid', '1200', 'PAY-7') },
  },
  'claim.withdrawn': {
    change: claimMoved('Withdrawn', 'Submitted'),
    event: { created: '2026-11-29T08:00:00.000Z', data: claimData('Withdrawn', null, null) },
  },
  'statement.closed': {
    change: change('INSERT', closing('closed'), undefined, false),
    // A statement's lane is the client's statements, not an order's; its balances in each currency's digits.
    event: { created: '2026-12-05T00:10:00.000Z', order_id: 'statements', data: statementDataOf() },
  },
  'statement.overdue': {
    change: change('MODIFY', closing('overdue', { status_at: '2026-12-16T01:00:00.000Z' }), closing('closed'), false),
    event: { created: '2026-12-16T01:00:00.000Z', order_id: 'statements', data: statementDataOf() },
  },
  'webhook_endpoint.test': {
    change: change(
      'INSERT',
      { entity: 'webhook_test', event_id: 'evt_testtesttesttesttesttest', client_id: CLIENT, endpoint_id: 'we_1', created: '2026-11-27T10:00:06.000Z' },
      undefined,
      false,
    ),
    // Its id is the one the 202 answered with; its lane is its endpoint's, not an order's.
    event: { id: 'evt_testtesttesttesttesttest', created: '2026-11-27T10:00:06.000Z', order_id: 'test_we_1', data: { endpoint_id: 'we_1' } },
  },
} satisfies Record<LoggedEventType, { source?: ChangeSource; change: RecordChange; event: Partial<WebhookEvent> }>;

function statementDataOf() {
  return {
    period: '2026-11',
    due_date: '2026-12-15',
    currencies: [
      { currency: 'JPY', opening_balance: '0', closing_balance: '1500' },
      { currency: 'KWD', opening_balance: '-1.000', closing_balance: '12.345' },
    ],
  };
}

function closing(status: string, extra: Record<string, unknown> = {}) {
  return {
    entity: 'statement_closing',
    client_id: CLIENT,
    period: '2026-11',
    due_date: '2026-12-15',
    status,
    closed_at: '2026-12-05T00:10:00.000Z',
    rows: [
      { currency: 'JPY', opening_balance: '0', closing_balance: '1500' },
      { currency: 'KWD', opening_balance: '-1000', closing_balance: '12345' },
    ],
    ...extra,
  };
}

function claimData(status: string, approved: string | null, payout: string | null) {
  return {
    service_order_id: ORDER,
    claim: {
      claim_id: 'clm_1',
      status,
      currency: 'JPY',
      amount_claimed: '1500',
      amount_approved: approved,
      payout_reference: payout,
      policy_numbers: ['OP-1'],
    },
  };
}

/** What a receiver gets: the dispatcher adds the order's number first in data (an opt-out's, opened from its seal), a test event has none. */
const delivered = (event: WebhookEvent) => {
  const { sealed_order_number: _sealed, ...sent } = event;
  return eventBody(!namesAnOrder(event.type) ? sent : { ...sent, data: { order_number: ORDER_NUMBER, ...sent.data } });
};

describe('the webhook event table', () => {
  it('has one entry per event type, in EVENT_TYPES’ order, the test event last; openapi.yaml documents each and no other', () => {
    expect(Object.keys(WEBHOOK_EVENTS)).toEqual([...LOGGED_EVENT_TYPES]);
    expect([...LOGGED_EVENT_TYPES]).toEqual([...EVENT_TYPES, TEST_EVENT_TYPE]);
    expect(Object.keys(spec.webhooks).sort()).toEqual([...LOGGED_EVENT_TYPES].sort());
    expect(spec.components.schemas.EventType.enum).toEqual([...EVENT_TYPES]);
  });

  describe.each(Object.entries(CASES) as [LoggedEventType, (typeof CASES)[LoggedEventType] & { source?: ChangeSource }][])('%s', (type, example) => {
    const source = example.source ?? 'orders';
    const event = eventOf(example.change, eventId, source);

    it('is made by its change, on its stream, and by no other entry of the table', () => {
      expect(event?.type).toBe(type);
      const matching = Object.entries(WEBHOOK_EVENTS).filter(
        ([, rule]) => rule.source === source && rule.entity === (example.change.after ?? example.change.before)?.entity && rule.when(example.change),
      );
      expect(matching.map(([name]) => name)).toEqual([type]);
      expect(eventOf(example.change, eventId, source === 'orders' ? 'checkouts' : 'orders')).toBeUndefined();
    });

    it('carries what openapi.yaml and docs/api.md promise: ids, statuses and amounts with their currency, no personal data', () => {
      expect(event).toEqual({ id: eventId('change1'), type, client_id: CLIENT, order_id: ORDER, ...example.event });
      expect(bodyErrors(type, delivered(event!))).toBeUndefined();
      const body = delivered(event!);
      for (const personal of ['ada@example.com', 'Ada', 'illness']) expect(body).not.toContain(personal);
    });
  });
});

describe('changes that make no event', () => {
  it.each([
    ['an item sold at checkout (order.created announces it)', change('INSERT', item({}))],
    ['an order header changed without a cancel', change('MODIFY', header({ subtotal: 20_000 }), header())],
    ['an order canceled again', change('MODIFY', header({ canceled_at: '2026-11-28T09:00:00.250Z' }), header({ canceled_at: '2026-11-28T09:00:00.250Z' }))],
    ['a policy replaced by a change (its successor’s INSERT announces it)', change('MODIFY', item({ status: 'Downgraded' }), item({}))],
    ['a voided policy written again', change('MODIFY', item({ status: 'Void' }), item({ status: 'Void' }))],
    ['an order’s record without its order', change('INSERT', header(), undefined, false)],
    ['a record removed', change('REMOVE', undefined, header())],
    ['a claim asked for documents', claimMoved('DocumentsRequested', 'Submitted')],
    ['a claim answered after a request for documents (back to Submitted)', claimMoved('Submitted', 'DocumentsRequested')],
    ['a claim written again in its status', claimMoved('Approved', 'Approved')],
    [
      'a test request removed',
      change('REMOVE', undefined, { entity: 'webhook_test', event_id: 'evt_x', client_id: CLIENT, endpoint_id: 'we_1', created: 'x' }),
    ],
    ['an endpoint', change('INSERT', { entity: 'webhook_endpoint', client_id: CLIENT }, undefined, false)],
    ['a close paid (no event: only closed and overdue are announced)', change('MODIFY', closing('paid'), closing('closed'), false)],
    ['an overdue close paid', change('MODIFY', closing('paid'), closing('overdue'), false)],
  ])('%s', (_name, made) => {
    expect(eventOf(made, eventId, 'orders')).toBeUndefined();
  });

  it('an opt-in’s checkout record, and one not written by this code, make no order.opted_out', () => {
    const optOut = CASES['order.opted_out'].change.after!;
    expect(eventOf(change('INSERT', { ...optOut, opt_in: true, order_ref: null }, undefined, false), eventId, 'checkouts')).toBeUndefined();
    const { counted_by: _counted, ...older } = optOut;
    expect(eventOf(change('INSERT', older, undefined, false), eventId, 'checkouts')).toBeUndefined();
  });
});
