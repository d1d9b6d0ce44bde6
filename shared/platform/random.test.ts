import { describe, expect, it } from 'vitest';
import { MAX_POOLED_BYTES, POOL_BYTES, randomBytesPooled } from './random.js';

describe('randomBytesPooled', () => {
  it('hands out bytes of the size asked, each draw its own copy, never repeated across many refills of the pool', () => {
    const seen = new Set<string>();
    const draws = Math.ceil((POOL_BYTES * 5) / 12);
    for (let i = 0; i < draws; i++) {
      const bytes = randomBytesPooled(12);
      expect(bytes).toHaveLength(12);
      seen.add(bytes.toString('hex'));
    }
    expect(seen.size).toBe(draws); // 96-bit draws: a repeat would mean bytes handed out twice
    const first = randomBytesPooled(16);
    const copy = Buffer.from(first);
    randomBytesPooled(16);
    expect(first.equals(copy)).toBe(true); // a later draw never changes an earlier one
  });

  it('looks uniform: every byte value turns up about as often as the others', () => {
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 2_000; i++) for (const byte of randomBytesPooled(64)) counts[byte]! += 1;
    const expected = (2_000 * 64) / 256; // 500 each
    // Chi-square with 255 degrees of freedom: above 360 happens by chance less than once in 10,000 runs.
    const chiSquare = counts.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
    expect(chiSquare).toBeLessThan(360);
  });

  it('draws a large request on its own, and refuses a size that is not a byte count', () => {
    expect(randomBytesPooled(MAX_POOLED_BYTES + 1)).toHaveLength(MAX_POOLED_BYTES + 1);
    expect(randomBytesPooled(0)).toHaveLength(0);
    expect(() => randomBytesPooled(-1)).toThrow(RangeError);
    expect(() => randomBytesPooled(1.5)).toThrow(RangeError);
  });
});
