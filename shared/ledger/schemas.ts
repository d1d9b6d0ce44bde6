import * as v from 'valibot';
import { listPage } from '../platform/http/schemas.js';
import { ENTRY_TYPES } from './ledger.js';

/** YYYY-MM naming a month. */
export const Period = v.pipe(v.string(), v.regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month written YYYY-MM'));

/** GET /ledger: a month (the current one by default), one entry type, a page. */
export const ListLedgerQuery = v.strictObject({
  ...listPage,
  period: v.optional(Period),
  type: v.optional(v.picklist(ENTRY_TYPES, `must be one of ${ENTRY_TYPES.join(', ')}`)),
});

/** GET /statements/{period}: the path's month. */
export const StatementPath = v.strictObject({ period: Period });
