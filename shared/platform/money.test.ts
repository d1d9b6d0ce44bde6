import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCents, formatRate, parseCents, parseFormattedCents, parseRate, premiumFor, sumCents } from './money.js';

/**
 * Money properties, checked against an independent oracle that works on decimal digit strings
 * (long multiplication and rounding by looking at the digits), never on the code under test.
 */
const centsArb = fc.integer({ min: 0, max: 100_000_000 });
const ppmArb = fc.integer({ min: 1, max: 1_000_000 });

/** cost (cents) × rate (ppm) as an exact decimal string with 8 fraction digits. */
function exactProduct(cents: number, ppm: number): string {
  const digits = (BigInt(cents) * BigInt(ppm)).toString().padStart(9, '0'); // cents·ppm = amount × 10^8
  return `${digits.slice(0, -8)}.${digits.slice(-8)}`;
}

/** Half-up rounding to 2 fraction digits by reading the third digit onwards. */
function roundHalfUp(decimal: string): string {
  const [whole, fraction] = decimal.split('.') as [string, string];
  const kept = BigInt(whole + fraction.slice(0, 2));
  const roundedUp = fraction[2]! >= '5' ? kept + 1n : kept;
  const text = roundedUp.toString().padStart(3, '0');
  return `${BigInt(text.slice(0, -2)).toString()}.${text.slice(-2)}`;
}

describe('premium', () => {
  it('is cost × rate rounded half-up to the cent, for any cost and rate', () => {
    fc.assert(
      fc.property(centsArb, ppmArb, (cents, ppm) => {
        expect(formatCents(premiumFor(cents, ppm))).toBe(roundHalfUp(exactProduct(cents, ppm)));
      }),
      { numRuns: 2_000 },
    );
  });

  it('rounds the half cent up and anything below it down', () => {
    expect(formatCents(premiumFor(1_000, 85_000))).toBe('0.85'); // 10.00 × 0.085 = 0.85
    expect(formatCents(premiumFor(50, 10_000))).toBe('0.01'); // 0.50 × 0.01 = 0.005 → 0.01
    expect(formatCents(premiumFor(49, 10_000))).toBe('0.00'); // 0.49 × 0.01 = 0.0049 → 0.00
    expect(formatCents(premiumFor(9_999, 85_000))).toBe('8.50'); // 99.99 × 0.085 = 8.49915
  });
});

describe('amounts', () => {
  it('format with exactly two fraction digits and read back to the same cents', () => {
    fc.assert(
      fc.property(centsArb, (cents) => {
        const text = formatCents(cents);
        expect(text).toMatch(/^\d+\.\d{2}$/);
        expect(parseCents(text)).toBe(cents);
      }),
      { numRuns: 2_000 },
    );
  });

  it('add up to the subtotal exactly: the sum of the strings equals the formatted sum', () => {
    fc.assert(
      fc.property(fc.array(centsArb, { maxLength: 100 }), (amounts) => {
        const oracle = amounts.map((c) => BigInt(c)).reduce((a, b) => a + b, 0n);
        const expected = `${oracle / 100n}.${(oracle % 100n).toString().padStart(2, '0')}`;
        expect(formatCents(sumCents(amounts.map((c) => parseCents(formatCents(c))!)))).toBe(expected);
      }),
    );
  });

  it('never show binary floating-point artefacts', () => {
    expect(formatCents(parseCents('0.1')! + parseCents('0.2')!)).toBe('0.30');
    fc.assert(
      fc.property(fc.array(centsArb, { minLength: 1, maxLength: 20 }), (amounts) => {
        expect(formatCents(sumCents(amounts))).not.toMatch(/\d{3,}$|e/);
      }),
    );
  });

  it('accept "10", "10.5" and "10.50", and refuse everything else', () => {
    expect(['10', '10.5', '10.50', '0', '0.01', '1000000.00'].map(parseCents)).toEqual([1000, 1050, 1050, 0, 1, 100_000_000]);
    for (const bad of ['1.005', '-1', '1e3', '01', '.5', '10.', ' 1', '1,00', '1000000.01', 'NaN', '']) expect(parseCents(bad), bad).toBeUndefined();
  });
});

describe("formatted totals (a quote token's premium total)", () => {
  it('read back what formatCents wrote, past the per-item limit too, and nothing else', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 96 * 100_000_000 }), (cents) => {
        expect(parseFormattedCents(formatCents(cents))).toBe(cents);
      }),
    );
    for (const bad of ['10', '10.5', '1.005', '-1.00', '01.00', '1e3.00', ' 1.00', '']) expect(parseFormattedCents(bad), bad).toBeUndefined();
  });
});

describe('rates', () => {
  it('read and write back for any rate in (0, 1] with up to 6 digits', () => {
    fc.assert(
      fc.property(ppmArb, (ppm) => {
        expect(parseRate(formatRate(ppm))).toBe(ppm);
      }),
    );
    expect(parseRate('0.085')).toBe(85_000);
    for (const bad of ['0', '1.5', '8.5', '-0.1', '0.0000001', 'abc']) expect(parseRate(bad), bad).toBeUndefined();
  });
});
