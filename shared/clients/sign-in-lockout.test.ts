import { describe, expect, it } from 'vitest';
import type { FailedSignIns } from './client.js';
import { LOCK_MS, lockedUntil, recordFailure, WINDOW_MS } from './sign-in-lockout.js';

/** The lockout rules over an in-memory list (the DynamoDB behaviour is in test/security/brute-force.test.ts). */
const NOW = 1_900_000_000_000;

function memoryStore(times: number[] = []) {
  const calls: string[] = [];
  const store: FailedSignIns = {
    recordFailedSignIn: async (_key, at) => {
      times.push(at);
      return [...times];
    },
    lockSignIns: async (_key, until) => {
      calls.push(`lock ${until}`);
    },
    trimFailedSignIns: async (_key, seen, keep) => {
      calls.push(`trim ${seen}→${keep}`);
      times.splice(0, seen - keep);
    },
  };
  return { store, calls, times };
}

describe('lockedUntil', () => {
  it('holds while locked_until is ahead, and not at it', () => {
    expect(lockedUntil({ locked_until: NOW + 1, failed_sign_ins: [] }, NOW)).toBe(NOW + 1);
    expect(lockedUntil({ locked_until: NOW, failed_sign_ins: [] }, NOW)).toBeUndefined();
  });

  it('holds on 10 recent failures before locked_until is written (a sign-in racing the 10th failure)', () => {
    const failures = Array.from({ length: 10 }, (_, i) => NOW - 1000 + i);
    expect(lockedUntil({ failed_sign_ins: failures }, NOW)).toBe(NOW - 991 + LOCK_MS);
    expect(lockedUntil({ failed_sign_ins: failures.slice(1) }, NOW)).toBeUndefined();
    expect(lockedUntil({ failed_sign_ins: failures.map((t) => t - WINDOW_MS) }, NOW)).toBeUndefined();
  });
});

describe('recordFailure', () => {
  it('locks at the 10th failure in the window and refuses from the 11th', async () => {
    const { store, calls } = memoryStore([NOW - WINDOW_MS, ...Array.from({ length: 8 }, () => NOW - 1)]);
    expect(await recordFailure(store, 'pk', NOW)).toBeUndefined(); // 9 in the window: the oldest is out
    expect(await recordFailure(store, 'pk', NOW)).toBeUndefined();
    expect(calls).toEqual([`lock ${NOW + LOCK_MS}`]);
    expect(await recordFailure(store, 'pk', NOW)).toBe(NOW + LOCK_MS);
    expect(calls).toHaveLength(1);
  });

  it('cuts the list back to the newest 10 once it holds more than 20', async () => {
    const { store, calls, times } = memoryStore(Array.from({ length: 20 }, (_, i) => NOW - WINDOW_MS - i));
    await recordFailure(store, 'pk', NOW);
    expect(calls).toEqual(['trim 21→10']);
    expect(times).toHaveLength(10);
    expect(times.at(-1)).toBe(NOW);
  });
});
