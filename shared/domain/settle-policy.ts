import { ConflictError, NotFoundError } from '../errors.js';
import { refuseIfClaimed } from './claim.js';
import { DEFAULT_LOOK_PERIOD_DAYS, type ClientStore } from './client.js';
import type { Policy, PolicyStatus } from './order.js';
import type { Clock, FoundPolicy, PolicyStore } from './ports.js';

/**
 * Cancel and void (README "Policies: cancel and void"). Only an Issued policy moves: to
 * `Canceled` (nothing refunded) or, within the client's look period counted from the policy's
 * creation, to `Void` (its premium refunded). Repeating the same request on a policy already in
 * that status answers it as it is and writes nothing; any other status is 409.
 */
export const CANCEL_REASONS = ['order_canceled', 'ticket_transferred', 'resold', 'customer_request', 'other'] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];
export type SettleAction = 'cancel' | 'void';

export interface SettlePolicyDeps {
  policies: PolicyStore;
  /** Read for a void only: the client's look period. */
  clients: Pick<ClientStore, 'get'>;
  clock: Clock;
}

const TARGET: Record<SettleAction, PolicyStatus> = { cancel: 'Canceled', void: 'Void' };
const DAY_MS = 86_400_000;

/** Whether `now` is within `days` of the policy's creation. */
export const withinLookPeriod = (policy: Pick<Policy, 'created'>, days: number, now: Date): boolean =>
  now.getTime() <= Date.parse(policy.created) + days * DAY_MS;

/** The policy after the action: its new status, what is owed back, and the step in its history. */
export function settled(policy: Policy, action: SettleAction, reason: CancelReason, now: Date): Policy {
  const status = TARGET[action];
  return {
    ...policy,
    status,
    refund_due: action === 'void' ? policy.premium : 0,
    history: [...policy.history, { status, at: now.toISOString(), reason }],
  };
}

const notFound = () => new NotFoundError('policy_not_found', 'No policy with this number.', 'policy_number');
const notIssued = (status: PolicyStatus) =>
  new ConflictError('policy_not_issued', `The policy is ${status}; only an Issued policy can be canceled or voided.`, 'policy_number');

export async function settlePolicy(
  deps: SettlePolicyDeps,
  clientId: string,
  policyNumber: string,
  action: SettleAction,
  reason: CancelReason,
): Promise<FoundPolicy> {
  const found = await deps.policies.findPolicy(clientId, policyNumber);
  if (!found) throw notFound();
  const { policy } = found.item;
  const target = TARGET[action];
  if (policy.status === target) return found;
  if (policy.status !== 'Issued') throw notIssued(policy.status);
  refuseIfClaimed([found.item], () => 'policy_number');

  const now = deps.clock.now();
  if (action === 'void') {
    const days = (await deps.clients.get(clientId))?.look_period_days ?? DEFAULT_LOOK_PERIOD_DAYS;
    if (!withinLookPeriod(policy, days, now)) {
      throw new ConflictError('look_period_over', `The look period of ${days} days is over for this policy; it can be canceled, not voided.`, 'policy_number');
    }
  }
  const next = settled(policy, action, reason, now);
  if (!(await deps.policies.settlePolicy(clientId, found, next))) {
    // Another request moved it first: exactly one wins. If it was this same action, this is its repeat.
    const moved = await deps.policies.findPolicy(clientId, policyNumber);
    if (moved?.item.policy.status === target) return moved;
    if (moved) refuseIfClaimed([moved.item], () => 'policy_number');
    throw notIssued(moved?.item.policy.status ?? 'Issued');
  }
  return { ...found, item: { ...found.item, policy: next } };
}
