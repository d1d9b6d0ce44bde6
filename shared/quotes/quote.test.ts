import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertEventsNotOver, assertPremiumsMatchSeal, itemsDigest, sealOf } from './quote.js';

const item = fc.record({ reference_number: fc.string({ minLength: 1, maxLength: 20 }), cost: fc.integer({ min: 0, max: 100_000_000 }) });
const cart = fc.uniqueArray(item, { minLength: 1, maxLength: 20, selector: (i) => i.reference_number });

/** The quote token seals the cart by this digest: any order of the items, no other difference. */
describe('itemsDigest', () => {
  it('does not depend on the order of the items', () => {
    fc.assert(
      fc.property(cart, fc.func(fc.integer()), (items, key) => {
        const shuffled = [...items].sort((a, b) => key(a.reference_number) - key(b.reference_number));
        expect(itemsDigest(shuffled)).toBe(itemsDigest(items));
      }),
    );
  });

  it('changes with any cost, any reference number, or an item more or less', () => {
    fc.assert(
      fc.property(cart, fc.nat(), fc.integer({ min: 1, max: 100 }), (items, pick, delta) => {
        const index = pick % items.length;
        const costChanged = items.map((it, i) => (i === index ? { ...it, cost: it.cost + delta } : it));
        const referenceChanged = items.map((it, i) => (i === index ? { ...it, reference_number: `${it.reference_number}\u0000` } : it));
        const digest = itemsDigest(items);
        expect(itemsDigest(costChanged)).not.toBe(digest);
        expect(itemsDigest(referenceChanged)).not.toBe(digest);
        expect(itemsDigest(items.slice(1))).not.toBe(digest);
      }),
    );
  });
});

describe('assertPremiumsMatchSeal', () => {
  const quoted = [
    { reference_number: 'soon', cost: 10_000, premium: 1_500 },
    { reference_number: 'later', cost: 10_000, premium: 1_000 },
  ];
  const seal = sealOf({ quote_id: 'qt_1', client_id: 'cl_1', currency: 'USD', terms_version: 2, items: quoted }, new Date('2026-11-29T00:00:00Z'));

  it('takes the items at their quoted premiums, in any order', () => {
    expect(() => assertPremiumsMatchSeal([...quoted].reverse(), seal)).not.toThrow();
  });

  it('refuses two items of one cost whose events swapped rate bands, though the total is the same (found from outside)', () => {
    const swapped = [
      { ...quoted[0]!, premium: 1_000 },
      { ...quoted[1]!, premium: 1_500 },
    ];
    expect(() => assertPremiumsMatchSeal(swapped, seal)).toThrow(expect.objectContaining({ code: 'quote_mismatch', param: 'items' }));
    // A token signed before each premium was sealed is held to its total alone.
    expect(() => assertPremiumsMatchSeal(swapped, { ...seal, premiums_digest: undefined })).not.toThrow();
  });

  it('refuses a total that differs', () => {
    expect(() => assertPremiumsMatchSeal([{ ...quoted[0]!, premium: 1_501 }, quoted[1]!], seal)).toThrow(expect.objectContaining({ code: 'quote_mismatch' }));
  });
});

describe('assertEventsNotOver', () => {
  const soldAt = new Date('2026-11-29T23:59:59Z');
  const param = (index: number, field: string) => `items[${index}].event.${field}`;
  const refusal = (event: { start_date: string; end_date?: string | null } | null) => {
    try {
      assertEventsNotOver(
        [
          { reference_number: 'a', cost: 100 },
          { reference_number: 'b', cost: 100, event },
        ],
        soldAt,
        param,
      );
      return undefined;
    } catch (err) {
      return [(err as { code: string }).code, (err as { param: string }).param];
    }
  };

  it('refuses an event whose last day is before the day of the sale (UTC), naming the field that decided', () => {
    expect(refusal({ start_date: '2026-11-28' })).toEqual(['event_in_past', 'items[1].event.start_date']);
    expect(refusal({ start_date: '2026-11-01', end_date: '2026-11-28' })).toEqual(['event_in_past', 'items[1].event.end_date']);
  });

  it('sells an event today, one to come, one begun and not over, and an item without an event', () => {
    expect([
      refusal({ start_date: '2026-11-29' }),
      refusal({ start_date: '2027-01-01' }),
      refusal({ start_date: '2026-11-01', end_date: '2026-11-29' }),
      refusal(null),
    ]).toEqual([undefined, undefined, undefined, undefined]);
  });
});
