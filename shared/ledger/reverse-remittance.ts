import { NotFoundError } from '../platform/errors.js';
import { formatMoney } from '../platform/money/index.js';
import { auditRecordOf, type StaffIdentity } from '../identity/index.js';
import type { CollectionsStore } from './ports.js';
import type { Remittance } from './ledger.js';
import { referenceHash } from './record-remittance.js';
import type { ReverseRemittanceRequest } from './schemas.js';

export interface ReverseRemittanceDeps {
  collections: Pick<CollectionsStore, 'reverseRemittance'>;
  now: () => Date;
  newAuditId: () => string;
}

/**
 * Finance reverses a payment it recorded (POST /api/v2/admin/clients/{id}/remittances/reverse
 * {reference, reason}): a transfer that bounced, or one recorded against the wrong merchant. The
 * payment is never deleted: it is marked reversed with its reason and audit record in one
 * transaction, and the stream books a `remittance_reversed` entry of minus its amount in the month
 * of the reversal, so the balance owes it again from that statement on (closed months keep what
 * they said). Reversing again answers the reversal already recorded and writes nothing.
 */
export async function reverseRemittance(
  deps: ReverseRemittanceDeps,
  actor: StaffIdentity,
  clientId: string,
  request: ReverseRemittanceRequest,
): Promise<Remittance> {
  const now = deps.now();
  const found = await deps.collections.reverseRemittance(
    clientId,
    referenceHash(request.reference),
    { at: now.toISOString(), reason: request.reason },
    // What was reversed, as the record of its recording names it: the amount, then why.
    (payment) =>
      auditRecordOf(
        actor,
        'remittance.reversed',
        {
          type: 'client',
          id: clientId,
          detail: `${formatMoney(payment.amount, payment.currency)} ${payment.currency}, reference ${request.reference}: ${request.reason}`,
        },
        now,
        deps.newAuditId,
      ),
  );
  if (!found) throw new NotFoundError('remittance_not_found', 'This client has no payment recorded with this reference.', 'reference');
  return found.remittance;
}
