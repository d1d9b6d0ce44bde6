import { formatMoney, sumMinor, type Minor } from '../../platform/money/index.js';
import { prefixedId, prefixedIdPattern } from '../../platform/ids.js';
import type { OrderItem, Policy, PolicyStatus } from '../order.js';
import type { CancelReason, SettleAction } from '../settle-policy.js';

/**
 * A cancellation seen before it happens (docs/api.md "Preview a cancellation"): the order cancel
 * and the single-policy cancel and void, asked with `preview: true`, plan exactly what they would
 * do, change nothing, and keep the plan as a cancellation `cn_…`. Its confirm applies that plan
 * while it still holds: before `confirm_before`, and only if none of its policies moved since.
 */

/** How long a preview can be confirmed, at most (a void's preview: no later than its policies' void windows). */
export const CONFIRM_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A preview is kept this long after `confirm_before`, so a repeat confirm answers the same; then it is gone (404). */
export const KEEP_AFTER_CONFIRM_BEFORE_DAYS = 30;

export const newCancellationId = (): string => prefixedId('cn');
const CANCELLATION_ID = prefixedIdPattern('cn');
export const isCancellationId = (id: string | undefined): id is string => id !== undefined && CANCELLATION_ID.test(id);

/** What the preview saw of a policy: any change of it since (a status, a step, a claim, a rewritten time) differs. */
export const policyMark = (item: Pick<OrderItem, 'open_claim'> & { policy: Pick<Policy, 'status' | 'history'> }): string =>
  [item.policy.status, item.policy.history.length, item.policy.history.at(-1)?.at ?? '', item.open_claim ?? ''].join('|');

export interface PreviewedPolicy {
  policy_number: string;
  /** The item that carries it (the order's key for it). */
  reference_number: string;
  status_after: PolicyStatus;
  refund_due: Minor;
  /** policyMark of the policy when previewed. */
  mark: string;
}

export interface Cancellation {
  cancellation_id: string;
  client_id: string;
  /** `order`: POST /orders/{id}/cancel; `policy`: the single-policy cancel or void. */
  scope: 'order' | 'policy';
  service_order_id: string;
  /** The policy named by a single-policy preview. */
  policy_number?: string;
  mode: SettleAction;
  reason: CancelReason;
  currency: string;
  /** The policies the confirm moves (none when the call would be a repeat that moves nothing). */
  policies: PreviewedPolicy[];
  created: string;
  confirm_before: string;
  /** Set by the confirm that applied it, in the same transaction as the policies it moved. */
  confirmed_at?: string;
}

/**
 * When the preview stops being confirmable: CONFIRM_WINDOW_MS after it, but never after a void
 * window of a policy it voids, since the void it promises would then be refused.
 */
export function confirmBefore(now: Date, mode: SettleAction, voidWindows: readonly string[]): string {
  const limits = [now.getTime() + CONFIRM_WINDOW_MS, ...(mode === 'void' ? voidWindows.map((until) => Date.parse(until)) : [])];
  return new Date(Math.min(...limits)).toISOString();
}

/** The TTL (epoch seconds) after which the kept preview is deleted. */
export const cancellationExpiry = (cancellation: Pick<Cancellation, 'confirm_before'>): number =>
  Math.floor(Date.parse(cancellation.confirm_before) / 1000) + KEEP_AFTER_CONFIRM_BEFORE_DAYS * 86_400;

/** The preview's plan from the policies as planned to move (each with what it was before). */
export function previewedPolicies(moves: readonly { before: OrderItem; after: Policy }[]): PreviewedPolicy[] {
  return moves.map(({ before, after }) => ({
    policy_number: after.policy_number,
    reference_number: before.reference_number,
    status_after: after.status,
    refund_due: after.refund_due ?? 0,
    mark: policyMark(before),
  }));
}

/** True when each policy is still as previewed (by its item's reference number). */
export function stillAsPreviewed(cancellation: Pick<Cancellation, 'policies'>, items: readonly OrderItem[]): boolean {
  return cancellation.policies.every((previewed) => {
    const item = items.find((candidate) => candidate.reference_number === previewed.reference_number);
    return item !== undefined && item.policy.policy_number === previewed.policy_number && policyMark(item) === previewed.mark;
  });
}

/** The preview's answer: what would happen, to the minor unit of the order's currency. */
export function cancellationView(cancellation: Cancellation) {
  return {
    cancellation_id: cancellation.cancellation_id,
    service_order_id: cancellation.service_order_id,
    mode: cancellation.mode,
    reason: cancellation.reason,
    currency: cancellation.currency,
    total_refund: formatMoney(sumMinor(cancellation.policies.map((policy) => policy.refund_due)), cancellation.currency),
    policies: cancellation.policies.map((policy) => ({
      policy_number: policy.policy_number,
      status_after: policy.status_after,
      refund_due: formatMoney(policy.refund_due, cancellation.currency),
    })),
    created: cancellation.created,
    confirm_before: cancellation.confirm_before,
  };
}
