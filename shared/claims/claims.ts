import { actorLabel, auditRecordOf, newAuditId, type AuditAction, type AuditRecord, type StaffIdentity } from '../identity/index.js';
import { ConflictError, NotFoundError, RateLimitError } from '../platform/errors.js';
import {
  claimableItems,
  decide,
  eligibilityOf,
  ELSEWHERE_WITHIN_DAYS,
  eraseAt,
  fileClaim,
  markPaid,
  MAX_CLAIM_MESSAGES,
  MAX_ELSEWHERE_READ,
  MAX_ORDER_CLAIMS,
  respond,
  signalsOf,
  visibleText,
  withdraw,
  type Claim,
  type ClaimStatus,
  type DecisionInput,
  type FileClaimInput,
  type Transition,
} from './claim.js';
import type { Client, ClientCredentials } from '../clients/index.js';
import type { Order, OrderItem } from '../orders/index.js';
import { ChangeRejectedError } from '../platform/errors.js';
import type { AttemptLimits, ClaimStore, StoredClaim } from './ports.js';
import type { Clock } from '../platform/clock.js';
import { formatMoney } from '../platform/money/index.js';
import type { OrderStore } from '../orders/index.js';

/**
 * The claim use cases (docs/api.md "Claims"): the customer's session, filing, reading, answering and
 * withdrawing; the operator's queue, decisions and payouts. Rules live in claim.ts; here they meet
 * the stores.
 */

/** Failed sessions allowed per order number, and per shop (whether named by client id or public key), in one 15-minute window. */
export const FAILED_SESSIONS_PER_ORDER = 5;
export const FAILED_SESSIONS_PER_SHOP = 100;

export interface SessionDeps {
  clients: {
    findByPublicKey(publicKey: string): Promise<Pick<ClientCredentials, 'client_id'> | undefined>;
    get(clientId: string): Promise<Pick<Client, 'client_id'> | undefined>;
  };
  /** The order number's keyed hash (the metrics table's key for it). */
  orderHash(clientId: string, orderNumber: string): Promise<string>;
  orderIdByHash(clientId: string, orderHash: string): Promise<string | undefined>;
  orders: Pick<OrderStore, 'get'>;
  claims: Pick<ClaimStore, 'getMany'>;
  limits: AttemptLimits;
  clock: Clock;
}

/** The shop is named by exactly one of them (the schema refuses neither and both). */
export interface SessionInput {
  order_number: string;
  email: string;
  client_id?: string | undefined;
  public_key?: string | undefined;
}

const noSuchOrder = () =>
  new NotFoundError('order_not_found', 'No order matches this order number, e-mail address and shop. Check them against your order confirmation.');

/** E-mail addresses compare without case and surrounding space (merchants store them as customers typed them). */
const sameEmail = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The shop the session names: by its client id (the merchant's claim link) or by its public key (the widget's). */
async function shopOf(deps: SessionDeps, input: SessionInput): Promise<{ client_id: string } | undefined> {
  if (input.client_id !== undefined) return deps.clients.get(input.client_id);
  return input.public_key === undefined ? undefined : deps.clients.findByPublicKey(input.public_key);
}

/**
 * Opens a customer's claim session: the order whose number and e-mail match, for the shop the
 * input names (client id or public key), with its claimable policies and its claims. Any mismatch
 * is the same 404. Attempts are counted per order number and per shop, both keyed by the client
 * id, so the two ways of naming a shop share one count (switching from one to the other gains an
 * attacker nothing). They are reserved before the lookup (so that no burst of concurrent guesses
 * passes the limit) and given back when the order is found: past FAILED_SESSIONS_PER_ORDER /
 * FAILED_SESSIONS_PER_SHOP failures in a window the session answers 429 (Retry-After) whatever the
 * input, until the window ends. An unknown shop counts nothing (nothing is behind it, and counting
 * it would let anyone write items).
 */
export async function openSession(deps: SessionDeps, input: SessionInput): Promise<{ order: Order; claimable: OrderItem[]; claims: Claim[] }> {
  const client = await shopOf(deps, input);
  if (!client) throw noSuchOrder();
  const now = deps.clock.now();
  const hash = await deps.orderHash(client.client_id, input.order_number);
  const scopes = [
    { scope: `ORDER#${client.client_id}#${hash}`, limit: FAILED_SESSIONS_PER_ORDER },
    { scope: `KEY#${client.client_id}`, limit: FAILED_SESSIONS_PER_SHOP },
  ];
  const wait = await deps.limits.reserve(scopes, now);
  if (wait !== undefined) {
    throw new RateLimitError('too_many_attempts', 'Too many attempts to find this order; try again later.', wait);
  }
  const orderId = await deps.orderIdByHash(client.client_id, hash);
  const order = orderId === undefined ? undefined : await deps.orders.get(client.client_id, orderId);
  const email = order?.customer?.email;
  // A failure stays counted; a found order gives its attempt back.
  if (!order || !email || !sameEmail(email, input.email)) throw noSuchOrder();
  const [claims] = await Promise.all([
    order.claim_ids?.length ? deps.claims.getMany(order.claim_ids) : [],
    deps.limits.giveBack(
      scopes.map(({ scope }) => scope),
      now,
    ),
  ]);
  const full = (order.claim_ids?.length ?? 0) >= MAX_ORDER_CLAIMS;
  return { order, claimable: full ? [] : claimableItems(order), claims };
}

export interface FileDeps {
  orders: Pick<OrderStore, 'get'>;
  claims: Pick<ClaimStore, 'file' | 'claimsOfCustomer'>;
  claimId(): string;
  clock: Clock;
  /** The customer across merchants: the keyed hash of their e-mail. */
  customerKey(email: string): Promise<string>;
}

const MAX_ATTEMPTS = 8;

/**
 * Files a claim: the order is read, the claim checked against it and written with a lock on each
 * policy, only if the order is still as read (else read again: a concurrent change or claim may
 * now refuse it). Two round trips in the usual case: the order's Query and one transaction.
 */
export async function fileClaimOnOrder(deps: FileDeps, session: { clientId: string; orderId: string }, input: FileClaimInput): Promise<StoredClaim> {
  for (let attempt = 1; ; attempt++) {
    const order = await deps.orders.get(session.clientId, session.orderId);
    if (!order) throw new NotFoundError('order_not_found', 'The order of this claim session no longer exists.');
    const now = deps.clock.now();
    const filed = fileClaim(order, input, deps.claimId(), now);
    // Signals for staff: the customer's claims at other merchants (by their keyed e-mail hash), the purchase's timing.
    const email = order.customer?.email;
    const customerKey = email ? await deps.customerKey(email) : undefined;
    const since = new Date(now.getTime() - ELSEWHERE_WITHIN_DAYS * 86_400_000).toISOString();
    const elsewhere = customerKey ? await deps.claims.claimsOfCustomer(customerKey, since, MAX_ELSEWHERE_READ) : [];
    const signals = signalsOf(order, filed.items, now, elsewhere);
    const claim = signals.length > 0 ? { ...filed.claim, signals } : filed.claim;
    const { text, items } = filed;
    try {
      await deps.claims.file(order, claim, text, items, customerKey);
      return { claim, text };
    } catch (err) {
      if (!(err instanceof ChangeRejectedError)) throw err;
      if (attempt >= MAX_ATTEMPTS) throw new ConflictError('order_busy', 'The order is being changed by other requests; retry.');
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}

/** GET /api/v2/claims/eligibility: the checks filing would run on these policies of the session's order, now; nothing written. */
export async function claimEligibility(
  deps: Pick<FileDeps, 'orders' | 'clock'>,
  session: { clientId: string; orderId: string },
  policyNumbers: readonly string[],
) {
  const order = await deps.orders.get(session.clientId, session.orderId);
  if (!order) throw new NotFoundError('order_not_found', 'The order of this claim session no longer exists.');
  return eligibilityOf(order, policyNumbers, deps.clock.now());
}

export interface ClaimDeps {
  claims: Pick<ClaimStore, 'get' | 'transition'>;
  clock: Clock;
}

const claimNotFound = () => new NotFoundError('claim_not_found', 'No claim with this id.', 'claim_id');

/** A claim with its text as it may be shown now (none once erased). For the customer, only a claim of their session's order. */
export async function readClaim(deps: ClaimDeps, claimId: string, session?: { clientId: string; orderId: string }): Promise<StoredClaim> {
  const stored = await deps.claims.get(claimId);
  if (!stored || (session && (stored.claim.client_id !== session.clientId || stored.claim.service_order_id !== session.orderId))) throw claimNotFound();
  const text = visibleText(stored.text, deps.clock.now());
  return { claim: stored.claim, ...(text ? { text } : {}) };
}

/**
 * Applies a transition to the claim as read, in one conditional write. When another request moved
 * the claim first, exactly one of them wins: the claim is read again and, if it now is where this
 * request would take it (the same move, made twice), answered as it is; otherwise this request is
 * refused (by the rule the new state breaks, else 409 `claim_changed`) and never applied to a state
 * its sender did not see.
 */
async function move(
  deps: ClaimDeps,
  claimId: string,
  session: { clientId: string; orderId: string } | undefined,
  next: (stored: StoredClaim) => Transition,
  audit?: (after: Claim) => AuditRecord,
) {
  const stored = await readClaim(deps, claimId, session);
  const transition = next(stored);
  if (transition.unchanged) return stored;
  // The exchange of messages is bounded; the note of a decision that ends it (approve, deny) is always kept.
  const decides = transition.claim.status === 'Approved' || transition.claim.status === 'Denied';
  if (transition.message && !decides && (stored.text?.messages.length ?? 0) >= MAX_CLAIM_MESSAGES) {
    throw new ConflictError('too_many_messages', `A claim holds at most ${MAX_CLAIM_MESSAGES} messages before its decision.`);
  }
  const after = transition.claim;
  const written = await deps.claims.transition(stored.claim, after, {
    ...(transition.message ? { message: transition.message } : {}),
    ...(transition.closes && after.closed_at ? { eraseAt: eraseAt(after.closed_at) } : {}),
    ...(transition.policies ? { policies: transition.policies } : {}),
    ...(audit ? { audit: audit(after) } : {}),
  });
  if (written) {
    const messages = [...(stored.text?.messages ?? []), ...(transition.message ? [transition.message] : [])];
    return { claim: after, ...(stored.text ? { text: { ...stored.text, messages } } : {}) };
  }
  const now = await readClaim(deps, claimId, session);
  if (next(now).unchanged) return now;
  throw new ConflictError('claim_changed', `The claim changed while this request was made; it is now ${now.claim.status}. Read it and try again.`, 'claim_id');
}

export const withdrawClaim = (deps: ClaimDeps, session: { clientId: string; orderId: string }, claimId: string) =>
  move(deps, claimId, session, ({ claim }) => withdraw(claim, deps.clock.now()));

export const answerClaim = (deps: ClaimDeps, session: { clientId: string; orderId: string }, claimId: string, message: string) =>
  move(deps, claimId, session, ({ claim }) => respond(claim, message, deps.clock.now()));

/** The operator's note of the claim's last step, if it left one (a repeat of that decision carries the same). */
const lastOperatorNote = ({ claim, text }: StoredClaim): string | undefined => {
  const last = text?.messages.at(-1);
  return last?.from === 'operator' && last.at === claim.updated ? last.text : undefined;
};

/**
 * What the audit log says a move did: the status it reached, with the amount approved or paid, so
 * that the log alone answers "who paid how much on which claim". Never the payout's reference: it
 * is free text a person types, and the log holds no customer's data.
 */
export function auditDetail(claim: Claim): string {
  const amount = claim.amount_approved === undefined ? '' : ` ${formatMoney(claim.amount_approved, claim.currency)} ${claim.currency}`;
  return claim.status === 'Approved' || claim.status === 'Paid' ? `${claim.status}${amount}` : claim.status;
}

/** A staff action's audit record, written with the claim's move (a repeat that changes nothing writes neither). */
const audited =
  (deps: ClaimDeps, actor: StaffIdentity, action: AuditAction) =>
  (after: Claim): AuditRecord =>
    auditRecordOf(actor, action, { type: 'claim', id: after.claim_id, detail: auditDetail(after) }, deps.clock.now(), newAuditId);

const decideAs = (deps: ClaimDeps, claimId: string, input: DecisionInput, by: string, audit?: (after: Claim) => AuditRecord) =>
  move(deps, claimId, undefined, (stored) => decide(stored.claim, input, deps.clock.now(), by, lastOperatorNote(stored)), audit);

/** A decision of the claims staff, with its audit record in the same transaction. */
export const decideClaim = (deps: ClaimDeps, claimId: string, input: DecisionInput, actor: StaffIdentity) =>
  decideAs(deps, claimId, input, actorLabel(actor), audited(deps, actor, 'claim.decided'));

/** A test helper: the operator's decision, made by a test client on a claim of its own orders (another client's claim: 404). */
export async function decideOwnTestClaim(deps: ClaimDeps, clientId: string, claimId: string, input: DecisionInput) {
  const stored = await deps.claims.get(claimId);
  if (!stored || stored.claim.client_id !== clientId) throw claimNotFound();
  return decideAs(deps, claimId, input, `test_helper:${clientId}`);
}

export const payClaim = (deps: ClaimDeps, claimId: string, payoutReference: string, actor: StaffIdentity) =>
  move(deps, claimId, undefined, ({ claim }) => markPaid(claim, payoutReference, deps.clock.now(), actorLabel(actor)), audited(deps, actor, 'claim.paid'));

export interface QueueDeps {
  claims: Pick<ClaimStore, 'queue'>;
  cursors: { seal(filters: Record<string, string>, position: string): Promise<string>; open(filters: Record<string, string>, cursor: string): Promise<string> };
}

/** The operator's queue: claims in one status (default Submitted), oldest first, a page at a time. */
export async function claimQueue(deps: QueueDeps, query: { status?: ClaimStatus; cursor?: string; limit: number }) {
  const status = query.status ?? 'Submitted';
  const filters = { status };
  const after = query.cursor === undefined ? undefined : await deps.cursors.open(filters, query.cursor);
  const page = await deps.claims.queue(status, { ...(after === undefined ? {} : { after }), limit: query.limit });
  return { claims: page.claims, nextCursor: page.next === undefined ? undefined : await deps.cursors.seal(filters, page.next) };
}
