import { ConflictError, NotFoundError } from '../platform/errors.js';
import { DEFAULT_LOOK_PERIOD_DAYS, voidWindowEnd, type ClientStore } from '../clients/index.js';
import { refuseIfClaimed, type Policy, type PolicyStatus } from './order.js';
import type { Clock } from '../platform/clock.js';
import type { FoundPolicy, PolicyStore } from './ports.js';

/**
 * Cancel and void (docs/api.md "Cancel and void a policy"). Only an Issued policy moves: to
 * `Canceled` (nothing refunded) or, within its void window (`void_until`, fixed at sale from the
 * client's look period then), to `Void` (its premium refunded). Repeating the same request on a
 * policy already in that status answers it as it is and writes nothing; any other status is 409.
 */
export const CANCEL_REASONS = ['order_canceled', 'ticket_transferred', 'resold', 'customer_request', 'other'] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];
export type SettleAction = 'cancel' | 'void';

export interface SettlePolicyDeps {
  policies: PolicyStore;
  /** Read only to void a policy stored without its window: the client's look period. */
  clients: Pick<ClientStore, 'get'>;
  clock: Clock;
}

export const TARGET: Record<SettleAction, PolicyStatus> = { cancel: 'Canceled', void: 'Void' };

/**
 * When a policy's void window ends: fixed at sale (`void_until`). A policy stored before windows
 * were fixed has none until `npm run migrate` gives it one; meanwhile it is counted, as it was
 * then, from its creation with the client's look period, read only for such a policy.
 */
async function voidWindowOf(policy: Pick<Policy, 'created' | 'void_until'>, lookPeriodDays: () => Promise<number>): Promise<string> {
  return policy.void_until ?? voidWindowEnd(new Date(policy.created), await lookPeriodDays());
}

/** The client's look period, for a policy stored without its window (read once per request). */
export function legacyLookPeriod(clients: Pick<ClientStore, 'get'>, clientId: string): () => Promise<number> {
  let days: Promise<number> | undefined;
  return () => (days ??= clients.get(clientId).then((client) => client?.look_period_days ?? DEFAULT_LOOK_PERIOD_DAYS));
}

/**
 * 409 `look_period_over` when `now` is past the policy's void window (`whole`: the order's void,
 * which then moves nothing); `param` names the policy by its number, on a single void as on an order's.
 */
export async function refuseAfterVoidWindow(policy: Policy, now: Date, lookPeriodDays: () => Promise<number>, whole = false): Promise<void> {
  const voidUntil = await voidWindowOf(policy, lookPeriodDays);
  if (now.getTime() <= Date.parse(voidUntil)) return;
  throw new ConflictError(
    'look_period_over',
    whole
      ? `Policy ${policy.policy_number} could be voided until ${voidUntil}, so the order cannot be voided; nothing was changed (cancel it instead).`
      : `Policy ${policy.policy_number} could be voided until ${voidUntil}; it can be canceled, not voided.`,
    policy.policy_number,
  );
}

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

/**
 * Plans the cancel or void of one policy as found (the direct call, its preview and its confirm
 * alike): undefined when it is already in the asked status (a repeat: nothing moves); else the
 * policy after, or the refusal (409 `policy_not_issued`, `claim_open`, `look_period_over`).
 */
export async function planPolicySettle(
  found: FoundPolicy,
  action: SettleAction,
  reason: CancelReason,
  now: Date,
  lookPeriodDays: () => Promise<number>,
): Promise<Policy | undefined> {
  const { policy } = found.item;
  if (policy.status === TARGET[action]) return undefined;
  if (policy.status !== 'Issued') throw notIssued(policy.status);
  refuseIfClaimed([found.item], () => 'policy_number');
  if (action === 'void') await refuseAfterVoidWindow(policy, now, lookPeriodDays);
  return settled(policy, action, reason, now);
}

/** The policy of this client with this number, or 404 `policy_not_found`. */
export async function findPolicyOrFail(policies: Pick<PolicyStore, 'findPolicy'>, clientId: string, policyNumber: string): Promise<FoundPolicy> {
  const found = await policies.findPolicy(clientId, policyNumber);
  if (!found) throw notFound();
  return found;
}

/** After a lost race to move the policy: the winner's answer when it was this same action (a repeat), else the refusal. */
function afterLostRace(moved: FoundPolicy | undefined, action: SettleAction): FoundPolicy {
  if (moved?.item.policy.status === TARGET[action]) return moved;
  if (moved) refuseIfClaimed([moved.item], () => 'policy_number');
  throw notIssued(moved?.item.policy.status ?? 'Issued');
}

export async function settlePolicy(
  deps: SettlePolicyDeps,
  clientId: string,
  policyNumber: string,
  action: SettleAction,
  reason: CancelReason,
): Promise<FoundPolicy> {
  const found = await findPolicyOrFail(deps.policies, clientId, policyNumber);
  const next = await planPolicySettle(found, action, reason, deps.clock.now(), legacyLookPeriod(deps.clients, clientId));
  if (!next) return found;
  // Another request moved it first: exactly one wins. If it was this same action, this is its repeat.
  if (!(await deps.policies.settlePolicy(clientId, found, next))) return afterLostRace(await deps.policies.findPolicy(clientId, policyNumber), action);
  return { ...found, item: { ...found.item, policy: next } };
}
