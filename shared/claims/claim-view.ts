import type { Claim } from './claim.js';
import { formatMoney } from '../platform/money/index.js';
import type { Order, OrderItem } from '../orders/index.js';
import type { StoredClaim } from './ports.js';
import type { ClaimContext } from './operator-claims.js';

/**
 * Claims as the customer and the operator see them. Fields are listed one by one, so nothing
 * stored (the operator's identity, index keys) reaches an answer by accident; the operator's
 * identity only in the operator's views. The text (description
 * and messages) appears only in a single claim's answer, and is null once erased.
 */
export function claimSummaryView(claim: Claim) {
  return {
    claim_id: claim.claim_id,
    status: claim.status,
    reason: claim.reason,
    service_order_id: claim.service_order_id,
    currency: claim.currency,
    amount_claimed: formatMoney(claim.amount_claimed, claim.currency),
    amount_approved: claim.amount_approved === undefined ? null : formatMoney(claim.amount_approved, claim.currency),
    payout_reference: claim.payout_reference ?? null,
    policies: claim.policies.map((policy) => ({
      policy_number: policy.policy_number,
      reference_number: policy.reference_number,
      coverage_amount: formatMoney(policy.coverage_amount, claim.currency),
    })),
    history: claim.history.map((step) => ({ status: step.status, at: step.at, by: step.by })),
    created: claim.created,
    updated: claim.updated,
    closed_at: claim.closed_at ?? null,
  };
}

export function claimView({ claim, text }: StoredClaim) {
  return {
    ...claimSummaryView(claim),
    description: text?.description ?? null,
    messages: (text?.messages ?? []).map((message) => ({ from: message.from, at: message.at, text: message.text })),
    text_erased: text === undefined,
  };
}

/**
 * What only the operator sees of a claim: the merchant (id and name), the order's number, each
 * claimed policy's item and event, and who of the operator's staff decided and who recorded the
 * payout (their identity as API Gateway named it). Null where a record is gone or no one has yet.
 */
function operatorFacts(claim: Claim, context: ClaimContext) {
  return {
    client_id: claim.client_id,
    client_name: context.client?.name ?? null,
    // A test client's claim moves no real money: the queue marks it.
    client_mode: context.client?.mode ?? null,
    order_number: context.order?.order_number ?? null,
    policies: claimedTickets(claim, context.order),
    decided_by: claim.decided_by ?? null,
    paid_by: claim.paid_by ?? null,
    // What staff should look at, with why (never a refusal; never in the customer's or merchant's answers).
    signals: (claim.signals ?? []).map((signal) => ({ code: signal.code, reason: signal.reason })),
  };
}

/** A claim's policies, each with its ticket's name and event as the order holds them (null where the order, or its item, is gone). */
function claimedTickets(claim: Claim, order: { items: readonly Pick<OrderItem, 'reference_number' | 'name' | 'event'>[] } | undefined) {
  const items = new Map(order?.items.map((item) => [item.reference_number, item]));
  return claim.policies.map((policy) => {
    const item = items.get(policy.reference_number);
    return {
      policy_number: policy.policy_number,
      reference_number: policy.reference_number,
      coverage_amount: formatMoney(policy.coverage_amount, claim.currency),
      item: item ? { name: item.name } : null,
      event: item?.event ? { name: item.event.name, start_date: item.event.start_date, start_time: item.event.start_time } : null,
    };
  });
}

/** A decision's or a payout's answer: who acted, without the context (which never changes, and would cost a read). */
export const operatorMovedView = (stored: StoredClaim) => ({
  ...claimView(stored),
  client_id: stored.claim.client_id,
  decided_by: stored.claim.decided_by ?? null,
  paid_by: stored.claim.paid_by ?? null,
});
export const operatorClaimView = (stored: StoredClaim & { context: ClaimContext }) => ({
  ...claimView(stored),
  ...operatorFacts(stored.claim, stored.context),
});
export const operatorClaimSummaryView = ({ claim, context }: { claim: Claim; context: ClaimContext }) => ({
  ...claimSummaryView(claim),
  ...operatorFacts(claim, context),
});

/** A policy the customer may claim: enough to recognise the ticket, nothing of anyone else's. */
const claimablePolicyView = (order: Order, item: OrderItem) => ({
  policy_number: item.policy.policy_number,
  status: item.policy.status,
  currency: order.currency,
  premium: formatMoney(item.policy.premium, order.currency),
  coverage_amount: formatMoney(item.policy.coverage_amount, order.currency),
  item: { name: item.name, reference_number: item.reference_number },
  event: item.event && { name: item.event.name, start_date: item.event.start_date, start_time: item.event.start_time },
});

export function claimSessionView(token: string, expiresIn: number, order: Order, claimable: readonly OrderItem[], claims: readonly Claim[]) {
  return {
    claim_token: token,
    token_type: 'Bearer',
    expires_in: expiresIn,
    service_order_id: order.service_order_id,
    currency: order.currency,
    policies: claimable.map((item) => claimablePolicyView(order, item)),
    // The claimed tickets are no longer among `policies`: named here, so a customer coming back recognises them.
    claims: claims.map((claim) => ({ ...claimSummaryView(claim), policies: claimedTickets(claim, order) })),
  };
}
