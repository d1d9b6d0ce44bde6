import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countAfter, groupByDay, streamPosition, type StreamedCheckout } from './conversion.js';

const checkout = (sequence: number, optIn: boolean, day = '2026-11-20', client = 'cli_a'): StreamedCheckout => ({
  client_id: client,
  day,
  opt_in: optIn,
  position: streamPosition(String(sequence)),
});

describe('day counts from a stream shard', () => {
  it('orders positions as numbers, whatever their length', () => {
    expect(streamPosition('99') < streamPosition('100')).toBe(true);
    expect(streamPosition('1'.repeat(40))).toHaveLength(40);
  });

  it('counts every checkout exactly once over any redelivery of in-order batches (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: 60 }), fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 20 }), (choices, replays) => {
        const stream = choices.map((optIn, i) => checkout(i + 1, optIn));
        let counted: string | undefined;
        let optIn = 0;
        let optOut = 0;
        const deliver = (batch: StreamedCheckout[]) => {
          const add = countAfter(batch, counted);
          optIn += add.opt_in;
          optOut += add.opt_out;
          counted = add.last;
        };
        // First delivery in order, in batches of 7; any slice again, in between and after.
        for (let i = 0; i < stream.length; i += 7) {
          deliver(stream.slice(i, i + 7));
          const [a, b] = replays[i % Math.max(1, replays.length)] ?? [0, 0];
          deliver(stream.slice(0, i + 7).slice(Math.min(a, b) % (i + 7), Math.max(a, b) % (i + 8)));
        }
        for (const [a, b] of replays) deliver(stream.slice(Math.min(a, b) % stream.length, Math.max(a, b) % (stream.length + 1)));
        expect(optIn).toBe(choices.filter(Boolean).length);
        expect(optOut).toBe(choices.filter((c) => !c).length);
      }),
    );
  });

  it('groups a batch by (client, day), in stream order', () => {
    const groups = groupByDay([checkout(3, true), checkout(1, false, '2026-11-21'), checkout(2, false), checkout(4, true, '2026-11-20', 'cli_b')]);
    expect(groups.map((g) => [g.client_id, g.day, g.checkouts.map((c) => Number(c.position))])).toEqual([
      ['cli_a', '2026-11-20', [2, 3]],
      ['cli_a', '2026-11-21', [1]],
      ['cli_b', '2026-11-20', [4]],
    ]);
  });
});
