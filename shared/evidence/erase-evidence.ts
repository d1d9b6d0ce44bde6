import type { Claim } from '../claims/index.js';
import type { RecordChange } from '../platform/record-change.js';
import { ERASE_DAYS_BACK, MAX_ERASED_PER_RUN, filesErasedAt, storedKey, uploadKey } from './evidence.js';
import type { EvidenceDeps } from './evidence-files.js';

/**
 * A claim's files go with its text, 90 days after it closes. The main table's stream tells of each
 * claim that closes: if it has files, an erasure is noted for that day. The eraser (hourly) erases
 * each claim due in the last ERASE_DAYS_BACK days: every file's bytes (its upload and its checked
 * copy), then its records, its count and the note, at most MAX_ERASED_PER_RUN claims a run. Reads
 * hide the files from the erasure's moment on, whenever the eraser runs (listFiles, staffLink).
 */
export async function noteClosedClaims(deps: Pick<EvidenceDeps, 'files'>, changes: readonly RecordChange[]): Promise<number> {
  let noted = 0;
  for (const change of changes) {
    const after = change.after as unknown as Claim | undefined;
    const before = change.before as unknown as Claim | undefined;
    if (after?.claim_id === undefined || (change.after as { entity?: string }).entity !== 'claim') continue;
    const at = filesErasedAt(after);
    if (!at || before?.closed_at || !(await deps.files.hasFiles(after.claim_id))) continue;
    await deps.files.markForErasure(after.claim_id, at);
    noted++;
  }
  return noted;
}

/** One run of the eraser at `now`: the claims whose files were due by now, erased. */
export async function eraseDueEvidence(deps: Pick<EvidenceDeps, 'files' | 'objects' | 'now'>): Promise<{ erased: number }> {
  const now = deps.now();
  let erased = 0;
  for (let back = ERASE_DAYS_BACK; back >= 0 && erased < MAX_ERASED_PER_RUN; back--) {
    const day = new Date(now.getTime() - back * 86_400_000).toISOString().slice(0, 10);
    for (const due of await deps.files.dueForErasure(day, MAX_ERASED_PER_RUN - erased)) {
      if (Date.parse(due.eraseAt) > now.getTime()) continue; // later today
      const files = await deps.files.list(due.claimId);
      for (const file of files) {
        await deps.objects.remove(uploadKey(file.claim_id, file.file_id));
        // The latest landing's copy, and the one kept for staff while newer bytes awaited their verdict.
        for (const landing of new Set([file.landings, file.clean_landing ?? 0]))
          if (landing > 0) await deps.objects.remove(storedKey(file.claim_id, file.file_id, landing));
      }
      await deps.files.eraseRecords(
        due.claimId,
        files.map((file) => file.file_id),
        day,
      );
      erased++;
    }
  }
  return { erased };
}
