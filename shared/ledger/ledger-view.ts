import { formatMoney } from '../platform/money/index.js';
import { remittanceEntryId, type LedgerEntry, type Remittance } from './ledger.js';
import type { StatementRead } from './statements.js';

/** An entry as the merchant sees it: amounts in its currency's digits, fields listed one by one. */
export const entryView = (entry: LedgerEntry) => ({
  id: entry.id,
  type: entry.type,
  created: entry.created,
  period: entry.period,
  currency: entry.currency,
  amount: formatMoney(entry.amount, entry.currency),
  service_order_id: entry.service_order_id ?? null,
  policy_number: entry.policy_number ?? null,
  claim_id: entry.claim_id ?? null,
  // A remittance's reference (null on every other entry).
  reference: entry.reference ?? null,
  // The merchant's commission moving with a premium entry (0 on one from before terms had versions); null on a claim's.
  commission: entry.type.startsWith('premium_') ? formatMoney(entry.commission ?? 0, entry.currency) : null,
  // A premium entry's event (the new one after an exchange to another date); null on others and on entries from before.
  event: entry.event ?? null,
});

/** A statement as the merchant and finance see it: every amount in its currency's digits. */
export const statementView = (statement: StatementRead) => ({
  period: statement.period,
  status: statement.status,
  due_date: statement.due_date,
  currencies: statement.currencies.map(({ currency, figures, net_premium, amount_due, opening_balance, closing_balance }) => ({
    currency,
    premiums_written: formatMoney(figures.premiums_written, currency),
    premium_adjustments: formatMoney(figures.premium_adjustments, currency),
    premiums_refunded: formatMoney(figures.premiums_refunded, currency),
    net_premium: formatMoney(net_premium, currency),
    commission: formatMoney(figures.commission, currency),
    amount_due: formatMoney(amount_due, currency),
    remitted: formatMoney(figures.remitted, currency),
    opening_balance: formatMoney(opening_balance, currency),
    closing_balance: formatMoney(closing_balance, currency),
    claims_approved: formatMoney(figures.claims_approved, currency),
    claims_paid: formatMoney(figures.claims_paid, currency),
    policies_issued: Number(figures.policies_issued),
    policies_voided: Number(figures.policies_voided),
  })),
});

/** A remittance as finance sees it, with the ledger entry the stream books it as. */
export const remittanceView = (remittance: Remittance) => ({
  reference: remittance.reference,
  currency: remittance.currency,
  amount: formatMoney(remittance.amount, remittance.currency),
  received_on: remittance.received_on,
  recorded_at: remittance.recorded_at,
  ledger_entry_id: remittanceEntryId(remittance.client_id, remittance.reference),
  // null until finance reverses it; then when, why, and the entry that books the amount back.
  reversal: remittance.reversal
    ? {
        reversed_at: remittance.reversal.at,
        reason: remittance.reversal.reason,
        ledger_entry_id: remittanceEntryId(remittance.client_id, remittance.reference, 'remittance_reversed'),
      }
    : null,
});
