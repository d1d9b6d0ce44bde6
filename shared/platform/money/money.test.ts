import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MINOR_UNITS } from './currencies.generated.js';
import {
  amountOrRefuse,
  formatMoney,
  formatRate,
  fromHundredths,
  maxItemCost,
  maxOrderAmount,
  minorUnit,
  parseMoney,
  parseRate,
  premiumFor,
  readMoney,
  sumMinor,
} from './money.js';

/**
 * Money properties over every ISO 4217 currency that has a minor unit, checked against oracles
 * that work on decimal digit strings and BigInt (never on the code under test, never on floats).
 */
const CURRENCIES = Object.keys(MINOR_UNITS);
const currencyArb = fc.constantFrom(...CURRENCIES);
/** A currency and an amount up to its item limit. */
const amountArb = currencyArb.chain((currency) => fc.record({ currency: fc.constant(currency), minor: fc.integer({ min: 0, max: maxItemCost(currency) }) }));
const ppmArb = fc.integer({ min: 1, max: 1_000_000 });

/** The decimal text of `minor` units with `digits` fraction digits, by BigInt and string slicing. */
function decimal(minor: bigint, digits: number): string {
  const sign = minor < 0n ? '-' : '';
  const text = (minor < 0n ? -minor : minor).toString().padStart(digits + 1, '0');
  return digits === 0 ? sign + text : `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/** cost × rate as an exact rational n/d, rounded half-up to a whole minor unit by comparing remainders. */
function roundedProduct(cost: number, ppm: number): bigint {
  const n = BigInt(cost) * BigInt(ppm);
  const d = 1_000_000n;
  const q = n / d;
  const r = n - q * d;
  return 2n * r >= d ? q + 1n : q;
}

describe('the minor unit', () => {
  it("is ISO 4217's: 0 for JPY, KRW, CLP, VND, ISK; 2 for USD, EUR, GBP; 3 for KWD, BHD, JOD, OMR, TND, LYD, IQD; 4 for CLF", () => {
    for (const code of ['JPY', 'KRW', 'CLP', 'VND', 'ISK']) expect(minorUnit(code), code).toBe(0);
    for (const code of ['USD', 'EUR', 'GBP', 'IDR']) expect(minorUnit(code), code).toBe(2);
    for (const code of ['KWD', 'BHD', 'JOD', 'OMR', 'TND', 'LYD', 'IQD']) expect(minorUnit(code), code).toBe(3);
    expect(minorUnit('CLF')).toBe(4);
  });

  it('is unknown for codes ISO gives none (gold, the SDR, XXX) and for codes that are not ISO 4217', () => {
    for (const code of ['XAU', 'XAG', 'XDR', 'XXX', 'XTS', 'ABC', 'usd', 'toString', '__proto__']) expect(minorUnit(code), code).toBeUndefined();
  });

  it('keeps two digits for amounts stored in a code the API took before and ISO gives none (HRK, XDR): such records still read', () => {
    for (const code of ['HRK', 'SLL', 'ZWL', 'XCG', 'XDR', 'XSU']) {
      expect(minorUnit(code), code).toBeUndefined();
      expect(formatMoney(1234, code), code).toBe('12.34');
      expect(fromHundredths(1234, code), code).toBe(1234);
      expect(parseMoney('12.34', code, maxItemCost(code)), code).toEqual({ minor: 1234 });
    }
  });
});

describe('amounts', () => {
  it('parse ∘ format is the identity at the currency’s digits, for every currency and amount up to its limit', () => {
    fc.assert(
      fc.property(amountArb, ({ currency, minor }) => {
        const text = formatMoney(minor, currency);
        expect(text).toBe(decimal(BigInt(minor), minorUnit(currency)!));
        expect(parseMoney(text, currency, maxItemCost(currency))).toEqual({ minor });
        expect(readMoney(text, currency)).toBe(minor);
      }),
      { numRuns: 5_000 },
    );
  });

  it('accept zeros past the minor unit and refuse any other digit there, naming the currency and its digits', () => {
    fc.assert(
      fc.property(amountArb, fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 9 }), ({ currency, minor }, extra, digit) => {
        const digits = minorUnit(currency)!;
        const text = formatMoney(minor, currency);
        const zeros = `${text}${digits === 0 ? '.' : ''}${'0'.repeat(extra)}`;
        expect(parseMoney(zeros, currency, maxItemCost(currency))).toEqual({ minor });
        const past = `${zeros.slice(0, -1)}${digit}`;
        const refused = parseMoney(past, currency, maxItemCost(currency));
        expect(refused).toHaveProperty('problem');
        expect((refused as { problem: string }).problem).toContain(currency);
        expect((refused as { problem: string }).problem).toContain(`${digits === 0 ? 'no' : digits} fraction digit`);
      }),
      { numRuns: 2_000 },
    );
  });

  it('read "1500" and "1500.00" JPY as 1500 yen and refuse "1500.5"; read "12.345" KWD as 12345 fils', () => {
    expect(parseMoney('1500', 'JPY', maxItemCost('JPY'))).toEqual({ minor: 1500 });
    expect(parseMoney('1500.00', 'JPY', maxItemCost('JPY'))).toEqual({ minor: 1500 });
    expect(parseMoney('1500.5', 'JPY', maxItemCost('JPY'))).toEqual({
      problem: 'must have at most 0 fraction digits: JPY has no fraction digits (its ISO 4217 minor unit)',
    });
    expect(parseMoney('12.345', 'KWD', maxItemCost('KWD'))).toEqual({ minor: 12_345 });
    expect(parseMoney('12.3456', 'KWD', maxItemCost('KWD'))).toHaveProperty('problem', expect.stringContaining('KWD has 3 fraction digits'));
    expect(parseMoney('10.5', 'USD', maxItemCost('USD'))).toEqual({ minor: 1050 });
  });

  it('refuse what is not a plain decimal: signs, exponents, leading zeros, separators, bare points', () => {
    for (const bad of ['-1', '1e3', '01', '.5', '10.', ' 1', '1,00', 'NaN', '', '0x10', '１']) {
      expect(parseMoney(bad, 'USD', maxItemCost('USD')), bad).toHaveProperty('problem', 'must be a decimal string such as "120.00"');
    }
    expect(parseMoney('1e3', 'JPY', maxItemCost('JPY'))).toEqual({ problem: 'must be a decimal string such as "120"' }); // the currency's own example
    expect(parseMoney('.5', 'KWD', maxItemCost('KWD'))).toEqual({ problem: 'must be a decimal string such as "120.000"' });
    expect(() => amountOrRefuse('1.005', 'USD', maxItemCost('USD'), 'items[3].cost')).toThrow(
      /items\[3\]\.cost: must have at most 2 fraction digits: USD has 2/,
    );
  });

  it('add up exactly: the sum of parsed strings formats as the BigInt sum', () => {
    fc.assert(
      fc.property(currencyArb, fc.array(fc.integer({ min: 0, max: 100_000_000 }), { maxLength: 100 }), (currency, amounts) => {
        const parsed = amounts.map((minor) => readMoney(formatMoney(minor, currency), currency)!);
        const oracle = amounts.reduce((total, minor) => total + BigInt(minor), 0n);
        expect(formatMoney(sumMinor(parsed), currency)).toBe(decimal(oracle, minorUnit(currency)!));
      }),
    );
  });

  it('format negative amounts (a downgrade’s delta) with the currency’s digits', () => {
    expect(formatMoney(-1234, 'KWD')).toBe('-1.234');
    expect(formatMoney(-5, 'KWD')).toBe('-0.005');
    expect(formatMoney(-85, 'JPY')).toBe('-85');
    expect(formatMoney(-5, 'USD')).toBe('-0.05');
    expect(() => formatMoney(0.5, 'USD')).toThrow(/not an amount in minor units/);
  });
});

describe('limits per currency', () => {
  it('are the contract’s rows, about USD 1,000,000 worth elsewhere (currency-limits.test.ts), 1,000,000 major units for a code no longer accepted', () => {
    expect(formatMoney(maxItemCost('USD'), 'USD')).toBe('1000000.00');
    expect(formatMoney(maxItemCost('EUR'), 'EUR')).toBe('1000000.00');
    expect(formatMoney(maxItemCost('JPY'), 'JPY')).toBe('150000000');
    expect(formatMoney(maxItemCost('KRW'), 'KRW')).toBe('1400000000');
    expect(formatMoney(maxItemCost('IDR'), 'IDR')).toBe('16000000000.00');
    expect(formatMoney(maxItemCost('KWD'), 'KWD')).toBe('310000.000');
    expect(formatMoney(maxItemCost('CHF'), 'CHF')).toBe('830000.00');
    expect(formatMoney(maxItemCost('CLP'), 'CLP')).toBe('970000000');
    expect(formatMoney(maxItemCost('CLF'), 'CLF')).toBe('24000.0000');
    expect(formatMoney(maxItemCost('HRK'), 'HRK')).toBe('1000000.00');
  });

  it('take an amount at the limit and refuse one minor unit more, naming the limit', () => {
    expect(parseMoney('1400000000', 'KRW', maxItemCost('KRW'))).toEqual({ minor: 1_400_000_000 });
    expect(parseMoney('1400000001', 'KRW', maxItemCost('KRW'))).toEqual({ problem: 'must be at most 1400000000 KRW', overMax: true });
    expect(parseMoney('310000.001', 'KWD', maxItemCost('KWD'))).toEqual({ problem: 'must be at most 310000.000 KWD', overMax: true });
  });

  it('keep every order total a safe integer: 100 items at the highest limit', () => {
    for (const currency of CURRENCIES) expect(Number.isSafeInteger(maxOrderAmount(currency)), currency).toBe(true);
  });
});

describe('premium', () => {
  it('is cost × rate rounded half-up at the minor unit: the exact rational reference, in every currency', () => {
    fc.assert(
      fc.property(amountArb, ppmArb, ({ currency, minor }, ppm) => {
        const premium = premiumFor(minor, ppm);
        expect(BigInt(premium)).toBe(roundedProduct(minor, ppm));
        expect(formatMoney(premium, currency)).toBe(decimal(roundedProduct(minor, ppm), minorUnit(currency)!));
      }),
      { numRuns: 5_000 },
    );
  });

  it('rounds the half unit up and anything below it down', () => {
    expect(formatMoney(premiumFor(1_000, 85_000), 'USD')).toBe('0.85'); // 10.00 × 0.085
    expect(formatMoney(premiumFor(50, 10_000), 'USD')).toBe('0.01'); // 0.50 × 0.01 = 0.005
    expect(formatMoney(premiumFor(49, 10_000), 'USD')).toBe('0.00'); // 0.0049
    expect(formatMoney(premiumFor(1_234, 85_000), 'JPY')).toBe('105'); // ¥1,234 × 0.085 = 104.89
    expect(formatMoney(premiumFor(1_100, 85_000), 'JPY')).toBe('94'); // 93.5 → 94
    expect(formatMoney(premiumFor(12_345, 85_000), 'KWD')).toBe('1.049'); // 12.345 × 0.085 = 1.049325
  });
});

describe('amounts stored as hundredths (before minor units)', () => {
  it('scale up exactly for currencies with more digits and round half away from zero for fewer', () => {
    fc.assert(
      fc.property(fc.integer({ min: -10_000_000_000, max: 10_000_000_000 }), (hundredths) => {
        expect(fromHundredths(hundredths, 'USD')).toBe(hundredths);
        expect(fromHundredths(hundredths, 'KWD')).toBe(hundredths * 10);
        expect(fromHundredths(hundredths, 'CLF')).toBe(hundredths * 100);
        const yen = fromHundredths(hundredths, 'JPY');
        const magnitude = BigInt(Math.abs(hundredths));
        const rounded = magnitude / 100n + (magnitude % 100n >= 50n ? 1n : 0n);
        expect(BigInt(yen)).toBe(hundredths < 0 ? -rounded : rounded);
      }),
    );
    expect([10_494, 10_450, 10_449, -50, -49].map((h) => fromHundredths(h, 'JPY'))).toEqual([105, 105, 104, -1, -0]);
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
