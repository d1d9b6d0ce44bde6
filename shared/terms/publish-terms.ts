import { ConflictError, NotFoundError, ValidationError } from '../platform/errors.js';
import { auditRecordOf, type StaffIdentity } from '../identity/index.js';
import type { TermsHead, TermsStore } from './ports.js';
import { EFFECTIVE_FROM_SLACK_MS, FIRST_TERMS_VERSION, inForceAt, liveTermsOf, MAX_SCHEDULE_AHEAD_MS, type LiveTerms, type TermsVersion } from './terms.js';
import type { PublishTermsRequest } from './schemas.js';

/** At most this many versions are live at once: the one in force and those scheduled after it. */
export const MAX_LIVE_VERSIONS = 6;
/** A publish that loses a race with another reads the head again, at most this many times in all, waiting a little longer each time. */
export const PUBLISH_ATTEMPTS = 8;
/** The most a retry waits, per attempt made so far (the wait is a random part of it). */
const PUBLISH_JITTER_MS = 25;

export interface PublishTermsDeps {
  store: TermsStore;
  now: () => Date;
  newAuditId: () => string;
}

/**
 * Finance publishes a new version of a client's terms (POST /api/v2/admin/clients/{id}/terms). It
 * takes effect at `effective_from` (now by default, never earlier), gets the next number, and is
 * written with the client's head and its audit record in one transaction. A version scheduled
 * before it still takes effect at its own time (terms.ts, inForceAt). A publish that races
 * another reads the head again.
 */
export async function publishTerms(deps: PublishTermsDeps, actor: StaffIdentity, clientId: string, request: PublishTermsRequest): Promise<TermsVersion> {
  for (let attempt = 1; ; attempt++) {
    const now = deps.now();
    const head = await deps.store.head(clientId);
    if (!head) throw new NotFoundError('client_not_found', 'No client has this id.', 'id');
    const version = nextVersion(head, actor, request, now);
    const live = liveAfter([...head.live, liveTermsOf(version)], now);
    if (live.length > MAX_LIVE_VERSIONS) {
      throw new ConflictError(
        'terms_schedule_full',
        `At most ${MAX_LIVE_VERSIONS - 1} versions may wait to take effect; publish this one after the next takes effect.`,
      );
    }
    const audit = auditRecordOf(actor, 'terms.published', { type: 'client', id: clientId, detail: `version ${version.version}` }, now, deps.newAuditId);
    if ((await deps.store.publish(version, head, live, audit)) === 'published') return version;
    if (attempt >= PUBLISH_ATTEMPTS)
      throw new ConflictError('conflict', "Other versions of this client's terms were being published at the same time; nothing was written, retry.");
    await new Promise((resolve) => setTimeout(resolve, Math.random() * PUBLISH_JITTER_MS * attempt));
  }
}

function nextVersion(head: TermsHead, actor: StaffIdentity, request: PublishTermsRequest, now: Date): TermsVersion {
  if (head.latest < FIRST_TERMS_VERSION) {
    throw new ConflictError('terms_not_migrated', "This client's terms have no first version yet: run `npm run migrate` once after deploying.");
  }
  const effective = effectiveFrom(request.effective_from, now);
  return {
    client_id: head.client_id,
    version: head.latest + 1,
    effective_from: effective,
    rate_bands: request.rate_bands,
    minimum_premium: request.minimum_premium,
    commission_ppm: request.commission_ppm,
    look_period_days: request.look_period_days,
    created: now.toISOString(),
    created_by: { sub: actor.sub, email: actor.email ?? null },
  };
}

/** Now or later: a time up to EFFECTIVE_FROM_SLACK_MS ago (the moment someone pressed Publish) means now. */
export function effectiveFrom(requested: string | undefined, now: Date): string {
  if (requested === undefined) return now.toISOString();
  const at = Date.parse(requested);
  if (at < now.getTime() - EFFECTIVE_FROM_SLACK_MS)
    throw new ValidationError('effective_from: must be now or later (a version never takes effect in the past).', 'effective_from');
  if (at > now.getTime() + MAX_SCHEDULE_AHEAD_MS) throw new ValidationError('effective_from: must be at most a year ahead.', 'effective_from');
  return at <= now.getTime() ? now.toISOString() : requested;
}

/** The versions a quote may still need at `now`: the one in force and every one scheduled after it. */
export function liveAfter(versions: readonly LiveTerms[], now: Date): LiveTerms[] {
  const current = inForceAt(versions, now);
  return versions.filter((version) => version === current || version.effective_from > now.toISOString());
}
