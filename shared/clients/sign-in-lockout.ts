import type { ClientCredentials, FailedSignIns } from './client.js';

/**
 * Brute-force lockout of POST /auth/token: after MAX_FAILURES wrong secrets for one public key
 * within WINDOW_MS, the key answers 429 for LOCK_MS, right secret or not. The success path reads
 * only what its one GetItem already returned; a wrong secret costs one atomic append.
 */
const MAX_FAILURES = 10;
export const WINDOW_MS = 5 * 60_000;
export const LOCK_MS = 5 * 60_000;
/** The list is cut back to the newest MAX_FAILURES once it holds more than this. */
const MAX_KEPT = 20;

const recent = (times: readonly number[], now: number): number[] => times.filter((time) => time > now - WINDOW_MS).sort((a, b) => a - b);

/**
 * When the key's lockout ends, if it is locked at `now`. Besides `locked_until`, MAX_FAILURES
 * recent failures lock it too: a sign-in racing the failure that sets the lock sees them first.
 */
export function lockedUntil(credentials: Pick<ClientCredentials, 'locked_until' | 'failed_sign_ins'>, now: number): number | undefined {
  const failures = recent(credentials.failed_sign_ins, now);
  const end = Math.max(credentials.locked_until ?? 0, failures.length >= MAX_FAILURES ? failures[MAX_FAILURES - 1]! + LOCK_MS : 0);
  return end > now ? end : undefined;
}

/**
 * Records a wrong secret for a known public key. The append is atomic and returns the list as
 * this attempt left it, so each attempt of a concurrent burst sees its own position: the one
 * that makes MAX_FAILURES sets the lock, any later one is refused at once (the lockout's end is
 * returned). An unknown public key is never recorded: public keys are public, there is nothing
 * behind one to protect, and recording them would let anyone write items.
 */
export async function recordFailure(store: FailedSignIns, publicKey: string, now: number): Promise<number | undefined> {
  const times = await store.recordFailedSignIn(publicKey, now);
  const position = recent(times, now).length;
  if (position === MAX_FAILURES) await store.lockSignIns(publicKey, now + LOCK_MS);
  if (times.length > MAX_KEPT) await store.trimFailedSignIns(publicKey, times.length, MAX_FAILURES);
  return position > MAX_FAILURES ? now + LOCK_MS : undefined;
}
