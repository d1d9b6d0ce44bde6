import { NotFoundError } from '../platform/errors.js';
import type { TermsStore } from './ports.js';
import { inForceAt, type TermsVersion } from './terms.js';

export interface ListTermsDeps {
  store: Pick<TermsStore, 'head' | 'page'>;
  cursors: { seal: (position: string) => Promise<string>; open: (cursor: string) => Promise<string> };
}

/** GET /api/v2/admin/clients/{id}/terms: the client's versions, newest first, and which is in force. */
export async function listTerms(
  deps: ListTermsDeps,
  clientId: string,
  query: { limit: number; cursor?: string },
  now: Date,
): Promise<{ versions: TermsVersion[]; inForce?: number; nextCursor?: string }> {
  const head = await deps.store.head(clientId);
  if (!head) throw new NotFoundError('client_not_found', 'No client has this id.', 'id');
  const before = query.cursor === undefined ? undefined : Number(await deps.cursors.open(query.cursor));
  const page = await deps.store.page(clientId, query.limit, before);
  const inForce = inForceAt(head.live, now)?.version;
  return {
    versions: page.versions,
    ...(inForce === undefined ? {} : { inForce }),
    ...(page.next === undefined ? {} : { nextCursor: await deps.cursors.seal(String(page.next)) }),
  };
}
