import type { RecordChange } from '../platform/record-change.js';
import { claimActivityOf, entriesOf, groupByStatement, type ClaimActivity } from './ledger.js';
import type { LedgerStore } from './ports.js';

/**
 * A stream batch into the ledger: first the months each client had a move in and the claims'
 * activity (marks the bordereaux find them by; written again harmlessly when a batch comes again),
 * then the entries (each once), then each statement's figures after its watermark.
 */
export async function recordLedger(
  ledger: Pick<LedgerStore, 'record' | 'addToStatement' | 'notePeriods' | 'noteClaimActivity'>,
  source: string,
  changes: readonly RecordChange[],
): Promise<void> {
  const found = changes.flatMap((change) => {
    if (change.position === undefined) throw new Error(`a stream record without a sequence number (${change.changeId})`);
    return entriesOf(change).map((entry) => ({ position: change.position!, entry }));
  });
  const activity = changes.map(claimActivityOf).filter((move): move is ClaimActivity => move !== undefined);
  if (found.length === 0 && activity.length === 0) return;
  await ledger.notePeriods([...found.map(({ entry }) => entry), ...activity]);
  await ledger.noteClaimActivity(activity);
  if (found.length === 0) return;
  // An entry an opening balance wrote first was counted in its statement then: not again here.
  const opened = await ledger.record(found.map(({ entry }) => entry));
  const counted = found.filter(({ entry }) => !opened.has(entry.id));
  await Promise.all(groupByStatement(counted).map((batch) => ledger.addToStatement(source, batch)));
}
