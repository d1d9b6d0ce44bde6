import type { Clock } from './clock.js';

/**
 * A per-container cache of reads by key: what was found is kept `ttlMs` (at most `size` keys, the
 * oldest dropped first); concurrent misses of one key share one read; what was not found, or a
 * failed read, is never kept, so made-up keys cannot fill it.
 */
export function cachedReads<T>(
  read: (key: string) => Promise<T | undefined>,
  clock: Clock,
  ttlMs: number,
  size = 1_000,
): (key: string) => Promise<T | undefined> {
  const found = new Map<string, { readAt: number; value: Promise<T | undefined> }>();
  return (key) => {
    const now = clock.now().getTime();
    const entry = found.get(key);
    if (entry && now - entry.readAt < ttlMs) return entry.value;
    const value = read(key).then(
      (answer) => {
        if (answer === undefined) found.delete(key);
        return answer;
      },
      (err: unknown) => {
        found.delete(key);
        throw err;
      },
    );
    found.delete(key);
    found.set(key, { readAt: now, value });
    if (found.size > size) found.delete(found.keys().next().value!);
    return value;
  };
}
