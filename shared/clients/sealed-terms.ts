import { FIRST_TERMS_VERSION, type LiveTerms } from '../terms/index.js';
import { termsInForce, type ClientStore } from './client.js';

export interface SealedTermsDeps {
  /** A version of a client's terms (immutable: callers cache it as long as they like). */
  terms: (clientId: string, version: number) => Promise<LiveTerms | undefined>;
  clients: Pick<ClientStore, 'get'>;
}

/**
 * The terms version a quote sealed, or a policy was sold under, for pricing an order or a change.
 * A client from before versioned terms prices under its version 1 before `npm run migrate` has
 * written it: its rate and look period, exactly what the migration writes.
 */
export async function sealedTerms(deps: SealedTermsDeps, clientId: string, version: number): Promise<LiveTerms> {
  const found = await deps.terms(clientId, version);
  if (found) return found;
  const client = version === FIRST_TERMS_VERSION ? await deps.clients.get(clientId) : undefined;
  if (!client) throw new Error(`client ${clientId} has no terms version ${version}`);
  const { terms_live: _live, ...before } = client;
  return termsInForce(before, new Date(client.created));
}
