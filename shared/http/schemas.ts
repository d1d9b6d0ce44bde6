import * as v from 'valibot';
import { EVENT_TYPES } from '../domain/webhook-endpoints.js';
import { MAX_CHANGES, MAX_CHECKOUT_ITEMS } from '../domain/limits.js';
import { isOrderId } from '../domain/ids.js';
import { MAX_ORDER_CENTS, parseAmount, parseCents } from '../domain/money.js';
import { NotFoundError } from '../errors.js';
import { CANCEL_REASONS } from '../domain/settle-policy.js';
import { CLAIM_REASONS, CLAIM_STATUSES, MAX_CLAIM_POLICIES, MAX_CLAIM_TEXT } from '../domain/claim.js';

/**
 * Request schemas of every route. Objects are strict (unknown fields are refused, so a body
 * cannot slip in `status`, `premium` or `client`), strings are bounded, and money is parsed
 * straight into integer cents.
 */
const MAX_STRING = 255;
/** Quote tokens are about 500 characters whatever the cart (they seal a digest of the items). */
const MAX_QUOTE_TOKEN_LENGTH = 2048;

export const Text = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(MAX_STRING, `must be at most ${MAX_STRING} characters`));
const OptionalText = v.optional(v.pipe(v.string(), v.trim(), v.maxLength(MAX_STRING, `must be at most ${MAX_STRING} characters`)));

export const Money = v.pipe(
  v.string('must be a decimal amount written as a string'),
  v.check((text) => parseCents(text) !== undefined, 'must be a decimal string with at most 2 fraction digits, from 0 to 1000000.00'),
  v.transform((text) => parseCents(text) as number),
);

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));
const Currency = v.pipe(
  v.string(),
  v.transform((text) => text.toUpperCase()),
  v.check((code) => /^[A-Z]{3}$/.test(code) && CURRENCIES.has(code), 'must be an ISO 4217 currency code such as USD'),
);

/** YYYY-MM-DD naming a day that exists (2026-02-30 does not). */
export const CalendarDate = v.pipe(
  v.string(),
  v.check((text) => {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
    if (!match) return false;
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const date = new Date(Date.UTC(year, month - 1, day));
    return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  }, 'must be a real date written YYYY-MM-DD'),
);

/** HH:MM or HH:MM:SS, normalized to HH:MM:SS. */
const ClockTime = v.pipe(
  v.string(),
  v.regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, 'must be a time written HH:MM'),
  v.transform((text) => (text.length === 5 ? `${text}:00` : text)),
);

export const EventInput = v.pipe(
  v.strictObject({
    name: Text,
    start_date: CalendarDate,
    start_time: ClockTime,
    end_date: v.optional(v.nullable(CalendarDate)),
    end_time: v.optional(v.nullable(ClockTime)),
    location: OptionalText,
  }),
  v.forward(
    v.check((event) => !event.end_date || event.end_date >= event.start_date, 'must not be before start_date'),
    ['end_date'],
  ),
);
export type EventInput = v.InferOutput<typeof EventInput>;

export const CustomerInput = v.strictObject({
  first_name: OptionalText,
  last_name: OptionalText,
  email: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(254, 'must be at most 254 characters'), v.email('must be an e-mail address'))),
  phone: v.optional(v.pipe(v.string(), v.regex(/^\+?[0-9 ()-]{3,32}$/, 'must be a phone number (digits)'))),
});
export type CustomerInput = v.InferOutput<typeof CustomerInput>;

export const BillingAddressInput = v.strictObject({
  address1: OptionalText,
  address2: OptionalText,
  city: OptionalText,
  zip_code: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(32, 'must be at most 32 characters'))),
  state: OptionalText,
  country: OptionalText,
});
export type BillingAddressInput = v.InferOutput<typeof BillingAddressInput>;

export const PaymentInput = v.strictObject({ type: Text });

const uniqueReferences = <T extends { reference_number: string }>(items: T[]): number =>
  items.findIndex((item, index) => items.findIndex((other) => other.reference_number === item.reference_number) !== index);

/** Items of a checkout: 1 to MAX_CHECKOUT_ITEMS, reference numbers unique within it. */
function itemList<S extends v.GenericSchema<unknown, { reference_number: string }>>(item: S) {
  return v.pipe(
    v.array(item, 'must be an array of items'),
    v.minLength(1, 'must hold at least one item'),
    v.maxLength(MAX_CHECKOUT_ITEMS, `must hold at most ${MAX_CHECKOUT_ITEMS} items`),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const duplicate = uniqueReferences(dataset.value);
      if (duplicate >= 0) {
        addIssue({
          message: 'repeats a reference_number of an earlier item',
          path: [
            { type: 'array', origin: 'value', input: dataset.value, key: duplicate, value: dataset.value[duplicate] },
            {
              type: 'object',
              origin: 'value',
              input: dataset.value[duplicate] as Record<string, unknown>,
              key: 'reference_number',
              value: dataset.value[duplicate]?.reference_number,
            },
          ],
        });
      }
    }),
  );
}

export const OrderItemInput = v.strictObject({
  name: Text,
  reference_number: Text,
  cost: Money,
  event: v.optional(EventInput),
});
export type OrderItemInput = v.InferOutput<typeof OrderItemInput>;

const QuoteToken = v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_QUOTE_TOKEN_LENGTH, `must be at most ${MAX_QUOTE_TOKEN_LENGTH} characters`));

export const CreateOrderRequest = v.strictObject({
  token: v.optional(QuoteToken),
  order_number: Text,
  currency: Currency,
  items: itemList(OrderItemInput),
  event: v.optional(EventInput),
  customer: v.optional(CustomerInput),
  billing_address: v.optional(BillingAddressInput),
  payment: v.optional(PaymentInput),
});
export type CreateOrderRequest = v.InferOutput<typeof CreateOrderRequest>;

export const QuoteRequest = v.strictObject({
  currency: Currency,
  items: itemList(v.strictObject({ reference_number: Text, cost: Money, name: v.optional(Text), event: v.optional(EventInput) })),
});
export type QuoteRequest = v.InferOutput<typeof QuoteRequest>;

/** GET /quotes/decode?token=: the query string. */
export const DecodeQuoteQuery = v.strictObject({ token: QuoteToken });

/** POST /quotes/decode: the token, and optionally the cart to check against it (as an order would carry it). */
export const DecodeQuoteRequest = v.strictObject({
  token: QuoteToken,
  items: v.optional(itemList(v.strictObject({ reference_number: Text, cost: Money }))),
});
export type DecodeQuoteRequest = v.InferOutput<typeof DecodeQuoteRequest>;

export const ItemChangeInput = v.strictObject({
  name: Text,
  old_reference_number: Text,
  reference_number: Text,
  cost: Money,
});
export type ItemChangeInput = v.InferOutput<typeof ItemChangeInput>;

export const ChangeOrderRequest = v.strictObject({
  items: v.pipe(
    v.array(ItemChangeInput, 'must be an array of item changes'),
    v.minLength(1, 'must hold at least one change'),
    v.maxLength(MAX_CHANGES, `must hold at most ${MAX_CHANGES} changes`),
  ),
});
export type ChangeOrderRequest = v.InferOutput<typeof ChangeOrderRequest>;

/** An instant or a day: 2026-11-23T10:15:30.123Z, or 2026-11-23 for its start (UTC); held as the ISO instant. */
const Instant = v.pipe(
  v.string(),
  v.check(
    // A real day and time: JavaScript would roll 2026-02-30 over into March, and T24:00 into the next day.
    (text) =>
      /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z)?$/.test(text) &&
      !Number.isNaN(Date.parse(text)) &&
      new Date(text.length === 10 ? `${text}T00:00:00Z` : text).toISOString().startsWith(text.slice(0, 19)),
    'must be a date (YYYY-MM-DD) or an ISO 8601 UTC time',
  ),
  v.transform((text) => new Date(text.length === 10 ? `${text}T00:00:00Z` : text).toISOString()),
);

const listFields = {
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^(100|[1-9]\d?)$/, 'must be a whole number from 1 to 100'),
      v.transform((text) => Number(text)),
    ),
    '20',
  ),
  cursor: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(512, 'must be at most 512 characters'))),
  created_gte: v.optional(Instant),
  created_lt: v.optional(Instant),
  status: v.optional(v.picklist(['Issued', 'Upgraded', 'Downgraded', 'Exchanged', 'Canceled', 'Void', 'Claimed'], 'must be a policy status')),
};

/** created_gte, when both are given, must come before created_lt. */
const inOrder = ({ created_gte, created_lt }: { created_gte?: string; created_lt?: string }) =>
  created_gte === undefined || created_lt === undefined || created_gte < created_lt;

export const ListOrdersQuery = v.pipe(
  v.strictObject({ ...listFields, order_number: v.optional(Text) }),
  v.forward(
    v.check((query) => inOrder(query), 'must be after created_gte'),
    ['created_lt'],
  ),
);

export const ListPoliciesQuery = v.pipe(
  v.strictObject(listFields),
  v.forward(
    v.check((query) => inOrder(query), 'must be after created_gte'),
    ['created_lt'],
  ),
);

const CancelReason = v.optional(v.picklist(CANCEL_REASONS, `must be one of ${CANCEL_REASONS.join(', ')}`));

/** Cancel or void one policy: an optional body with an optional reason. */
export const SettlePolicyRequest = v.optional(v.strictObject({ reason: CancelReason }), {});

/** Cancel or void a whole order. */
export const CancelOrderRequest = v.strictObject({ mode: v.picklist(['cancel', 'void'], 'must be cancel or void'), reason: CancelReason });

/** The order id of a path: anything that is not a service_order_id names no order (404 before any read). */
export function orderIdOf(pathParameters: Record<string, string | undefined> | undefined): string {
  const id = pathParameters?.id;
  if (!isOrderId(id)) throw new NotFoundError('order_not_found', 'No order with this id.');
  return id;
}

/** POST /webhook_endpoints: a URL (checked against the URL rules by the use case), the events (all when absent), a note. */
export const CreateWebhookEndpointRequest = v.strictObject({
  url: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(2048, 'must be at most 2048 characters')),
  events: v.optional(
    v.pipe(
      v.array(v.picklist(EVENT_TYPES, `must be one of ${EVENT_TYPES.join(', ')}`)),
      v.minLength(1, 'must name at least one event type (leave it out for all)'),
      v.maxLength(EVENT_TYPES.length * 2, `must name at most ${EVENT_TYPES.length * 2} event types`),
    ),
  ),
  description: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(MAX_STRING, `must be at most ${MAX_STRING} characters`))),
});

/** A webhook endpoint's id from a path: anything else names no endpoint. */
export const WEBHOOK_ENDPOINT_ID = /^we_[0-9A-Za-z]{24}$/;

/** GET /events?type&delivery_success&limit&cursor. */
export const ListEventsQuery = v.strictObject({
  limit: listFields.limit,
  cursor: listFields.cursor,
  type: v.optional(v.picklist(EVENT_TYPES, `must be one of ${EVENT_TYPES.join(', ')}`)),
  delivery_success: v.optional(
    v.pipe(
      v.picklist(['true', 'false'], 'must be true or false'),
      v.transform((text) => text === 'true'),
    ),
  ),
});

/** A webhook event's id from a path: anything else names no event. */
export const EVENT_ID = /^evt_[A-Za-z0-9_-]{24}$/;

/** POST …/rotate_secret and …/redeliver take no fields: no body, or `{}`. */
export const EmptyRequest = v.optional(v.strictObject({}), {});

/** At most `max` characters counted as code points (as JSON Schema's maxLength counts; valibot's maxLength counts UTF-16 units). */
const maxCharacters = (max: number) => v.check((text: string) => [...text].length <= max, `must be at most ${max} characters`);

/** Free text of a claim: 1 to MAX_CLAIM_TEXT characters, trimmed. */
const ClaimText = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), maxCharacters(MAX_CLAIM_TEXT));
const POLICY_NUMBER = /^OP-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/;

/** POST /claims/sessions: the customer proves the order is theirs. */
export const ClaimSessionRequest = v.strictObject({
  order_number: Text,
  email: Text,
  public_key: Text,
});

/** POST /claims: the policies claimed (of the session's order), why, and what happened. */
export const FileClaimRequest = v.strictObject({
  policy_numbers: v.pipe(
    v.array(v.pipe(v.string(), v.regex(POLICY_NUMBER, 'must be a policy number such as OP-7K3M-9Q2D-X4TB'))),
    v.minLength(1, 'must name at least one policy'),
    v.maxLength(MAX_CLAIM_POLICIES, `must name at most ${MAX_CLAIM_POLICIES} policies`),
  ),
  reason: v.picklist(CLAIM_REASONS, `must be one of ${CLAIM_REASONS.join(', ')}`),
  description: ClaimText,
});

/** POST /claims/{id}/respond: the customer's answer to a request for documents. */
export const ClaimMessageRequest = v.strictObject({ message: ClaimText });

/** An approved amount: up to a whole order's coverage (above one item's 1,000,000.00). */
const ClaimAmount = v.pipe(
  v.string('must be a decimal amount written as a string'),
  v.check((text) => parseAmount(text, Number.MAX_SAFE_INTEGER) !== undefined, 'must be a decimal string with at most 2 fraction digits, such as "75.00"'),
  v.check((text) => parseAmount(text, MAX_ORDER_CENTS) !== undefined, 'must be at most 100000000.00 (a whole order of 100 items of 1000000.00)'),
  v.transform((text) => parseAmount(text, MAX_ORDER_CENTS) as number),
);

/** POST /admin/claims/{id}/decision. */
export const ClaimDecisionRequest = v.strictObject({
  decision: v.picklist(['approve', 'deny', 'request_documents'], 'must be approve, deny or request_documents'),
  amount: v.optional(ClaimAmount),
  note: v.optional(ClaimText),
});

/** POST /admin/claims/{id}/paid: the payout's reference in the operator's payment system. */
export const ClaimPaidRequest = v.strictObject({
  payout_reference: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), maxCharacters(100)),
});

/** GET /admin/claims?status&limit&cursor. */
export const ClaimQueueQuery = v.strictObject({
  status: v.optional(v.picklist(CLAIM_STATUSES, `must be one of ${CLAIM_STATUSES.join(', ')}`)),
  limit: listFields.limit,
  cursor: listFields.cursor,
});

const CLAIM_ID = /^clm_[0-9A-Za-z]{24}$/;
/** A claim's id from a path: anything else names no claim (404 before any read). */
export function claimIdOf(pathParameters: Record<string, string | undefined> | undefined): string {
  const id = pathParameters?.id;
  if (id === undefined || !CLAIM_ID.test(id)) throw new NotFoundError('claim_not_found', 'No claim with this id.', 'claim_id');
  return id;
}
