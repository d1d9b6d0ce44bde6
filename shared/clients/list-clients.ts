import type { ClientRegister, ClientSummary } from './client.js';

export interface ClientListDeps {
  register: ClientRegister;
  cursors: { seal(position: string): Promise<string>; open(cursor: string): Promise<string> };
}

/** GET /admin/clients: the merchants, in id order, a page at a time; the cursor is sealed (another list's is refused). */
export async function listClients(deps: ClientListDeps, query: { cursor?: string; limit: number }): Promise<{ clients: ClientSummary[]; nextCursor?: string }> {
  const after = query.cursor === undefined ? undefined : await deps.cursors.open(query.cursor);
  const page = await deps.register.page(query.limit, after);
  return { clients: page.clients, ...(page.next === undefined ? {} : { nextCursor: await deps.cursors.seal(page.next) }) };
}
