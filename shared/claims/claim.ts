import { ConflictError, NotEligibleError, NotFoundError, ValidationError } from '../platform/errors.js';
import { formatMoney, fromHundredths, inMinorUnits, parseMoney, sumMinor, type Minor } from '../platform/money/index.js';
import { isCurrent, refuseIfClaimed, type Order, type OrderItem } from '../orders/index.js';

/**
 * Claims (docs/api.md "Claims"): a customer asks for the refund their policies promised, the operator
 * decides, the merchant is told. Pure: the states, what moves them, and what each move refuses.
 *
 *   Submitted ⇄ DocumentsRequested      (operator asks for documents; the customer answers)
 *   Submitted → Approved → Paid
 *   Submitted → Denied                  (also DocumentsRequested left unanswered DOCUMENTS_WAIT_MS)
 *   Submitted | DocumentsRequested → Withdrawn (the customer, before a decision)
 *
 * While a claim is open (Submitted or DocumentsRequested) its policies are locked: they refuse
 * change, cancel and void (409 `claim_open`). Approval makes them `Claimed`; a denial or a
 * withdrawal frees them (still Issued: they may be claimed again). A claim is closed once Paid,
 * Denied or Withdrawn, and its text (description and messages, which may hold health data) is
 * erased TEXT_KEPT_MS later; the claim's facts (status, amounts, policies, times) stay.
 */
export const CLAIM_REASONS = ['illness', 'injury', 'travel_disruption', 'bereavement', 'severe_weather', 'other'] as const;
export type ClaimReason = (typeof CLAIM_REASONS)[number];
export const CLAIM_STATUSES = ['Submitted', 'DocumentsRequested', 'Approved', 'Denied', 'Withdrawn', 'Paid'] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];
export type Decision = 'approve' | 'deny' | 'request_documents';

/** A claim's free text: at most this many characters (the description, each message). */
export const MAX_CLAIM_TEXT = 2000;
/** Messages a claim may gather (operator notes and the customer's answers), so its text stays small. */
export const MAX_CLAIM_MESSAGES = 20;
/**
 * Policies one claim may name: filing writes the claim, its text, the order header and one lock
 * per policy in one transaction of at most 100 actions.
 */
export const MAX_CLAIM_POLICIES = 96;
/** Claims an order may gather over its life (the session lists them all). */
export const MAX_ORDER_CLAIMS = 25;
// Filing is one transaction: the claim, its text, the order, the customer's mark and a lock per policy (at most 100 actions).
if (MAX_CLAIM_POLICIES + 4 > 100) throw new Error('claims: a filing would exceed a transaction');

/**
 * A claim's amounts in minor units. A claim stored before amounts counted them (no `minor_units`
 * mark) held hundredths: each coverage is converted as its order's items are (orders'
 * stored-amounts.ts), the claimed amount is their sum again, and the approved amount never exceeds it.
 */
export function claimInMinorUnits<T extends Claim>(claim: T): T {
  if (inMinorUnits(claim)) return claim;
  const minor = (hundredths: number) => fromHundredths(hundredths, claim.currency);
  const policies = claim.policies.map((policy) => ({ ...policy, coverage_amount: minor(policy.coverage_amount) }));
  const amountClaimed = sumMinor(policies.map((policy) => policy.coverage_amount));
  return {
    ...claim,
    policies,
    amount_claimed: amountClaimed,
    ...(claim.amount_approved === undefined ? {} : { amount_approved: Math.min(minor(claim.amount_approved), amountClaimed) }),
  };
}
/** How long a closed claim's text is kept: 90 days. */
export const TEXT_KEPT_MS = 90 * 24 * 60 * 60 * 1000;

const OPEN: readonly ClaimStatus[] = ['Submitted', 'DocumentsRequested'];
const CLOSED: readonly ClaimStatus[] = ['Paid', 'Denied', 'Withdrawn'];
export const isOpen = (status: ClaimStatus): boolean => OPEN.includes(status);
export const isClosed = (status: ClaimStatus): boolean => CLOSED.includes(status);

export interface ClaimedPolicy {
  policy_number: string;
  reference_number: string;
  coverage_amount: Minor;
}

/** One step of a claim's life, oldest first. */
export interface ClaimStep {
  status: ClaimStatus;
  at: string;
  by: 'customer' | 'operator';
}

/** The claim's facts: no free text, nothing personal. Webhooks are made from these. */
export interface Claim {
  claim_id: string;
  client_id: string;
  service_order_id: string;
  currency: string;
  status: ClaimStatus;
  reason: ClaimReason;
  policies: ClaimedPolicy[];
  amount_claimed: Minor;
  amount_approved?: Minor;
  payout_reference?: string;
  history: ClaimStep[];
  created: string;
  updated: string;
  /** When it reached Paid, Denied or Withdrawn. */
  closed_at?: string;
  /** Bumped by every transition; a transition commits only if the version it read is still current. */
  version: number;
  /**
   * Who made the last decision (the operator's identity as API Gateway gave it): shown to the
   * operator, never to the customer, the merchant or in an event. Claims paid before `paid_by`
   * existed hold the payer here.
   */
  decided_by?: string;
  /** Who recorded the payout, likewise. */
  paid_by?: string;
  /** What staff should look at, with why (computed at filing; never a refusal, never shown but to staff). */
  signals?: Signal[];
}

/**
 * Eligibility (XClaim's check) and signals. A policy is claimable while it is Issued, current and
 * under no open claim, until FILING_WINDOW_DAYS after its event ends (its end date, else its start
 * date, to the end of that day UTC); an item without an event has no such limit. Signals are for
 * staff, with their reasons, never refusals.
 */
export const FILING_WINDOW_DAYS = 90;
/** A claim filed this soon after the purchase is signalled. */
export const SOON_AFTER_PURCHASE_MS = 24 * 60 * 60 * 1000;
/** Another merchant's claim by the same customer this recent is signalled. */
export const ELSEWHERE_WITHIN_DAYS = 365;
/** Another merchant's claims by the same customer read at most (the newest). */
export const MAX_ELSEWHERE_READ = 25;

export const FAILED_CHECKS = ['policy_not_found', 'policy_not_issued', 'claim_open', 'nothing_covered', 'filed_too_late', 'too_many_claims'] as const;
export type FailedCheck = (typeof FAILED_CHECKS)[number];
export type SignalCode = 'claimed_elsewhere' | 'filed_soon_after_purchase' | 'event_begun_at_purchase';
export interface Signal {
  code: SignalCode;
  reason: string;
}

/** The moment an item stops being claimable: FILING_WINDOW_DAYS after the end of its event's last day; undefined without an event. */
export function filingDeadline(item: OrderItem): Date | undefined {
  const last = item.event?.end_date ?? item.event?.start_date;
  return last ? new Date(Date.parse(`${last}T23:59:59.999Z`) + FILING_WINDOW_DAYS * 86_400_000) : undefined;
}

/** A policy that pays nothing (its item cost nothing): a claim on it could only be denied, and would hold the order's cancellation until it was. */
const coversNothing = (item: OrderItem): boolean => item.policy.coverage_amount <= 0;

/** What stops a policy of the order being claimed now; empty when it can be. */
export function failedChecksOf(order: Order, item: OrderItem | undefined, now: Date): FailedCheck[] {
  if (!item) return ['policy_not_found'];
  const failed: FailedCheck[] = [];
  if (item.open_claim !== undefined) failed.push('claim_open');
  else if (item.policy.status !== 'Issued' || !isCurrent(item)) failed.push('policy_not_issued');
  if (coversNothing(item)) failed.push('nothing_covered');
  const deadline = filingDeadline(item);
  if (deadline && now.getTime() > deadline.getTime()) failed.push('filed_too_late');
  if ((order.claim_ids?.length ?? 0) >= MAX_ORDER_CLAIMS) failed.push('too_many_claims');
  return failed;
}

/** Refuses a list that names one policy twice (422 duplicate_policy, on the second), as filing and eligibility both do. */
function assertDistinct(policyNumbers: readonly string[]): void {
  const seen = new Set<string>();
  policyNumbers.forEach((number, index) => {
    const param = `policy_numbers[${index}]`;
    if (seen.has(number)) throw new ValidationError(`${param}: names ${number} a second time; name each policy once.`, param, 'duplicate_policy');
    seen.add(number);
  });
}

/**
 * GET /claims/eligibility: whether these policies can be claimed together now, what fails, and what
 * the claimable ones cover; a list filing would refuse as such (a policy named twice) is refused alike.
 */
export function eligibilityOf(order: Order, policyNumbers: readonly string[], now: Date) {
  assertDistinct(policyNumbers);
  const byNumber = new Map(order.items.map((item) => [item.policy.policy_number, item]));
  const failed = new Set<FailedCheck>();
  let claimable: Minor = 0;
  const policies = policyNumbers.map((number) => {
    const item = byNumber.get(number);
    const checks = failedChecksOf(order, item, now);
    for (const check of checks) failed.add(check);
    if (checks.length === 0 && item) claimable = sumMinor([claimable, item.policy.coverage_amount]);
    return { policy_number: number, failed_checks: checks };
  });
  const failed_checks = FAILED_CHECKS.filter((check) => failed.has(check));
  return { eligible: failed_checks.length === 0, failed_checks, claimable_amount: claimable, currency: order.currency, policies };
}

/** The signals of a claim filed now on these items of the order, given the customer's claims at other merchants. */
export function signalsOf(order: Order, items: readonly OrderItem[], now: Date, elsewhere: readonly { client_id: string; created: string }[]): Signal[] {
  const signals: Signal[] = [];
  const others = elsewhere.filter(
    (claim) => claim.client_id !== order.client_id && now.getTime() - Date.parse(claim.created) <= ELSEWHERE_WITHIN_DAYS * 86_400_000,
  );
  if (others.length > 0) {
    const latest = others
      .map((claim) => claim.created)
      .sort()
      .at(-1)!;
    signals.push({
      code: 'claimed_elsewhere',
      reason: `The same customer (by e-mail) filed ${others.length === 1 ? 'a claim' : `${others.length} claims`} at another merchant in the last ${ELSEWHERE_WITHIN_DAYS} days, the latest on ${latest.slice(0, 10)}.`,
    });
  }
  // The purchase of what is claimed: the latest of its policies' (a change may have issued one after the order).
  const bought = Math.max(...items.map((item) => Date.parse(item.policy.created)));
  const hours = (now.getTime() - bought) / 3_600_000;
  if (now.getTime() - bought < SOON_AFTER_PURCHASE_MS)
    signals.push({
      code: 'filed_soon_after_purchase',
      reason: `Filed ${hours < 1 ? 'less than an hour' : `${Math.floor(hours)} hours`} after the protection was bought (within 24 hours).`,
    });
  const begun = items.filter(
    (item) => item.event && Date.parse(`${item.event.start_date}T${item.event.start_time.slice(0, 5)}:00Z`) <= Date.parse(item.policy.created),
  );
  if (begun.length > 0)
    signals.push({
      code: 'event_begun_at_purchase',
      reason: `The event had already begun when the protection was bought (${begun.map((item) => item.event!.name).join(', ')}).`,
    });
  return signals;
}

export interface ClaimMessage {
  from: 'customer' | 'operator';
  at: string;
  text: string;
}

/** The claim's text, kept apart from its facts so that it can be erased on its own. */
export interface ClaimText {
  description: string;
  messages: ClaimMessage[];
  /** Set when the claim closes: from then on the text is gone (DynamoDB's TTL deletes it soon after). */
  erase_at?: string;
}

export interface FileClaimInput {
  policy_numbers: readonly string[];
  reason: ClaimReason;
  description: string;
}

/** The items of the order a customer may claim now: current, Issued, under no open claim, and covering more than nothing. */
export const claimableItems = (order: Order): OrderItem[] =>
  order.items.filter((item) => isCurrent(item) && item.policy.status === 'Issued' && item.open_claim === undefined && !coversNothing(item));

/** A new claim on these policies of the order, with its text; refuses a policy that cannot be claimed, naming it. */
export function fileClaim(order: Order, input: FileClaimInput, claimId: string, now: Date): { claim: Claim; text: ClaimText; items: OrderItem[] } {
  if ((order.claim_ids?.length ?? 0) >= MAX_ORDER_CLAIMS) {
    throw new ConflictError('too_many_claims', `An order may have at most ${MAX_ORDER_CLAIMS} claims, withdrawn ones included; this one has them all.`);
  }
  assertDistinct(input.policy_numbers);
  const byNumber = new Map(order.items.map((item) => [item.policy.policy_number, item]));
  const items = input.policy_numbers.map((number, index) => {
    const param = `policy_numbers[${index}]`;
    const item = byNumber.get(number);
    if (!item) throw new NotFoundError('policy_not_found', 'No policy with this number in this order.', param);
    refuseIfClaimed([item], () => param);
    if (item.policy.status !== 'Issued' || !isCurrent(item)) {
      throw new ConflictError('policy_not_issued', `The policy is ${item.policy.status}; only an Issued policy can be claimed.`, param);
    }
    if (coversNothing(item))
      throw new NotEligibleError(
        ['nothing_covered'],
        `The policy covers ${formatMoney(item.policy.coverage_amount, order.currency)} ${order.currency} (its item cost nothing), so there is nothing to claim.`,
        param,
      );
    const deadline = filingDeadline(item);
    if (deadline && now.getTime() > deadline.getTime())
      throw new NotEligibleError(
        ['filed_too_late'],
        `A claim is filed at most ${FILING_WINDOW_DAYS} days after the event ends; this one could be claimed until ${deadline.toISOString().slice(0, 10)}.`,
        param,
      );
    return item;
  });
  const at = now.toISOString();
  const policies = items.map((item) => ({
    policy_number: item.policy.policy_number,
    reference_number: item.reference_number,
    coverage_amount: item.policy.coverage_amount,
  }));
  const claim: Claim = {
    claim_id: claimId,
    client_id: order.client_id,
    service_order_id: order.service_order_id,
    currency: order.currency,
    status: 'Submitted',
    reason: input.reason,
    policies,
    amount_claimed: sumMinor(policies.map((policy) => policy.coverage_amount)),
    history: [{ status: 'Submitted', at, by: 'customer' }],
    created: at,
    updated: at,
    version: 1,
  };
  return { claim, text: { description: input.description, messages: [] }, items };
}

/**
 * A transition's result: the claim after it, what it adds to the text (a message), and what it does
 * to the claim's policies (`claim`: they become Claimed; `release`: their lock is lifted).
 * `unchanged`: the claim already is where this request would take it (a repeat): nothing is written.
 */
export type Transition =
  { unchanged: true; claim: Claim } | { unchanged?: false; claim: Claim; message?: ClaimMessage; policies?: 'claim' | 'release'; closes: boolean };

function step(claim: Claim, status: ClaimStatus, by: ClaimStep['by'], now: Date, extra: Partial<Claim> = {}): Claim {
  const at = now.toISOString();
  return {
    ...claim,
    ...extra,
    status,
    history: [...claim.history, { status, at, by }],
    updated: at,
    version: claim.version + 1,
    ...(isClosed(status) ? { closed_at: at } : {}),
  };
}

const exceedsCoverage = (claim: Claim) =>
  new ValidationError(
    `amount must be at most the claimed policies' coverage, ${formatMoney(claim.amount_claimed, claim.currency)} ${claim.currency}.`,
    'amount',
    'amount_exceeds_coverage',
  );

/** The approved amount, read in the claim's currency: any amount over the claimed coverage, however large, is amount_exceeds_coverage. */
function approvedAmount(text: string, claim: Claim): Minor {
  const parsed = parseMoney(text, claim.currency, claim.amount_claimed);
  if ('minor' in parsed) return parsed.minor;
  if (parsed.overMax) throw exceedsCoverage(claim);
  throw new ValidationError(`amount: ${parsed.problem}`, 'amount');
}

export interface DecisionInput {
  decision: Decision;
  /** As the operator wrote it: read in the claim's currency. */
  amount?: string;
  note?: string;
}

/**
 * The operator's decision, made only on a Submitted claim: so of decisions racing on one claim
 * exactly one is made (the first to commit moves the claim out of Submitted), and none lands on a
 * state its operator did not see. One exception, for a customer who never answers: a claim that
 * has awaited documents for DOCUMENTS_WAIT_MS may be denied. Repeating the decision that was made
 * (same amount; no note, or the note it left) answers the claim as it is.
 */
export function decide(claim: Claim, input: DecisionInput, now: Date, operator: string, lastNote?: string): Transition {
  const message = input.note ? { message: { from: 'operator' as const, at: now.toISOString(), text: input.note } } : {};
  // A repeat is the decision that was made, with no note or the note it left: a new note is something new to say, never dropped.
  const decided = claim.history.at(-1)?.by === 'operator';
  const repeat = (status: ClaimStatus) => claim.status === status && decided && (input.note === undefined || input.note === lastNote);
  if (input.decision !== 'approve' && input.amount !== undefined) throw new ValidationError('amount is only for an approval.', 'amount');
  if (input.decision === 'request_documents') {
    if (repeat('DocumentsRequested') && input.note !== undefined) return { unchanged: true, claim };
    if (claim.status !== 'Submitted') throw notSubmitted(claim, 'documents can be requested');
    if (!input.note) throw new ValidationError('note is required: tell the customer which documents to send.', 'note');
    return { claim: step(claim, 'DocumentsRequested', 'operator', now, { decided_by: operator }), ...message, closes: false };
  }
  if (input.decision === 'approve') {
    const amount = input.amount === undefined ? claim.amount_claimed : approvedAmount(input.amount, claim);
    if (repeat('Approved') && claim.amount_approved === amount) return { unchanged: true, claim };
    if (claim.status !== 'Submitted') throw notSubmitted(claim, 'it can be approved');
    if (amount <= 0) {
      const why =
        input.amount === undefined
          ? `The claimed policies cover ${formatMoney(0, claim.currency)} ${claim.currency}, so there is nothing to approve`
          : 'amount: must be more than 0';
      throw new ValidationError(`${why} (deny the claim to pay nothing).`, 'amount');
    }
    return { claim: step(claim, 'Approved', 'operator', now, { amount_approved: amount, decided_by: operator }), ...message, policies: 'claim', closes: false };
  }
  if (repeat('Denied')) return { unchanged: true, claim };
  if (claim.status === 'DocumentsRequested') {
    const asked = Date.parse(claim.history.at(-1)!.at);
    if (now.getTime() - asked < DOCUMENTS_WAIT_MS) {
      throw new ConflictError(
        'claim_awaiting_documents',
        `Documents were requested on ${claim.history.at(-1)!.at}; the claim can be denied without them once ${DOCUMENTS_WAIT_MS / 86_400_000} days have passed.`,
        'claim_id',
      );
    }
  } else if (claim.status !== 'Submitted') {
    throw notSubmitted(claim, 'it can be denied');
  }
  return { claim: step(claim, 'Denied', 'operator', now, { decided_by: operator }), ...message, policies: 'release', closes: true };
}

/** How long a claim awaits documents before the operator may deny it unanswered: 14 days. */
export const DOCUMENTS_WAIT_MS = 14 * 24 * 60 * 60 * 1000;

const notSubmitted = (claim: Claim, what: string) =>
  new ConflictError('claim_not_submitted', `The claim is ${claim.status}; only when it is Submitted ${what}.`, 'claim_id');

/** The payout of an approved claim. Repeating it with the same reference answers the claim as it is. */
export function markPaid(claim: Claim, payoutReference: string, now: Date, operator: string): Transition {
  if (claim.status === 'Paid' && claim.payout_reference === payoutReference) return { unchanged: true, claim };
  if (claim.status !== 'Approved') {
    throw new ConflictError('claim_not_approved', `The claim is ${claim.status}; only an Approved claim can be paid.`, 'claim_id');
  }
  return { claim: step(claim, 'Paid', 'operator', now, { payout_reference: payoutReference, paid_by: operator }), closes: true };
}

/** The customer withdraws an open claim. Repeating it answers the claim as it is. */
export function withdraw(claim: Claim, now: Date): Transition {
  if (claim.status === 'Withdrawn') return { unchanged: true, claim };
  if (!isOpen(claim.status)) {
    throw new ConflictError('claim_decided', `The claim is ${claim.status}; only a claim not yet decided can be withdrawn.`, 'claim_id');
  }
  return { claim: step(claim, 'Withdrawn', 'customer', now), policies: 'release', closes: true };
}

/** The customer answers a request for documents: the claim goes back to Submitted with their message. */
export function respond(claim: Claim, message: string, now: Date): Transition {
  if (claim.status !== 'DocumentsRequested') {
    throw new ConflictError(
      'claim_not_awaiting_documents',
      `The claim is ${claim.status}; the customer answers only when documents were requested.`,
      'claim_id',
    );
  }
  return { claim: step(claim, 'Submitted', 'customer', now), message: { from: 'customer', at: now.toISOString(), text: message }, closes: false };
}

/** When a closed claim's text is erased. */
export const eraseAt = (closedAt: string): string => new Date(Date.parse(closedAt) + TEXT_KEPT_MS).toISOString();

/** The text as it may be shown at `now`: undefined once its erase time has come (whether or not TTL has deleted it yet). */
export const visibleText = (text: ClaimText | undefined, now: Date): ClaimText | undefined =>
  text && (text.erase_at === undefined || now.getTime() < Date.parse(text.erase_at)) ? text : undefined;
