import { ForbiddenError } from '../platform/errors.js';
import type { ClientStore } from './client.js';

/** A client's mode, from its public key: `pk_live_…` is live, anything else test (the default). */
export const keyModeOf = (publicKey: string): 'test' | 'live' => (publicKey.startsWith('pk_live_') ? 'live' : 'test');

/**
 * The test helpers are for test clients only: a live client's token is refused with 403
 * `test_mode_only` (its money is real; nothing may age it or decide its claims but the operator).
 * A client's mode never changes, so the answer is remembered per container.
 */
const known = new Map<string, 'test' | 'live'>();

export async function requireTestClient(clients: Pick<ClientStore, 'get'>, clientId: string): Promise<void> {
  let mode = known.get(clientId);
  if (!mode) {
    const client = await clients.get(clientId);
    mode = client ? keyModeOf(client.public_key) : 'live'; // no such client (never for a valid token): nothing to help

    known.set(clientId, mode);
  }
  if (mode === 'live') throw new ForbiddenError('test_mode_only', 'Test helpers are for test clients only (pk_test_ keys); this token is a live client’s.');
}
