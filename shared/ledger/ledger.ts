import { createHash } from 'node:crypto';
import type { RecordChange } from '../platform/record-change.js';
import type { Minor } from '../platform/money/index.js';
import { claimInMinorUnits, type Claim } from '../claims/index.js';
import { itemInMinorUnits, type OrderItem } from '../orders/index.js';

/**
 * The ledger: one immutable entry per movement of money, derived from the change's own records on
 * the main table's stream (as the webhooks are). An entry's id comes from what it records (the
 * policy and the move, the claim and the move), never from the delivery: the stream giving a
 * record again, a retried batch or a second consumer all find the entry already written.
 *
 *   premium_written   a policy Issued at checkout       + premium          (commission: + its commission)
 *   premium_adjusted  a policy a PATCH issued            its premium_delta  (its commission_delta)
 *   premium_refunded  a policy voided                    − refund_due       (− its commission: a void returns it)
 *   claim_approved    a claim approved                   amount_approved
 *   claim_paid        a payout recorded                  the amount paid (the approved amount)
 *   remittance_received  finance recorded a merchant's payment   + the amount received
 *   remittance_reversed  finance reversed it (it bounced)        − the amount received
 *
 * A cancel refunds nothing and writes nothing; an opt-out never does. `period` is the UTC month of
 * the change itself (the policy's creation, its void, the claim's move), not of the entry's write.
 * The id alone says whether an entry exists (the store keeps it apart from the entry's month and
 * time), and a closed month never receives an entry: see bookedIn.
 */
export const ENTRY_TYPES = [
  'premium_written',
  'premium_adjusted',
  'premium_refunded',
  'claim_approved',
  'claim_paid',
  'remittance_received',
  'remittance_reversed',
] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];

export interface LedgerEntry {
  id: string;
  type: EntryType;
  client_id: string;
  /** When the change happened (ISO, milliseconds): the entry's place in the ledger and its period. */
  created: string;
  period: string;
  currency: string;
  amount: Minor;
  /** The order a premium or claim entry is about (a remittance is about none). */
  service_order_id?: string;
  policy_number?: string;
  claim_id?: string;
  /** A remittance's reference (the merchant's payment, as finance recorded it) and the day it was received. */
  reference?: string;
  received_on?: string;
  /**
   * On a premium entry, the merchant's commission that moves with it: the policy's commission when
   * written, its change when adjusted, the commission returned (negative) on a void. Absent on an
   * entry written before terms had versions, when no commission was due (0).
   */
  commission?: Minor;
  /** On a premium entry, the terms version its policy was sold under (kept for the bordereau, never shown by GET /ledger). */
  terms_version?: number;
  /**
   * Kept for the premium bordereau, never shown by GET /ledger: the policy's order number, its
   * coverage and when it went on risk (its creation). An entry written before they were kept, or
   * of an item stored before items carried their order number, lacks them; the export reads them.
   */
  order_number?: string;
  coverage_amount?: Minor;
  risk_start?: string;
  /** A premium entry's event: the one its policy covers (after an exchange to another date, the new one). */
  event?: LedgerEvent;
}

/** The event a premium entry's policy covers, as the ledger names it. */
export interface LedgerEvent {
  id: string;
  name: string;
  start_date: string;
}

/** A change with where it sits in its stream shard (padded, so positions compare as text). */
export type PositionedChange = RecordChange & { position: string };

/** A month as the ledger names it: YYYY-MM of a UTC instant. */
export const periodOf = (at: string): string => at.slice(0, 7);

const entryId = (clientId: string, subject: string, type: EntryType): string =>
  `le_${createHash('sha256').update(`${clientId}|${subject}|${type}`).digest('base64url').slice(0, 24)}`;

function entry(type: EntryType, clientId: string, subject: string, created: string, currency: string, amount: Minor, rest: Partial<LedgerEntry>): LedgerEntry {
  return { id: entryId(clientId, subject, type), type, client_id: clientId, created, period: periodOf(created), currency, amount, ...rest };
}

/** The entries one changed record makes (none for most). */
export function entriesOf(change: RecordChange): LedgerEntry[] {
  const after = change.after;
  if (!after || (change.kind !== 'INSERT' && change.kind !== 'MODIFY')) return [];
  if (after.entity === 'claim') return claimEntries(change);
  if (after.entity === 'remittance') return remittanceEntries(change);
  if (after.entity !== 'item' || !change.order) return [];
  const currency = after.currency;
  if (typeof currency !== 'string') return []; // an item written before items carried their currency (and before the ledger)
  const item = itemInMinorUnits(after as unknown as OrderItem, currency);
  const { policy } = item;
  const before = change.before as unknown as OrderItem | undefined;
  const order = orderRefOf(change.order, after);
  if (change.kind === 'INSERT') return [issuedEntry(order, item, currency)];
  if (before?.policy.status === 'Issued' && policy.status === 'Void') return [refundEntry(order, item, currency, policy.history.at(-1)?.at ?? change.at)];
  return [];
}

/**
 * One builder per move, shared by the stream and the opening balance: the same move always gets the
 * same id, time and amount, whoever derives it.
 */
type OrderRef = { client_id: string; order_id: string; order_number?: string };
/** The order of an item record, with its number when the record carries it (items do since the bordereaux). */
const orderRefOf = (order: { client_id: string; order_id: string }, record: Record<string, unknown>): OrderRef =>
  typeof record.order_number === 'string' ? { ...order, order_number: record.order_number } : order;
const onPolicy = (order: OrderRef, { policy, event }: Pick<OrderItem, 'policy' | 'event'>) => ({
  service_order_id: order.order_id,
  ...(event ? { event: { id: event.id, name: event.name, start_date: event.start_date } } : {}),
  policy_number: policy.policy_number,
  ...(order.order_number === undefined ? {} : { order_number: order.order_number }),
  coverage_amount: policy.coverage_amount,
  risk_start: policy.created,
  ...(policy.terms_version === undefined ? {} : { terms_version: policy.terms_version }),
});
/** A policy issued at checkout (premium_written) or by a change (premium_adjusted, its delta). */
const issuedEntry = (order: OrderRef, item: Pick<OrderItem, 'policy' | 'event'>, currency: string): LedgerEntry => {
  const { policy } = item;
  return policy.change_type
    ? entry('premium_adjusted', order.client_id, policy.policy_number, policy.created, currency, policy.premium_delta ?? 0, {
        ...onPolicy(order, item),
        commission: policy.commission_delta ?? 0,
      })
    : entry('premium_written', order.client_id, policy.policy_number, policy.created, currency, policy.premium, {
        ...onPolicy(order, item),
        commission: policy.commission ?? 0,
      });
};
const refundEntry = (order: OrderRef, item: Pick<OrderItem, 'policy' | 'event'>, currency: string, at: string): LedgerEntry => {
  const { policy } = item;
  return entry('premium_refunded', order.client_id, policy.policy_number, at, currency, -(policy.refund_due ?? policy.premium), {
    ...onPolicy(order, item),
    commission: -(policy.commission ?? 0),
  });
};
/** A claim's approval or payout, at the moment of that move; both move its approved amount. */
const claimEntry = (type: 'claim_approved' | 'claim_paid', claim: Claim, at: string): LedgerEntry =>
  entry(type, claim.client_id, claim.claim_id, at, claim.currency, claim.amount_approved ?? 0, {
    service_order_id: claim.service_order_id,
    claim_id: claim.claim_id,
  });

/**
 * A merchant's payment as finance recorded it (POST /admin/clients/{id}/remittances): a record of
 * its own on the main table, whose insert the stream turns into a `remittance_received` entry, in
 * the month it was recorded (a closed month never changes; `received_on` says when the money came).
 */
export interface Remittance {
  client_id: string;
  reference: string;
  currency: string;
  amount: Minor;
  received_on: string;
  recorded_at: string;
  /** Set once when finance reverses the payment (a bounced transfer, one recorded in error); never unset. */
  reversal?: { at: string; reason: string };
}

/** The id of the entry a remittance is booked as (finance's answer names it); `remittance_reversed` names its reversal's. */
export const remittanceEntryId = (clientId: string, reference: string, type: 'remittance_received' | 'remittance_reversed' = 'remittance_received'): string =>
  entryId(clientId, `remittance:${reference}`, type);

/**
 * A remittance's entries: its insert books what was received; the one change that sets its
 * `reversal` books the same amount back, in the month of the reversal (the months before keep what
 * they said, so the amount is owed again from the reversal's statement on).
 */
function remittanceEntries(change: RecordChange): LedgerEntry[] {
  const remittance = change.after as unknown as Remittance;
  const subject = `remittance:${remittance.reference}`;
  const rest = { reference: remittance.reference, received_on: remittance.received_on };
  if (change.kind === 'INSERT')
    return [entry('remittance_received', remittance.client_id, subject, remittance.recorded_at, remittance.currency, remittance.amount, rest)];
  const before = change.before as unknown as Remittance | undefined;
  if (remittance.reversal && !before?.reversal)
    return [entry('remittance_reversed', remittance.client_id, subject, remittance.reversal.at, remittance.currency, -remittance.amount, rest)];
  return [];
}

/**
 * The opening balance of a record written before the ledger: every entry its past moves would have
 * made, exactly as the stream would have made them (same ids, times and amounts), read off the
 * record as it is now — a policy's issue, or the change that issued it, and its void; a claim's
 * approval and payout.
 */
export function openingEntriesOf(record: Record<string, unknown>, order?: OrderRef): LedgerEntry[] {
  if (record.entity === 'claim') {
    const claim = claimInMinorUnits(record as unknown as Claim);
    const at = (status: string) => claim.history.find((step) => step.status === status)?.at;
    const [approved, paid] = [at('Approved'), at('Paid')];
    return [...(approved ? [claimEntry('claim_approved', claim, approved)] : []), ...(paid ? [claimEntry('claim_paid', claim, paid)] : [])];
  }
  if (record.entity !== 'item' || !order || typeof record.currency !== 'string') return [];
  order = orderRefOf(order, record);
  const currency = record.currency;
  const item = itemInMinorUnits(record as unknown as OrderItem, currency);
  const { policy } = item;
  const voided = policy.status === 'Void' ? policy.history.find((step) => step.status === 'Void')?.at : undefined;
  return [issuedEntry(order, item, currency), ...(voided ? [refundEntry(order, item, currency, voided)] : [])];
}

/**
 * A claim's move (filed, or a new status) in a month: the claims bordereau lists every claim with
 * activity in its period, found through these marks (the ledger consumer writes them).
 */
export interface ClaimActivity {
  client_id: string;
  period: string;
  claim_id: string;
}

export function claimActivityOf(change: RecordChange): ClaimActivity | undefined {
  const after = change.after;
  if (!after || after.entity !== 'claim' || (change.kind !== 'INSERT' && change.kind !== 'MODIFY')) return undefined;
  const claim = after as unknown as Claim;
  if (change.kind === 'MODIFY' && (change.before as unknown as Claim | undefined)?.status === claim.status) return undefined;
  return { client_id: claim.client_id, period: periodOf(claim.updated), claim_id: claim.claim_id };
}

/** Every month a claim stored before the marks had a move in (the opening balance marks them). */
export const claimActivitiesOf = (claim: Claim): ClaimActivity[] =>
  [...new Set(claim.history.map((step) => periodOf(step.at)))].map((period) => ({ client_id: claim.client_id, period, claim_id: claim.claim_id }));

function claimEntries(change: RecordChange): LedgerEntry[] {
  const claim = claimInMinorUnits(change.after as unknown as Claim);
  const before = change.before as unknown as Claim | undefined;
  if (before?.status === claim.status) return [];
  if (claim.status === 'Approved') return [claimEntry('claim_approved', claim, claim.updated)];
  if (claim.status === 'Paid') return [claimEntry('claim_paid', claim, claim.updated)];
  return [];
}

/** A statement's figures for one currency. */
export interface StatementFigures {
  premiums_written: Minor;
  premium_adjustments: Minor;
  premiums_refunded: Minor;
  claims_approved: Minor;
  claims_paid: Minor;
  policies_issued: number;
  policies_voided: number;
  /** The merchant's commission on the month's premium (what it keeps of net_premium). */
  commission: Minor;
  /** What the merchant paid, as finance recorded it in the month. */
  remitted: Minor;
}
export const FIGURES: readonly (keyof StatementFigures)[] = [
  'premiums_written',
  'premium_adjustments',
  'premiums_refunded',
  'claims_approved',
  'claims_paid',
  'policies_issued',
  'policies_voided',
  'commission',
  'remitted',
];

/** What one entry adds to its statement: refunds count as the positive amount refunded. */
export function figuresOf(entry: LedgerEntry): StatementFigures {
  const none: StatementFigures = {
    premiums_written: 0,
    premium_adjustments: 0,
    premiums_refunded: 0,
    claims_approved: 0,
    claims_paid: 0,
    policies_issued: 0,
    policies_voided: 0,
    commission: 0,
    remitted: 0,
  };
  const commission = entry.commission ?? 0;
  switch (entry.type) {
    case 'premium_written':
      return { ...none, premiums_written: entry.amount, policies_issued: 1, commission };
    case 'premium_adjusted':
      return { ...none, premium_adjustments: entry.amount, policies_issued: 1, commission };
    case 'premium_refunded':
      return { ...none, premiums_refunded: -entry.amount, policies_voided: 1, commission };
    case 'claim_approved':
      return { ...none, claims_approved: entry.amount };
    case 'claim_paid':
      return { ...none, claims_paid: entry.amount };
    case 'remittance_received':
    case 'remittance_reversed':
      return { ...none, remitted: entry.amount };
  }
}

/**
 * A statement's figures as read back: exact whatever their size (BigInt), since DynamoDB adds past
 * 2^53 minor units where a JavaScript number would round (a month of IDR claims can get there).
 */
export type StatementTotals = { [K in keyof StatementFigures]: bigint };
export const netPremiumOf = (totals: StatementTotals): bigint => totals.premiums_written + totals.premium_adjustments - totals.premiums_refunded;
/** What the month's premium leaves the merchant to pay over: net premium less its commission. */
export const amountDueOf = (totals: StatementTotals): bigint => netPremiumOf(totals) - totals.commission;

/**
 * A batch's entries grouped by the statement record each adds to (client, period, currency and
 * the day of the change: a record per day, like the day counts, so that the per-shard watermarks
 * of one record stay few — stream shards roll over every few hours, a month would gather hundreds),
 * with the position of each change: the store adds a group once, after its watermark.
 */
export interface StatementBatch {
  client_id: string;
  period: string;
  currency: string;
  /** YYYY-MM-DD of the changes, UTC. */
  day: string;
  entries: { position: string; figures: StatementFigures }[];
}

export function groupByStatement(entries: readonly { position: string; entry: LedgerEntry }[]): StatementBatch[] {
  const groups = new Map<string, StatementBatch>();
  for (const { position, entry } of entries) {
    const day = entry.created.slice(0, 10);
    const key = `${entry.client_id}|${entry.currency}|${day}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { client_id: entry.client_id, period: entry.period, currency: entry.currency, day, entries: [] }));
    group.entries.push({ position, figures: figuresOf(entry) });
  }
  return [...groups.values()];
}

/**
 * The figures of a group's entries after `counted` (all when undefined), summed exactly (BigInt: one
 * entry is a safe integer, a batch of them in a currency of many minor units may pass 2^53, which
 * DynamoDB adds exactly and a JavaScript number would round), and the last position.
 */
export function figuresAfter(batch: StatementBatch, counted: string | undefined): { figures: StatementTotals; last?: string } {
  const figures = Object.fromEntries(FIGURES.map((name) => [name, 0n])) as StatementTotals;
  let last: string | undefined;
  for (const { position, figures: add } of batch.entries) {
    if (counted !== undefined && position <= counted) continue;
    for (const name of FIGURES) figures[name] += BigInt(add[name]);
    last = position;
  }
  return { figures, ...(last === undefined ? {} : { last }) };
}

/**
 * Where an entry derived after the fact is booked (the opening balance reads the records as they are
 * now, and a test helper may have moved their times): in the month of its move while that month is
 * open; once it has closed, at the moment it is booked (`now`), in the open month, as an accounting
 * adjustment is, so that a closed month never changes. The stream needs no such rule: it holds a
 * change for 24 hours, and a month stays open 4 days past its end.
 */
export function bookedIn(entry: LedgerEntry, now: Date): LedgerEntry {
  if (statementStatus(entry.period, now) !== 'closed') return entry;
  const at = now.toISOString();
  return { ...entry, created: at, period: periodOf(at) };
}

/**
 * A period is open until 00:00 UTC on the 5th of the next month (late changes of the month still
 * arrive), then closed for good: no change can land in a past month, its entries carry the month
 * of the change itself. A period after the current month is not a statement (422).
 */
export function statementStatus(period: string, now: Date): 'open' | 'closed' | 'future' {
  const [year, month] = period.split('-').map(Number) as [number, number];
  if (period > now.toISOString().slice(0, 7)) return 'future';
  return now.getTime() >= Date.UTC(year, month, 5) ? 'closed' : 'open';
}
