import { ChangeRejectedError, ConflictError, NotFoundError } from '../../platform/errors.js';
import { orderNotFound } from '../order.js';
import type { ClientStore } from '../../clients/index.js';
import type { Clock } from '../../platform/clock.js';
import type { IdempotencyReceipt } from '../../platform/idempotency-receipts.js';
import { isCurrent, type Order, type OrderItem } from '../order.js';
import type { FoundPolicy, OrderReader, OrderWriter, PolicyStore } from '../ports.js';
import type { CancellationStore } from './ports.js';
import { backOff, MAX_ATTEMPTS, planOrderCancel } from '../cancel-order.js';
import { findPolicyOrFail, legacyLookPeriod, planPolicySettle, type CancelReason, type SettleAction } from '../settle-policy.js';
import { confirmBefore, newCancellationId, previewedPolicies, stillAsPreviewed, type Cancellation } from './cancellation.js';

/**
 * Preview and confirm (docs/api.md "Preview a cancellation"). The preview plans with the very
 * function the direct call plans with (planOrderCancel, planPolicySettle), so it refuses what the
 * call would refuse and promises what the call would do; it keeps the plan and writes nothing
 * else. The confirm plans again on the policies as they are now and commits only if each is as the
 * preview saw it, with the preview's confirmed mark in the same transaction: two confirms race, one
 * moves the policies, the other answers as a repeat.
 */
export interface CancellationDeps {
  orders: OrderReader & Pick<OrderWriter, 'settlePolicies'>;
  policies: PolicyStore;
  cancellations: CancellationStore;
  /** Read only to void a policy stored without its window: the client's look period. */
  clients: Pick<ClientStore, 'get'>;
  clock: Clock;
}

/** What a confirm answers: the order, as the order's cancel does, or the policy, as the single-policy call does. */
export type Confirmed = { scope: 'order'; order: Order } | { scope: 'policy'; policy: FoundPolicy };

const orderGone = (): never => {
  throw orderNotFound();
};
const notFound = () => new NotFoundError('cancellation_not_found', 'No cancellation with this id.');
const expired = (cancellation: Cancellation) =>
  new ConflictError(
    'cancellation_expired',
    `This preview could be confirmed until ${cancellation.confirm_before}; nothing was changed. Ask for a new preview.`,
  );
const stale = () => new ConflictError('cancellation_stale', 'A policy of this preview changed since it was made; nothing was changed. Ask for a new preview.');

async function keep(deps: CancellationDeps, fields: Omit<Cancellation, 'cancellation_id' | 'created' | 'confirm_before'>, voidWindows: string[]) {
  const now = deps.clock.now();
  const cancellation: Cancellation = {
    cancellation_id: newCancellationId(),
    ...fields,
    created: now.toISOString(),
    confirm_before: confirmBefore(now, fields.mode, voidWindows),
  };
  await deps.cancellations.save(cancellation);
  return cancellation;
}

/** POST /orders/{id}/cancel with `preview: true`: what the cancel or void of the order would do. */
export async function previewOrderCancel(
  deps: CancellationDeps,
  clientId: string,
  orderId: string,
  mode: SettleAction,
  reason: CancelReason,
): Promise<Cancellation> {
  const before = await deps.orders.get(clientId, orderId);
  if (!before) throw orderNotFound();
  const { moved } = await planOrderCancel(before, mode, reason, deps.clock.now(), legacyLookPeriod(deps.clients, clientId));
  const moves = moved.map((item) => ({ before: before.items.find((old) => old.reference_number === item.reference_number)!, after: item.policy }));
  return keep(
    deps,
    { client_id: clientId, scope: 'order', service_order_id: orderId, mode, reason, currency: before.currency, policies: previewedPolicies(moves) },
    moves.flatMap(({ before: item }) => (item.policy.void_until ? [item.policy.void_until] : [])),
  );
}

/** The single-policy cancel or void with `preview: true`: what it would do. */
export async function previewPolicySettle(
  deps: CancellationDeps,
  clientId: string,
  policyNumber: string,
  mode: SettleAction,
  reason: CancelReason,
): Promise<Cancellation> {
  const found = await findPolicyOrFail(deps.policies, clientId, policyNumber);
  const next = await planPolicySettle(found, mode, reason, deps.clock.now(), legacyLookPeriod(deps.clients, clientId));
  const moves = next ? [{ before: found.item, after: next }] : [];
  return keep(
    deps,
    {
      client_id: clientId,
      scope: 'policy',
      service_order_id: found.service_order_id,
      policy_number: policyNumber,
      mode,
      reason,
      currency: found.currency,
      policies: previewedPolicies(moves),
    },
    next && found.item.policy.void_until ? [found.item.policy.void_until] : [],
  );
}

/**
 * What a confirmed cancellation answers now: the order or the policy as it is (a repeat confirm).
 * An order's answer is replayed from the receipt, written alone here as an order cancel's repeat
 * writes it, so that no answer holding the customer is ever kept whole.
 */
async function answer(deps: CancellationDeps, cancellation: Cancellation, receipt: IdempotencyReceipt | undefined): Promise<Confirmed> {
  if (cancellation.scope === 'policy')
    return { scope: 'policy', policy: await findPolicyOrFail(deps.policies, cancellation.client_id, cancellation.policy_number!) };
  const order = await deps.orders.get(cancellation.client_id, cancellation.service_order_id);
  if (!order) throw orderNotFound();
  if (receipt) await deps.orders.settlePolicies(order, [], order, receipt);
  return { scope: 'order', order };
}

/** The items the confirm reads: the order's current ones (an order preview), or the one policy's. */
const itemsNow = (order: Order): OrderItem[] => order.items.filter(isCurrent);

/**
 * POST /cancellations/{id}/confirm: applies the preview exactly, or refuses with nothing changed:
 * 404 `cancellation_not_found` (not this client's), 409 `cancellation_expired` (after
 * `confirm_before`), 409 `cancellation_stale` (a policy moved since, or, for an order, a policy it
 * did not plan became Issued). A confirmed cancellation answers as it is now, again and again; a
 * confirm that finds the policies moved reads the preview once more before saying stale, since the
 * move may be its twin's confirm.
 */
export async function confirmCancellation(deps: CancellationDeps, clientId: string, cancellationId: string, receipt?: IdempotencyReceipt): Promise<Confirmed> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const cancellation = await deps.cancellations.get(clientId, cancellationId);
    if (!cancellation) throw notFound();
    if (cancellation.confirmed_at) return answer(deps, cancellation, cancellation.scope === 'order' ? receipt : undefined);
    const now = deps.clock.now();
    if (now.getTime() > Date.parse(cancellation.confirm_before)) throw expired(cancellation);
    const outcome = await tryConfirm(deps, cancellation, now, receipt);
    if (typeof outcome === 'object') return outcome;
    if (outcome === 'stale') {
      const again = await deps.cancellations.get(clientId, cancellationId);
      if (!again?.confirmed_at) throw stale();
      return answer(deps, again, again.scope === 'order' ? receipt : undefined);
    }
    await backOff(attempt);
  }
  throw new ConflictError('order_busy', 'The order is being changed by other requests; retry.');
}

/**
 * One try: plan again on the policies as they are and commit with the confirmed mark. `stale`: a
 * policy is not as previewed, or the plan now differs or is refused; `retry`: the order moved
 * between the read and the write.
 */
async function tryConfirm(
  deps: CancellationDeps,
  cancellation: Cancellation,
  now: Date,
  receipt: IdempotencyReceipt | undefined,
): Promise<Confirmed | 'stale' | 'retry'> {
  const { client_id: clientId, mode, reason } = cancellation;
  const confirmation = { client_id: clientId, cancellation_id: cancellation.cancellation_id, confirmed_at: now.toISOString() };
  const lookPeriodDays = legacyLookPeriod(deps.clients, clientId);
  const refusedAsStale = (err: unknown): 'stale' => {
    if (err instanceof ConflictError) return 'stale';
    throw err;
  };

  if (cancellation.scope === 'policy') {
    const found = await findPolicyOrFail(deps.policies, clientId, cancellation.policy_number!);
    if (!stillAsPreviewed(cancellation, [found.item])) return 'stale';
    const next = await planPolicySettle(found, mode, reason, now, lookPeriodDays).catch(refusedAsStale);
    if (next === 'stale' || (next === undefined) !== (cancellation.policies.length === 0)) return 'stale';
    if (next)
      return (await deps.policies.settlePolicy(clientId, found, next, confirmation))
        ? { scope: 'policy', policy: { ...found, item: { ...found.item, policy: next } } }
        : 'stale';
    // A preview of a repeat moves nothing: its confirm only marks it (no receipt: the policy's answer is kept whole).
    const order = (await deps.orders.get(clientId, found.service_order_id)) ?? orderGone();
    return (await committed(deps, order, [], undefined, confirmation)) ? { scope: 'policy', policy: found } : 'stale';
  }

  const before = (await deps.orders.get(clientId, cancellation.service_order_id)) ?? orderGone();
  if (!stillAsPreviewed(cancellation, itemsNow(before))) return 'stale';
  const plan = await planOrderCancel(before, mode, reason, now, lookPeriodDays).catch(refusedAsStale);
  if (plan === 'stale') return 'stale';
  const planned = new Set(cancellation.policies.map((policy) => policy.policy_number));
  if (plan.moved.length !== planned.size || plan.moved.some((item) => !planned.has(item.policy.policy_number))) return 'stale';
  return (await committed(deps, before, plan.moved, receipt, confirmation, plan.after)) ? { scope: 'order', order: plan.after } : 'retry';
}

/** The order's settle transaction with the confirmation; false when a condition no longer held (read again). */
async function committed(
  deps: CancellationDeps,
  before: Order,
  moved: OrderItem[],
  receipt: IdempotencyReceipt | undefined,
  confirmation: NonNullable<Parameters<OrderWriter['settlePolicies']>[4]>,
  after: Pick<Order, 'updated' | 'version'> = before,
): Promise<boolean> {
  try {
    await deps.orders.settlePolicies(before, moved, after, receipt, confirmation);
    return true;
  } catch (err) {
    if (err instanceof ChangeRejectedError && err.reason === 'stale') return false;
    throw err;
  }
}
