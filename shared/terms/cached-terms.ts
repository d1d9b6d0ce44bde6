import { cachedReads } from '../platform/cache.js';
import type { Clock } from '../platform/clock.js';
import type { TermsStore } from './ports.js';
import { liveTermsOf, type LiveTerms } from './terms.js';

/** Versions never change: a container keeps each it read for a day (at most 1,000), so pricing an order under its sealed version costs no read after the first. */
export const TERMS_VERSION_CACHE_MS = 86_400_000;

/** A client's terms version by number, read once per container (shared/platform/cache.ts). */
export function cachedTermsVersions(store: Pick<TermsStore, 'get'>, clock: Clock): (clientId: string, version: number) => Promise<LiveTerms | undefined> {
  const read = cachedReads(
    async (key) => {
      const [clientId, version] = key.split('#');
      const found = await store.get(clientId!, Number(version));
      return found && liveTermsOf(found);
    },
    clock,
    TERMS_VERSION_CACHE_MS,
  );
  return (clientId, version) => read(`${clientId}#${version}`);
}
