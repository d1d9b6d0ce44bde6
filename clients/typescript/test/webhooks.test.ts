import { Webhook } from 'standardwebhooks';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError, type components, type OrderProtectionClient, type WebhookEvent } from '../src/index.js';

/**
 * Webhook events as a union narrowed by `type` (openapi.yaml's `webhooks`, one body per type).
 * The expectTypeOf checks are the types' test: `tsc --noEmit` (npm test) fails when they do not hold.
 */
type Schemas = components['schemas'];
type Of<T extends WebhookEvent['type']> = Extract<WebhookEvent, { type: T }>;

const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
function signed(event: object) {
  const body = JSON.stringify(event);
  const at = new Date();
  const headers = {
    'webhook-id': 'evt_1',
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign('evt_1', at, body),
  };
  return { body, headers };
}

/** What a receiver writes: a switch on `type`, each branch reading its own `data`. */
function describeEvent(event: WebhookEvent): string {
  switch (event.type) {
    case 'order.created':
      expectTypeOf(event.data).toEqualTypeOf<{ order_number: string; service_order_id: string; currency: string; subtotal: string }>();
      return `created ${event.data.order_number} ${event.data.subtotal} ${event.data.currency}`;
    case 'order.opted_out':
      expectTypeOf(event.data).toEqualTypeOf<{ order_number: string; currency: string; subtotal: string }>();
      return `opted out ${event.data.order_number}`;
    case 'order.canceled':
      expectTypeOf(event.data).toEqualTypeOf<{ order_number: string; service_order_id: string }>();
      return `canceled ${event.data.order_number}`;
    case 'policy.upgraded':
    case 'policy.downgraded':
    case 'policy.exchanged':
      expectTypeOf(event.data.premium_delta).toEqualTypeOf<string>();
      expectTypeOf(event.data.replaces).toEqualTypeOf<{ policy_number: string; premium: string } | undefined>();
      expectTypeOf(event.data.policy.status).toEqualTypeOf<Schemas['PolicyStatus']>();
      return `${event.type} ${event.data.policy.policy_number} ${event.data.premium_delta}`;
    case 'policy.canceled':
    case 'policy.voided':
      expectTypeOf(event.data.policy.refund_due).toEqualTypeOf<string | undefined>();
      expectTypeOf(event.data.currency).toEqualTypeOf<string>();
      return `${event.type} ${event.data.policy.policy_number} refund ${event.data.policy.refund_due ?? 'none'} ${event.data.currency}`;
    case 'claim.submitted':
    case 'claim.approved':
    case 'claim.denied':
    case 'claim.paid':
    case 'claim.withdrawn':
      expectTypeOf(event.data.claim.amount_approved).toEqualTypeOf<string | null>();
      expectTypeOf(event.data.claim.status).toEqualTypeOf<Schemas['ClaimStatus']>();
      return `${event.type} ${event.data.claim.claim_id}`;
    case 'statement.closed':
    case 'statement.overdue':
      expectTypeOf(event.data.due_date).toEqualTypeOf<string>();
      return `${event.type} ${event.data.period} ${event.data.currencies.map((row) => `${row.closing_balance} ${row.currency}`).join(', ')}`;
    case 'webhook_endpoint.test':
      expectTypeOf(event.data).toEqualTypeOf<{ endpoint_id: string }>();
      return `test ${event.data.endpoint_id}`;
    default:
      expectTypeOf(event).toBeNever();
      return 'unknown';
  }
}

describe('webhook events', () => {
  it('are a union with one member per type the delivery log knows, each with its own data', () => {
    expectTypeOf<WebhookEvent['type']>().toEqualTypeOf<Schemas['LoggedEventType']>();
    expectTypeOf<Of<'policy.voided'>['data']['policy']['refund_due']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Of<'order.created'>['data']>().not.toEqualTypeOf<Record<string, never>>();
    expectTypeOf<Of<'policy.upgraded'>>().toMatchTypeOf<{ type: 'policy.upgraded'; data: { premium_delta: string } }>();
  });

  it("verifies a delivery and narrows it by type to that type's data", () => {
    const voided = {
      id: 'evt_1',
      type: 'policy.voided',
      created: '2026-01-01T00:00:00.000Z',
      data: {
        order_number: 'G-1',
        service_order_id: 'o1',
        currency: 'EUR',
        policy: { policy_number: 'OP-1', status: 'Void', premium: '8.50', refund_due: '8.50' },
      },
    };
    const { body, headers } = signed(voided);

    const event = verifyWebhook(body, headers, secret);

    expect(event).toEqual(voided);
    expect(describeEvent(event)).toBe('policy.voided OP-1 refund 8.50 EUR');
    expect(() => verifyWebhook(body.replace('8.50', '9.50'), headers, secret)).toThrow(WebhookVerificationError);
  });

  it('refuses a signed body that is not an event', () => {
    const { body, headers } = signed({ id: 'evt_1', type: 'order.created' });

    expect(() => verifyWebhook(body, headers, secret)).toThrow(WebhookVerificationError);
  });
});

describe('the delivery log', () => {
  it("types a listed event's data as an object to read (the delivered data of its type; an opt-out's without order_number)", () => {
    type Listed = Awaited<ReturnType<ReturnType<OrderProtectionClient['events']['list']>['next']>>['value'];
    expectTypeOf<Exclude<Listed, void>['data']>().toEqualTypeOf<{ [key: string]: unknown }>();
    expectTypeOf<Awaited<ReturnType<OrderProtectionClient['events']['retrieve']>>['data']>().toEqualTypeOf<{ [key: string]: unknown }>();
  });
});

describe('list calls', () => {
  it('take limit as a number', () => {
    type OrdersQuery = NonNullable<Parameters<OrderProtectionClient['orders']['list']>[0]>;
    type LedgerQuery = NonNullable<Parameters<OrderProtectionClient['ledger']['list']>[0]>;
    expectTypeOf<OrdersQuery['limit']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<LedgerQuery['limit']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<NonNullable<Parameters<OrderProtectionClient['events']['list']>[0]>['limit']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<NonNullable<Parameters<OrderProtectionClient['policies']['list']>[0]>['limit']>().toEqualTypeOf<number | undefined>();
  });
  it('take a yes-or-no filter as a boolean (or as the query string spells it)', () => {
    type EventsQuery = NonNullable<Parameters<OrderProtectionClient['events']['list']>[0]>;
    expectTypeOf<EventsQuery['delivery_success']>().toEqualTypeOf<boolean | 'true' | 'false' | undefined>();
    expectTypeOf<EventsQuery['type']>().not.toEqualTypeOf<boolean | undefined>();
  });
});
