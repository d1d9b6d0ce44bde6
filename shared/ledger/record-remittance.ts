import { createHash } from 'node:crypto';
import { ConflictError, NotFoundError, ValidationError } from '../platform/errors.js';
import { formatMoney } from '../platform/money/index.js';
import { auditRecordOf, type StaffIdentity } from '../identity/index.js';
import type { CollectionsStore, RecordedRemittance } from './ports.js';
import type { Remittance } from './ledger.js';
import type { RecordRemittanceRequest } from './schemas.js';

/** How far back a payment's `received_on` may be (a year and a day: a late bank statement). */
export const MAX_RECEIVED_DAYS_AGO = 366;

export interface RecordRemittanceDeps {
  collections: Pick<CollectionsStore, 'clientExists' | 'recordRemittance'>;
  now: () => Date;
  newAuditId: () => string;
}

/**
 * Finance records a merchant's payment (POST /api/v2/admin/clients/{id}/remittances). Idempotent by
 * its reference: the same reference with the same currency, amount and day answers the payment
 * recorded first; with another → 409 remittance_reference_used. The payment, its reference's claim
 * and the audit record are one transaction; the stream books it as a `remittance_received` entry
 * in the month it was recorded (closed months never change), so the balance falls by it.
 */
export async function recordRemittance(
  deps: RecordRemittanceDeps,
  actor: StaffIdentity,
  clientId: string,
  request: RecordRemittanceRequest,
): Promise<RecordedRemittance> {
  const now = deps.now();
  const today = now.toISOString().slice(0, 10);
  if (request.received_on > today) throw new ValidationError('received_on: must be today or earlier (a payment already received)', 'received_on');
  const earliest = new Date(now.getTime() - MAX_RECEIVED_DAYS_AGO * 86_400_000).toISOString().slice(0, 10);
  if (request.received_on < earliest) throw new ValidationError(`received_on: must be at most ${MAX_RECEIVED_DAYS_AGO} days ago`, 'received_on');
  if (!(await deps.collections.clientExists(clientId))) throw new NotFoundError('client_not_found', 'No client has this id.', 'id');
  const remittance: Remittance = {
    client_id: clientId,
    reference: request.reference,
    currency: request.currency,
    amount: request.amount,
    received_on: request.received_on,
    recorded_at: now.toISOString(),
  };
  const fingerprint = `${request.currency}|${request.amount}|${request.received_on}`;
  const audit = auditRecordOf(
    actor,
    'remittance.recorded',
    { type: 'client', id: clientId, detail: `${formatMoney(request.amount, request.currency)} ${request.currency}, reference ${request.reference}` },
    now,
    deps.newAuditId,
  );
  const recorded = await deps.collections.recordRemittance(remittance, referenceHash(request.reference), fingerprint, audit);
  // A reversed payment's reference stays taken: the retried transfer comes under the bank's new one.
  if (recorded.replayed && recorded.remittance.reversal) {
    throw new ConflictError(
      'remittance_reference_used',
      `This reference names a payment reversed on ${recorded.remittance.reversal.at.slice(0, 10)} (${recorded.remittance.reversal.reason}); record the retried transfer under the bank's new reference. Nothing was written.`,
      'reference',
    );
  }
  if (recorded.replayed && recorded.fingerprint !== fingerprint) {
    throw new ConflictError(
      'remittance_reference_used',
      `This reference was recorded on ${recorded.remittance.recorded_at.slice(0, 10)} for another payment (${formatMoney(recorded.remittance.amount, recorded.remittance.currency)} ${recorded.remittance.currency} received ${recorded.remittance.received_on}); nothing was written.`,
      'reference',
    );
  }
  return recorded;
}

/** A reference's place in a key: its hash (a reference is free text finance types). */
export const referenceHash = (reference: string): string => createHash('sha256').update(reference).digest('base64url').slice(0, 32);
