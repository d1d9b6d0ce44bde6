import { describe, expect, it } from 'vitest';
import { LIST_SHARDS, RETRY_SHARDS, retryKey, shardViolations } from './keys.js';

/** Issue 36.4: the shard counts' relations are checked where they live. */
describe('shard counts', () => {
  it('hold for the counts in force', () => {
    expect(shardViolations(LIST_SHARDS, RETRY_SHARDS)).toEqual([]);
    expect(retryKey('evt_1')).toMatch(/^RETRY#\d{2}$/);
  });

  it('refuse more list shards than two digits name', () => {
    expect(shardViolations(100, 4)).toEqual([]);
    expect(shardViolations(128, 64)).toEqual(['128 list shards cannot all be named with 2 digits']);
  });

  it('refuse retry shards that do not divide the list shards (some would take more deliveries, or none)', () => {
    expect(shardViolations(64, 16)).toEqual([]);
    expect(shardViolations(64, 48)).toEqual(['48 retry shards do not divide 64 list shards']);
  });
});
