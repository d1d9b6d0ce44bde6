import * as v from 'valibot';
import { orderNotFound } from './order.js';
import {
  AmountText,
  costsInCurrency,
  Currency,
  EventInput,
  Instant,
  itemList,
  listPage,
  optionalLine,
  OptionalText,
  QuoteToken,
  Text,
} from '../platform/http/schemas.js';
import { isOrderId } from '../platform/ids.js';
import { MAX_CHANGES } from '../platform/limits.js';
import { CANCEL_REASONS } from './settle-policy.js';

/** The orders' request schemas (strict objects, bounded strings, money read in the order's currency). */
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
  zip_code: optionalLine(32),
  state: OptionalText,
  country: OptionalText,
});
export type BillingAddressInput = v.InferOutput<typeof BillingAddressInput>;

export const PaymentInput = v.strictObject({ type: Text });

export const OrderItemInput = v.strictObject({
  name: Text,
  reference_number: Text,
  cost: AmountText,
  event: v.optional(EventInput),
});
export type OrderItemInput = v.InferOutput<typeof OrderItemInput>;

export const CreateOrderRequest = v.pipe(
  v.strictObject({
    token: v.optional(QuoteToken),
    order_number: Text,
    currency: Currency,
    items: itemList(OrderItemInput),
    event: v.optional(EventInput),
    customer: v.optional(CustomerInput),
    billing_address: v.optional(BillingAddressInput),
    payment: v.optional(PaymentInput),
  }),
  costsInCurrency(),
);
export type CreateOrderRequest = v.InferOutput<typeof CreateOrderRequest>;

export const ItemChangeInput = v.strictObject({
  name: Text,
  old_reference_number: Text,
  reference_number: Text,
  /** Read in the order's currency by the change itself. */
  cost: AmountText,
  /** The new item's event (another date, another venue); without it, the replaced item's. */
  event: v.optional(EventInput),
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

const listFields = {
  ...listPage,
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

/** `preview: true` answers what would happen and changes nothing (docs/api.md "Preview a cancellation"). */
const Preview = v.optional(v.boolean('must be true or false'));

/** Cancel or void one policy: an optional body with an optional reason. */
export const SettlePolicyRequest = v.optional(v.strictObject({ reason: CancelReason, preview: Preview }), {});

/** Cancel or void a whole order. */
export const CancelOrderRequest = v.strictObject({ mode: v.picklist(['cancel', 'void'], 'must be cancel or void'), reason: CancelReason, preview: Preview });

/** Confirm a preview: no body, or `{}`. */
export const ConfirmCancellationRequest = v.optional(v.strictObject({}), {});

/** The order id of a path: anything that is not a service_order_id names no order (404 before any read). */
export function orderIdOf(pathParameters: Record<string, string | undefined> | undefined): string {
  const id = pathParameters?.id;
  if (!isOrderId(id)) throw orderNotFound();
  return id;
}

/** POST /test_helpers/orders/{id}/advance: how many days older the order becomes. */
export const AdvanceOrderRequest = v.strictObject({
  days: v.pipe(
    v.number('must be a whole number of days'),
    v.integer('must be a whole number of days'),
    v.minValue(1, 'must be at least 1'),
    v.maxValue(400, 'must be at most 400'),
  ),
});
