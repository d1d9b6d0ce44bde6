import { formatMoney, type Minor } from '../platform/money/index.js';
import type { Claim } from '../claims/index.js';
import type { LedgerEntry } from '../ledger/index.js';
import { FIRST_TERMS_VERSION } from '../terms/index.js';

/**
 * Bordereaux (docs/bordereaux.md): the monthly lists an insurer settles a delegated authority on,
 * as CSV (RFC 4180, UTF-8, a header row, CRLF). Pure: the columns, a row of each kind, the
 * quoting. Nothing personal is ever a column: no customer's name, e-mail or phone, no claim text.
 *
 * Premium bordereau: a row per premium entry of the month (premium_written, _adjusted, _refunded),
 * every live client. Claims bordereau: a row per claim with a move in the month (filed, or a new
 * status), as the claim stands when the export runs.
 */
export const BORDEREAU_KINDS = ['premium', 'claims'] as const;
export type BordereauKind = (typeof BORDEREAU_KINDS)[number];
export type ExportStatus = 'running' | 'done' | 'failed';

export const PREMIUM_COLUMNS = [
  'client_id',
  'policy_number',
  'service_order_id',
  'order_number',
  'transaction_type',
  'transaction_date',
  'risk_start',
  'currency',
  'premium',
  'coverage_amount',
  'commission',
  'terms_version',
] as const;

export const CLAIMS_COLUMNS = [
  'claim_id',
  'client_id',
  'policy_numbers',
  'status',
  'reason',
  'claim_date',
  'amount_claimed',
  'amount_approved',
  'amount_paid',
  'date_paid',
  'currency',
] as const;

/** An export of one month's bordereau of one kind, as the operator started it and as it stands. */
export interface BordereauExport {
  export_id: string;
  period: string;
  kind: BordereauKind;
  status: ExportStatus;
  created: string;
  /** The operator who asked (API Gateway's caller identity; the local operator key's name). */
  requested_by: string;
  /** Once done: the rows written (the header not counted) and the object's key in the bucket. */
  rows?: number;
  object_key?: string;
  finished?: string;
  /** Whether the month was still open when the export read it (an open month's file may miss late moves). */
  period_status?: 'open' | 'closed';
  /** Once failed: what went wrong, for the operator (never a stack or a record's content). */
  failure?: string;
}

/** The object an export writes: one per export, never overwritten, named so a listing sorts by month. */
export const objectKeyOf = (exported: Pick<BordereauExport, 'export_id' | 'period' | 'kind'>): string =>
  `bordereaux/${exported.period}/${exported.kind}-${exported.export_id}.csv`;

/** The file name a browser saves the bordereau under. */
export const fileNameOf = (exported: Pick<BordereauExport, 'period' | 'kind'>): string => `${exported.kind}-bordereau-${exported.period}.csv`;

const TRANSACTION_TYPE = { premium_written: 'new', premium_adjusted: 'adjustment', premium_refunded: 'refund' } as const;

/** What a premium row needs beyond its entry: the order's number and the policy's cover, when the entry does not carry them. */
export interface PolicyFacts {
  order_number: string;
  coverage_amount: Minor;
  risk_start: string;
}

/** YYYY-MM-DD of an instant (UTC): a bordereau's dates are days. */
const day = (at: string | undefined): string => (at ? at.slice(0, 10) : '');

export function premiumRow(entry: LedgerEntry, facts: PolicyFacts): string[] {
  const type = TRANSACTION_TYPE[entry.type as keyof typeof TRANSACTION_TYPE];
  if (!type) throw new Error(`a ${entry.type} entry is not a premium`);
  return [
    entry.client_id,
    entry.policy_number ?? '',
    entry.service_order_id ?? '',
    facts.order_number,
    type,
    day(entry.created),
    day(facts.risk_start),
    entry.currency,
    formatMoney(entry.amount, entry.currency),
    formatMoney(facts.coverage_amount, entry.currency),
    // Entries from before terms had versions carry neither: their policies were sold under version 1, with no commission.
    formatMoney(entry.commission ?? 0, entry.currency),
    String(entry.terms_version ?? FIRST_TERMS_VERSION),
  ];
}

/** The facts an entry carries itself (entries written since the bordereaux), or undefined when they must be read. */
export const factsOfEntry = (entry: LedgerEntry): PolicyFacts | undefined =>
  entry.order_number !== undefined && entry.coverage_amount !== undefined && entry.risk_start !== undefined
    ? { order_number: entry.order_number, coverage_amount: entry.coverage_amount, risk_start: entry.risk_start }
    : undefined;

/**
 * A claim in one month's claims bordereau, by its moves in that month, so that a closed month's file
 * never changes: its status at the month's end (or now, for the current month), the amount approved
 * if it was approved in the month, the amount paid and the day if it was paid in the month. Summed
 * over a month's rows, the approved and paid columns are the month's statement's `claims_approved`
 * and `claims_paid`.
 */
export function claimRow(claim: Claim, period: string): string[] {
  const inMonth = (status: string) => claim.history.find((step) => step.status === status && step.at.startsWith(period))?.at;
  const byMonthEnd = claim.history.filter((step) => step.at.slice(0, 7) <= period);
  const approvedAt = inMonth('Approved');
  const paidAt = inMonth('Paid');
  const money = (amount: Minor | undefined) => (amount === undefined ? '' : formatMoney(amount, claim.currency));
  return [
    claim.claim_id,
    claim.client_id,
    claim.policies.map((policy) => policy.policy_number).join(' '),
    byMonthEnd.at(-1)?.status ?? claim.status,
    claim.reason,
    day(claim.created),
    money(claim.amount_claimed),
    money(approvedAt ? claim.amount_approved : undefined),
    money(paidAt ? claim.amount_approved : undefined),
    day(paidAt),
    claim.currency,
  ];
}

/**
 * One CSV line (RFC 4180): a field with a comma, a semicolon, a tab, a quote or a line break is
 * quoted, its quotes doubled. Text a spreadsheet would run as a formula is neutralized as OWASP's
 * "CSV Injection" advises, since an order number is the merchant's free text: a text field opening
 * (blanks aside) with = + - @ or their full-width or small forms (＝ ＋ － ＠, ﹦ ﹢ ﹣ ﹫), or with a tab,
 * a carriage return or a NUL, gets a leading apostrophe; and so does every such character that
 * follows a separator (`,` `;` tab, a line break or a quote, blanks aside), where a spreadsheet
 * splitting on it, or ignoring the quotes, would start a new cell. Nothing but apostrophes is
 * added. Amounts are written as they are (a refund's minus sign stays).
 */
export function csvLine(fields: readonly string[], amounts: ReadonlySet<number> = new Set()): string {
  return `${fields.map((field, index) => quote(amounts.has(index) ? field : defuse(field))).join(',')}\r\n`;
}

/** The characters a spreadsheet takes as a formula's start: ASCII, full-width (U+FF1D…) and small (U+FE62…) forms. */
const FORMULA_LEADS = '=+\\-@\\uFF1D\\uFF0B\\uFF0D\\uFF20\\uFE66\\uFE62\\uFE63\\uFE6B';
const LEADING_FORMULA = new RegExp(`^(?:[\\t\\r\\0]|\\s*[${FORMULA_LEADS}])`, 'u');
const FORMULA_AFTER_SEPARATOR = new RegExp(`([,;\\t\\r\\n"]\\s*)(?=[${FORMULA_LEADS}])`, 'gu');

const defuse = (field: string): string => {
  const inner = field.replace(FORMULA_AFTER_SEPARATOR, "$1'");
  return LEADING_FORMULA.test(inner) ? `'${inner}` : inner;
};
const quote = (field: string): string => (/[",;\t\r\n]/.test(field) ? `"${field.replaceAll('"', '""')}"` : field);

/** The columns of each kind that hold amounts (written as they are). */
export const AMOUNT_COLUMNS: Record<BordereauKind, ReadonlySet<number>> = {
  premium: new Set([PREMIUM_COLUMNS.indexOf('premium'), PREMIUM_COLUMNS.indexOf('coverage_amount'), PREMIUM_COLUMNS.indexOf('commission')]),
  claims: new Set(['amount_claimed', 'amount_approved', 'amount_paid'].map((name) => CLAIMS_COLUMNS.indexOf(name as (typeof CLAIMS_COLUMNS)[number]))),
};

export const headerOf = (kind: BordereauKind): string => csvLine(kind === 'premium' ? PREMIUM_COLUMNS : CLAIMS_COLUMNS);

/** A client whose money goes into the bordereaux: live keys only (test-mode clients' money is not the insurer's). */
export const isLiveClient = (client: { public_key: string }): boolean => client.public_key.startsWith('pk_live_');
