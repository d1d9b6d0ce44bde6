import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { itemsDigest } from './quote.js';

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
