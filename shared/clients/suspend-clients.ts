import { NotFoundError } from '../platform/errors.js';
import { auditRecordOf } from '../identity/index.js';
import type { StaffIdentity } from '../platform/staff.js';
import type { ClientStore, Suspension } from './client.js';

/** A suspension's reason, at most this long. */
export const MAX_SUSPENSION_REASON_LENGTH = 200;

export interface SuspendClientsDeps {
  store: Pick<ClientStore, 'get' | 'setSuspension'>;
  now: () => Date;
  newAuditId: () => string;
}

/** Where a client's quotes stand: suspended (since when, why) or not. */
export interface ClientStanding {
  client_id: string;
  suspended?: Suspension;
}

/**
 * Finance suspends a client's quotes (POST /api/v2/admin/clients/{id}/suspend {reason?}): its
 * quotes answer 403 `client_suspended` within a minute (a container keeps a public key's client
 * for that long); sold policies live on. A client already suspended stays as it was (the same
 * answer, nothing written). Written on both the client's record and its public key's with the
 * audit record (`client.suspended`), in one transaction, only if the client is still not
 * suspended: of two at once, the one that lost is answered as a repeat is, with the suspension that won.
 */
export async function suspendClient(deps: SuspendClientsDeps, actor: StaffIdentity, clientId: string, reason: string | undefined): Promise<ClientStanding> {
  const client = await standingOf(deps, clientId);
  if (client.suspended) return client;
  const now = deps.now();
  const suspended: Suspension = { at: now.toISOString(), reason: reason ?? null };
  const target = { type: 'client' as const, id: clientId, ...(reason === undefined ? {} : { detail: reason }) };
  if (!(await deps.store.setSuspension(clientId, suspended, auditRecordOf(actor, 'client.suspended', target, now, deps.newAuditId))))
    return standingOf(deps, clientId, true);
  return { client_id: clientId, suspended };
}

/** POST …/resume: the client's quotes are offered again (within a minute); a client not suspended stays as it is (and so for the loser of two at once). */
export async function resumeClient(deps: SuspendClientsDeps, actor: StaffIdentity, clientId: string): Promise<ClientStanding> {
  const client = await standingOf(deps, clientId);
  if (!client.suspended) return client;
  const now = deps.now();
  if (!(await deps.store.setSuspension(clientId, null, auditRecordOf(actor, 'client.resumed', { type: 'client', id: clientId }, now, deps.newAuditId))))
    return standingOf(deps, clientId, true);
  return { client_id: clientId };
}

/** The client's standing; `consistent` after losing to a concurrent request, so that the winner's write is read. */
async function standingOf(deps: SuspendClientsDeps, clientId: string, consistent = false): Promise<ClientStanding> {
  const client = await deps.store.get(clientId, consistent);
  if (!client) throw new NotFoundError('client_not_found', 'No client has this id.', 'id');
  return client.suspended ? { client_id: clientId, suspended: client.suspended } : { client_id: clientId };
}

/** A client's standing as finance sees it. */
export const standingView = (standing: ClientStanding) => ({
  client_id: standing.client_id,
  suspended: standing.suspended !== undefined,
  suspended_at: standing.suspended?.at ?? null,
  suspension_reason: standing.suspended?.reason ?? null,
});
