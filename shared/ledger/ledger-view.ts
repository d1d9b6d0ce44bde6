import { formatMoney } from '../platform/money/index.js';
import type { LedgerEntry, StatementTotals } from './ledger.js';

/** An entry as the merchant sees it: amounts in its currency's digits, fields listed one by one. */
export const entryView = (entry: LedgerEntry) => ({
  id: entry.id,
  type: entry.type,
  created: entry.created,
  period: entry.period,
  currency: entry.currency,
  amount: formatMoney(entry.amount, entry.currency),
  service_order_id: entry.service_order_id,
  policy_number: entry.policy_number ?? null,
  claim_id: entry.claim_id ?? null,
  // The merchant's commission moving with a premium entry (0 on one from before terms had versions); null on a claim's.
  commission: entry.type.startsWith('premium_') ? formatMoney(entry.commission ?? 0, entry.currency) : null,
});

export const statementView = (statement: {
  period: string;
  status: 'open' | 'closed';
  currencies: { currency: string; figures: StatementTotals; net_premium: bigint }[];
}) => ({
  period: statement.period,
  status: statement.status,
  currencies: statement.currencies.map(({ currency, figures, net_premium }) => ({
    currency,
    premiums_written: formatMoney(figures.premiums_written, currency),
    premium_adjustments: formatMoney(figures.premium_adjustments, currency),
    premiums_refunded: formatMoney(figures.premiums_refunded, currency),
    net_premium: formatMoney(net_premium, currency),
    claims_approved: formatMoney(figures.claims_approved, currency),
    claims_paid: formatMoney(figures.claims_paid, currency),
    policies_issued: Number(figures.policies_issued),
    policies_voided: Number(figures.policies_voided),
  })),
});
