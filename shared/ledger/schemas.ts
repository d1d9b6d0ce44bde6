import * as v from 'valibot';
import { CalendarDate, Currency, listPage, StaffNote } from '../platform/http/schemas.js';
import { maxOrderAmount, parseMoney } from '../platform/money/index.js';
import { ENTRY_TYPES } from './ledger.js';

/** A remittance's reference, at most this long. */
export const MAX_REFERENCE_LENGTH = 64;

/** The first month the service may hold anything of: no ledger, statement or bordereau names an earlier one. */
export const FIRST_PERIOD = '2000-01';

/** YYYY-MM naming a month, from FIRST_PERIOD on (the same months for the ledger, statements and bordereaux). */
export const Period = v.pipe(
  v.string(),
  v.regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month written YYYY-MM'),
  v.check((period) => period >= FIRST_PERIOD, `must be ${FIRST_PERIOD} or later: the service holds no earlier month`),
);

/** GET /ledger: a month (the current one by default), one entry type, a page. */
export const ListLedgerQuery = v.strictObject({
  ...listPage,
  period: v.optional(Period),
  type: v.optional(v.picklist(ENTRY_TYPES, `must be one of ${ENTRY_TYPES.join(', ')}`)),
});

/** GET /statements/{period}: the path's month. */
export const StatementPath = v.strictObject({ period: Period });

/** A payment's reference as the merchant's bank shows it: 1–64 printable characters, no spaces at either end. */
const Reference = v.pipe(
  v.string('must be a string'),
  v.minLength(1, 'must not be empty'),
  v.maxLength(MAX_REFERENCE_LENGTH, `must be at most ${MAX_REFERENCE_LENGTH} characters`),
  v.regex(/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/, 'must be printable ASCII (letters, digits, punctuation) with no spaces at either end'),
);

/** POST /api/v2/admin/clients/{id}/remittances: a payment received, in its currency's digits, above zero. */
export const RecordRemittanceRequest = v.pipe(
  v.strictObject({
    currency: Currency,
    amount: v.string('must be a decimal amount written as a string'),
    reference: Reference,
    received_on: CalendarDate,
  }),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const { currency, amount } = dataset.value;
    const max = Math.min(Number.MAX_SAFE_INTEGER, 100 * maxOrderAmount(currency));
    const parsed = parseMoney(amount, currency, max);
    if ('problem' in parsed || parsed.minor <= 0) {
      addIssue({
        message: 'problem' in parsed ? parsed.problem : 'must be above zero',
        path: [{ type: 'object', origin: 'value', input: dataset.value, key: 'amount', value: amount }],
      });
      return NEVER;
    }
    return { ...dataset.value, amount: parsed.minor };
  }),
);
export type RecordRemittanceRequest = v.InferOutput<typeof RecordRemittanceRequest>;

/** A reversal's reason, at most this long (it is kept on the payment and in the audit log). */
export const MAX_REVERSAL_REASON_LENGTH = 200;

/** POST /api/v2/admin/clients/{id}/remittances/reverse: which payment, and why. */
export const ReverseRemittanceRequest = v.strictObject({
  reference: Reference,
  reason: StaffNote(MAX_REVERSAL_REASON_LENGTH),
});
export type ReverseRemittanceRequest = v.InferOutput<typeof ReverseRemittanceRequest>;

/** GET /api/v2/admin/clients/{id}/remittances: a page. */
export const ListRemittancesQuery = v.strictObject({ limit: listPage.limit, cursor: listPage.cursor });
