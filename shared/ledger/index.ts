/**
 * The ledger: every movement of money written once (derived from the main table's stream), the
 * monthly statement per client and currency, and what reconciling them against the policies needs.
 */
export {
  bookedIn,
  claimActivitiesOf,
  entriesOf,
  FIGURES,
  figuresOf,
  openingEntriesOf,
  ENTRY_TYPES,
  groupByStatement,
  periodOf,
  statementStatus,
} from './ledger.js';
export type { ClaimActivity, EntryType, LedgerEntry, StatementFigures } from './ledger.js';
export type { LedgerExportSource } from './ports.js';
export { FIRST_PERIOD, Period } from './schemas.js';
