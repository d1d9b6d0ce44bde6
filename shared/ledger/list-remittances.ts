import { NotFoundError } from '../platform/errors.js';
import type { Remittance } from './ledger.js';
import type { CollectionsStore } from './ports.js';

export interface ListRemittancesDeps {
  collections: Pick<CollectionsStore, 'clientExists' | 'remittances'>;
  cursors: { seal: (position: string) => Promise<string>; open: (cursor: string) => Promise<string> };
}

/** GET /api/v2/admin/clients/{id}/remittances: the client's payments, newest recorded first, a page at a time. */
export async function listRemittances(
  deps: ListRemittancesDeps,
  clientId: string,
  query: { limit: number; cursor?: string },
): Promise<{ remittances: Remittance[]; nextCursor?: string }> {
  const before = query.cursor === undefined ? undefined : await deps.cursors.open(query.cursor);
  if (before === undefined && !(await deps.collections.clientExists(clientId))) throw new NotFoundError('client_not_found', 'No client has this id.', 'id');
  const page = await deps.collections.remittances(clientId, query.limit, before);
  return { remittances: page.remittances, ...(page.next === undefined ? {} : { nextCursor: await deps.cursors.seal(page.next) }) };
}
