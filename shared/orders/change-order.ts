import { ConflictError, NotFoundError, ValidationError } from '../platform/errors.js';
import { orderNotFound } from './order.js';
import type { Ids } from '../platform/ids.js';
import { MAX_ORDER_ITEMS } from '../platform/limits.js';
import { amountOrRefuse, maxItemCost } from '../platform/money/index.js';
import { commissionOn, daysToEvent, FIRST_TERMS_VERSION, premiumUnder, type LiveTerms } from '../terms/index.js';
import { sealedTerms, type ClientStore, type SealedTermsDeps } from '../clients/index.js';
import { refuseIfClaimed, classifyChange, isCurrent, type Order, type OrderEvent, type OrderItem } from './order.js';
import { ChangeRejectedError } from '../platform/errors.js';
import type { Clock } from '../platform/clock.js';
import type { IdempotencyReceipt } from '../platform/idempotency-receipts.js';
import type { OrderReader, OrderWriter, PlannedChange } from './ports.js';
import { toEvent, type EventFields } from './create-order.js';
import { assertEventsNotOver } from '../quotes/index.js';

export interface ItemChange {
  name: string;
  old_reference_number: string;
  reference_number: string;
  /** As the merchant wrote it: read in the order's currency (its digits, its item limit). */
  cost: string;
  /** The new item's event: an exchange to another date (a postponed performance, a customer's swap). Absent: the replaced item's. */
  event?: EventFields;
}

export interface ChangeOrderDeps {
  orders: OrderReader & Pick<OrderWriter, 'applyChanges'>;
  /** The replaced policies' terms versions (kept per container: versions never change). */
  terms: SealedTermsDeps['terms'];
  /** Read only for a policy sold before terms had versions, before `npm run migrate`. */
  clients: Pick<ClientStore, 'get'>;
  clock: Clock;
  ids: Ids;
}

/** The terms version a policy was sold under (1 for one sold before versions). */
export const termsVersionOf = (item: OrderItem): number => item.policy.terms_version ?? FIRST_TERMS_VERSION;

export interface ChangeOrderResult {
  order: Order;
  replacements: OrderItem[];
}

/** Attempts before a change that keeps losing races on a busy order gives up with 409. */
const MAX_ATTEMPTS = 8;

/**
 * PATCH /orders/{id}: replaces items, all or nothing. The order is read, the change planned
 * against it, and committed only if the order is still at the version read; if another change
 * won the race, the whole thing is planned again on the fresh order (where it may now fail,
 * e.g. with policy_not_issued). Never a read-then-write race.
 */
export async function changeOrder(
  deps: ChangeOrderDeps,
  clientId: string,
  orderId: string,
  changes: readonly ItemChange[],
  receipt?: IdempotencyReceipt,
): Promise<ChangeOrderResult> {
  for (let attempt = 1; ; attempt++) {
    const before = await deps.orders.get(clientId, orderId);
    if (!before) throw orderNotFound();
    const terms = await replacedTerms(deps, before, changes);
    const planned = planChanges(before, changes, deps.ids, deps.clock.now(), terms);
    try {
      await deps.orders.applyChanges(before, planned.changes, planned.order, receipt);
      return { order: planned.order, replacements: planned.changes.map((change) => change.replacement) };
    } catch (err) {
      if (!(err instanceof ChangeRejectedError)) throw err;
      if (err.reason !== 'stale') throw rejectionError(err, changes);
      if (attempt >= MAX_ATTEMPTS) throw new ConflictError('order_busy', 'The order is being changed by other requests; retry.');
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}

/** Each terms version the changed items were sold under, read once (a change prices under the replaced policy's version). */
async function replacedTerms(deps: ChangeOrderDeps, order: Order, changes: readonly ItemChange[]): Promise<Map<number, LiveTerms>> {
  const named = new Set(changes.map((change) => change.old_reference_number));
  const versions = [...new Set(order.items.filter((item) => named.has(item.reference_number)).map(termsVersionOf))];
  const read = await Promise.all(versions.map((version) => sealedTerms(deps, order.client_id, version)));
  return new Map(read.map((terms) => [terms.version, terms]));
}

function rejectionError(err: ChangeRejectedError, changes: readonly ItemChange[]): Error {
  const index = err.index ?? 0;
  switch (err.reason) {
    case 'item_not_found':
      return itemNotFound(index, changes[index]?.old_reference_number ?? '');
    case 'reference_exists':
      return referenceExists(index);
    default:
      return policyNotIssued(index);
  }
}

const itemNotFound = (index: number, reference: string) =>
  new NotFoundError('item_not_found', `No item with reference_number "${reference}" in this order.`, `items[${index}].old_reference_number`);
const policyNotIssued = (index: number) =>
  new ConflictError(
    'policy_not_issued',
    'The policy of this item is not Issued (it was already changed or cancelled); only Issued policies can change.',
    `items[${index}].old_reference_number`,
  );
const referenceExists = (index: number) =>
  new ConflictError('reference_exists', 'An item with this reference_number already exists in the order.', `items[${index}].reference_number`);

/**
 * The new item's event when the change names one: the replaced item's own (same id) when every
 * field is the same, else a new event with an id of its own (another date, time or venue).
 */
function eventAfterChange(old: OrderEvent | null, given: EventFields, ids: Ids): OrderEvent {
  const next = toEvent(ids, given);
  if (!old) return next;
  const same = (['name', 'start_date', 'start_time', 'end_date', 'end_time', 'location'] as const).every((field) => old[field] === next[field]);
  return same ? old : next;
}

/**
 * Pure: checks every change against the order in body order (the first failing element is the
 * one named in `param`) and builds the new items, the old policies' statuses and the order after.
 */
export function planChanges(
  order: Order,
  changes: readonly ItemChange[],
  ids: Ids,
  now: Date,
  termsByVersion: ReadonlyMap<number, LiveTerms>,
): { changes: PlannedChange[]; order: Order } {
  if (order.items.length + changes.length > MAX_ORDER_ITEMS) {
    throw new ValidationError(
      `An order holds at most ${MAX_ORDER_ITEMS} items over its whole life (replaced ones included); this one has ${order.items.length}, so at most ${Math.max(0, MAX_ORDER_ITEMS - order.items.length)} more changes are possible.`,
      'items',
      'order_too_large',
    );
  }
  const byReference = new Map(order.items.map((item) => [item.reference_number, item]));
  const seenOld = new Set<string>();
  const seenNew = new Set<string>();
  const updated = now.toISOString();
  const maxCost = maxItemCost(order.currency);
  const planned = changes.map((change, index): PlannedChange => {
    const cost = amountOrRefuse(change.cost, order.currency, maxCost, `items[${index}].cost`);
    if (seenNew.has(change.reference_number)) {
      throw new ValidationError('reference_number repeats a reference_number of an earlier change.', `items[${index}].reference_number`, 'duplicate_reference');
    }
    if (seenOld.has(change.old_reference_number)) {
      throw new ValidationError(
        'old_reference_number names an item an earlier change already replaces.',
        `items[${index}].old_reference_number`,
        'duplicate_reference',
      );
    }
    const old = byReference.get(change.old_reference_number);
    if (!old) throw itemNotFound(index, change.old_reference_number);
    refuseIfClaimed([old], () => `items[${index}].old_reference_number`);
    if (old.policy.status !== 'Issued' || !isCurrent(old)) throw policyNotIssued(index);
    if (byReference.has(change.reference_number)) throw referenceExists(index);
    seenOld.add(change.old_reference_number);
    seenNew.add(change.reference_number);

    const { changeType, oldStatus } = classifyChange(old.cost, cost);
    if (change.event && change.event.start_date < updated.slice(0, 10)) {
      // A move to a day already past would leave cover that can never be claimed, at the top band's price.
      throw new ValidationError(
        `An exchange moves a ticket to an event still to come: start_date must be today (${updated.slice(0, 10)}, UTC) or later.`,
        `items[${index}].event.start_date`,
        'event_in_past',
      );
    }
    const event = change.event ? eventAfterChange(old.event, change.event, ids) : old.event;
    // A change issues a new policy: none for a ticket whose event, kept as it was, is over.
    if (!change.event) assertEventsNotOver([{ ...old, event }], now, () => `items[${index}].old_reference_number`);
    // Priced under the replaced policy's terms version, its band by the days from now to the event it covers.
    const terms = termsByVersion.get(termsVersionOf(old));
    if (!terms) throw new Error(`terms version ${termsVersionOf(old)} of ${order.client_id} was not read`);
    const premium = premiumUnder(terms, cost, order.currency, daysToEvent(now, event?.start_date));
    const commission = commissionOn(premium, terms.commission_ppm);
    const replacement: OrderItem = {
      id: ids.itemId(),
      position: order.items.length + index,
      reference_number: change.reference_number,
      name: change.name,
      cost,
      event,
      created: updated,
      policy: {
        policy_number: ids.policyNumber(),
        policy_number_new: ids.policyNumberNew(),
        premium,
        commission,
        terms_version: terms.version,
        coverage_amount: cost,
        status: 'Issued',
        change_type: changeType,
        replaces: old.policy.policy_number,
        premium_delta: premium - old.policy.premium,
        commission_delta: commission - (old.policy.commission ?? 0),
        history: [{ status: 'Issued', at: updated, reason: changeType }],
        created: updated,
        // The window of the policy it replaces: a change never reopens or lengthens a void.
        ...(old.policy.void_until === undefined ? {} : { void_until: old.policy.void_until }),
      },
    };
    return { index, old, oldStep: { status: oldStatus, at: updated, reason: changeType }, replacement };
  });

  const replaced = new Map(planned.map((change) => [change.old.reference_number, change]));
  const items = order.items.map((item) => {
    const change = replaced.get(item.reference_number);
    if (!change) return item;
    const policy = { ...item.policy, status: change.oldStep.status, history: [...item.policy.history, change.oldStep] };
    return { ...item, replaced_by: change.replacement.reference_number, policy };
  });
  const delta = planned.reduce((sum, change) => sum + change.replacement.cost - change.old.cost, 0);
  return {
    changes: planned,
    order: {
      ...order,
      items: [...items, ...planned.map((change) => change.replacement)],
      subtotal: order.subtotal + delta,
      updated,
      version: order.version + 1,
    },
  };
}
