import { describe, expect, it } from 'vitest';
import { MINOR_UNITS } from './currencies.generated.js';
import { FUND_UNITS, ITEM_LIMITS_AS_OF, MAX_ITEM_COST, usdRate } from './currency-limits.js';
import { formatMoney, maxItemCost } from './money.js';
import { USD_RATES, USD_RATES_SOURCE } from './usd-rates.generated.js';

/**
 * Issue 35.4: an item's limit is about USD 1,000,000 worth in every accepted currency, by one dated
 * table of rates (CLF, BHD and OMR allowed a million of their major unit, VND, LBP, IRR and UZS a
 * few dozen dollars' worth). Worth is computed exactly: limit ÷ 10^digits ÷ rate, in BigInt.
 */
const ACCEPTED = Object.keys(MINOR_UNITS);
const LOW = 500_000n;
const HIGH = 2_000_000n;

/** Whether `minor` units of `currency` are worth between LOW and HIGH US dollars by the table. */
function worthInBand(currency: string, minor: number): boolean {
  const rate = usdRate(currency)!;
  const scaled = BigInt(minor) * rate.d; // worth × 10^digits × rate.n
  const unit = 10n ** BigInt(MINOR_UNITS[currency]!) * rate.n;
  return scaled >= LOW * unit && scaled <= HIGH * unit;
}

describe('the USD rate table the item limits come from', () => {
  it('is dated, names its source, and has a rate for every accepted currency (a market rate, or a fund’s relation to one)', () => {
    expect(ITEM_LIMITS_AS_OF).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(USD_RATES_SOURCE).toMatch(/^@fawazahmed0\/currency-api@\d{4}\.\d+\.\d+ /);
    const missing = ACCEPTED.filter((currency) => usdRate(currency) === undefined);
    expect(missing).toEqual([]);
    for (const [code, fund] of Object.entries(FUND_UNITS)) {
      expect(Object.hasOwn(MINOR_UNITS, code), code).toBe(true);
      expect(Object.hasOwn(USD_RATES, code), `${code} is a fund code: the market table has no row for it`).toBe(false);
      expect(Object.hasOwn(USD_RATES, fund.of), `${code} counts in ${fund.of}`).toBe(true);
    }
    expect(usdRate('USD')).toEqual({ n: 1n, d: 1n });
    expect(usdRate('XAU')).toBeUndefined();
  });
});

describe('an item’s limit in every accepted currency', () => {
  it('is worth USD 0.5M–2M by the table', () => {
    const outside = ACCEPTED.filter((currency) => !worthInBand(currency, maxItemCost(currency))).map(
      (currency) => `${currency} ${formatMoney(maxItemCost(currency), currency)}`,
    );
    expect(outside).toEqual([]);
  });

  it('is a clean figure: at most two significant digits in minor units', () => {
    for (const currency of ACCEPTED) expect(String(MAX_ITEM_COST[currency]), currency).toMatch(/^[1-9]\d?0*$/);
  });

  it('keeps the contract’s rows and brings the outliers of issue 35 into the band', () => {
    expect(Object.fromEntries(['USD', 'EUR', 'JPY', 'KRW', 'IDR', 'KWD'].map((currency) => [currency, formatMoney(maxItemCost(currency), currency)]))).toEqual({
      USD: '1000000.00',
      EUR: '1000000.00',
      JPY: '150000000',
      KRW: '1400000000',
      IDR: '16000000000.00',
      KWD: '310000.000',
    });
    // 1,000,000 of their major unit was worth USD 2.6M–40M (CLF) or USD 11–730 (the others).
    for (const currency of ['CLF', 'BHD', 'OMR', 'VND', 'LBP', 'IRR', 'UZS']) expect(worthInBand(currency, maxItemCost(currency)), currency).toBe(true);
    expect(formatMoney(maxItemCost('BHD'), 'BHD')).toBe('380000.000');
    expect(formatMoney(maxItemCost('VND'), 'VND')).toBe('26000000000');
  });
});
