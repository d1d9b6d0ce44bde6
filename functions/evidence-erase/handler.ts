import { recordChanges, type StreamWindowEvent, type StreamWindowResponse } from '#shared/platform/dynamo/stream-events.js';
import { eraseDueEvidence, noteClosedClaims } from '#shared/evidence/index.js';
import { evidenceObjectsDeps } from '#shared/evidence/evidence-objects-deps.js';

const deps = evidenceObjectsDeps();

/**
 * A claim's files go with its text. Told by the main table's stream (a batch of claims' changes):
 * each claim that closes with files gets its erasure noted. Run by the schedule (hourly; npm start
 * every minute; no event): the erasures due are done, bytes and records.
 */
export async function handler(event?: StreamWindowEvent): Promise<StreamWindowResponse | { erased: number }> {
  if (event?.Records) {
    await noteClosedClaims(deps, recordChanges(event.Records));
    return { state: {} };
  }
  return eraseDueEvidence(deps);
}
