import { ConflictError, NotFoundError } from '../platform/errors.js';
import type { Minor, RatePpm } from '../platform/money/index.js';

/**
 * The order aggregate as the service keeps it. Items are never edited: a change replaces an
 * item with a new one, and the old item's policy leaves the Issued status.
 *
 * A policy starts `Issued` and only `Issued` moves: to `Upgraded`, `Downgraded` or `Exchanged`
 * (replaced by a change), `Canceled`, `Void` or `Claimed` (an approved claim). Every other
 * status is final.
 */
export type PolicyStatus = 'Issued' | 'Upgraded' | 'Downgraded' | 'Exchanged' | 'Canceled' | 'Void' | 'Claimed';

/** One step of a policy's life, oldest first; the first is always `Issued`. */
export interface PolicyEvent {
  status: PolicyStatus;
  at: string;
  /** Why: `order_created`, the change type that issued or replaced it, or a cancel reason. */
  reason: string;
}
export type ChangeType = 'upgrade' | 'downgrade' | 'exchange';

export interface Customer {
  id: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
}

export interface OrderEvent {
  id: string;
  name: string;
  start_date: string;
  start_time: string; // HH:MM:SS
  end_date: string | null;
  end_time: string | null;
  location: string | null;
}

export interface Policy {
  policy_number: string;
  policy_number_new: string;
  premium: Minor;
  /**
   * The merchant's share of the premium, under the policy's terms version, half-up. Absent on
   * policies sold before terms had versions: their version 1 has no commission (0).
   */
  commission?: Minor;
  /** The version of the client's terms it was sold under (a change's policy: the replaced one's); absent before versions, meaning 1. */
  terms_version?: number;
  coverage_amount: Minor;
  status: PolicyStatus;
  change_type?: ChangeType;
  /** policy_number of the policy this one replaced. */
  replaces?: string;
  /**
   * On a policy created by a change: its premium minus the replaced one's. Negative on a
   * downgrade (what the merchant refunds the customer), positive on an upgrade (what it charges).
   */
  premium_delta?: Minor;
  /** On a policy created by a change: its commission minus the replaced one's (signed). */
  commission_delta?: Minor;
  /** On a Void policy its premium, on a Canceled one 0: what the merchant owes the customer back. */
  refund_due?: Minor;
  history: PolicyEvent[];
  created: string;
  /**
   * The end of the policy's void window: set when the order is sold, from the client's look period
   * at that moment, and inherited by a policy a change creates. A later change of the client's
   * look period never moves it. Absent only on policies stored before windows were fixed at sale.
   */
  void_until?: string;
}

export interface OrderItem {
  id: string;
  reference_number: string;
  name: string;
  cost: Minor;
  event: OrderEvent | null;
  policy: Policy;
  /** reference_number of the item that replaced this one, once changed. */
  replaced_by?: string;
  /** The claim that holds this item's policy while it is open: change, cancel and void refuse it (409 claim_open). */
  open_claim?: string;
  /** Place in the order: the merchant's item order first, then replacements as they come. */
  position: number;
  created: string;
}

export interface Order {
  service_order_id: string;
  client_id: string;
  order_number: string;
  currency: string;
  /** Sum of the costs of the current (not replaced) items. */
  subtotal: Minor;
  /** The client's flat rate, on orders sold before terms had versions (their policies' version 1 has it). */
  rate_ppm?: RatePpm;
  customer: Customer | null;
  created: string;
  updated: string;
  /** Bumped by every change; a change commits only if the version it read is still current. */
  version: number;
  /** The claims filed on the order's policies, oldest first. */
  claim_ids?: string[];
  /** Days the test helper made this order older, in all (a test client's order only; at most 400). */
  advanced_days?: number;
  items: OrderItem[];
}

/** Status a replaced policy takes, from the new cost against the old one. */
export function classifyChange(oldCost: Minor, newCost: Minor): { changeType: ChangeType; oldStatus: PolicyStatus } {
  if (newCost > oldCost) return { changeType: 'upgrade', oldStatus: 'Upgraded' };
  if (newCost < oldCost) return { changeType: 'downgrade', oldStatus: 'Downgraded' };
  return { changeType: 'exchange', oldStatus: 'Exchanged' };
}

export const isCurrent = (item: OrderItem): boolean => item.replaced_by === undefined;

/**
 * A policy under an open claim is held for the claim: a change, cancel or void of it is refused
 * (409 `claim_open`) until the claim is denied or withdrawn (an approval makes it Claimed for good).
 */
const claimOpen = (claimId: string, param: string) =>
  new ConflictError(
    'claim_open',
    `The policy is under an open claim (${claimId}): it cannot change until the claim is denied or withdrawn (an approval makes it Claimed for good).`,
    param,
  );

/** 409 `claim_open` when any of these items is under an open claim (change, cancel and void call it). */
export function refuseIfClaimed(items: readonly OrderItem[], param: (item: OrderItem, index: number) => string): void {
  items.forEach((item, index) => {
    if (item.open_claim !== undefined) throw claimOpen(item.open_claim, param(item, index));
  });
}

/** 404 for an order id that names no order of the caller's (the path's `id`, as the other routes' 404s name theirs). */
export const orderNotFound = () => new NotFoundError('order_not_found', 'No order with this id.', 'id');
