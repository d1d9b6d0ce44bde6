import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readUsdRates, renderUsdRates, USD_RATES_FILE } from './generate-currencies-usd-rates.js';

/** The USD rate table's generator, on a small usd.json of the source's shape. */
const SAMPLE = JSON.stringify({ date: '2026-09-29', usd: { eur: 0.88022588, jpy: 157.47729333, usd: 1, btc: 0.0000087, xau: 0.00026, aed: 3.6725 } });

describe('the USD rate table generator', () => {
  it('keeps the accepted ISO 4217 codes only, upper-cased, with the rate as the source wrote it, and the source’s date', () => {
    const { date, rates } = readUsdRates(SAMPLE);
    expect(date).toBe('2026-09-29');
    expect(Object.fromEntries(rates)).toEqual({ AED: '3.6725', EUR: '0.88022588', JPY: '157.47729333', USD: '1' });
  });

  it('refuses a file that is not the source’s usd.json, or a rate that is not a positive decimal', () => {
    expect(() => readUsdRates('{"usd":{}}')).toThrow(/not a currency-api usd.json/);
    expect(() => readUsdRates(JSON.stringify({ date: '2026-09-29', usd: { eur: 0 } }))).toThrow(/EUR: not a rate/);
    expect(() => readUsdRates(JSON.stringify({ date: '2026-09-29', usd: { eur: '0.9' } }))).toThrow(/EUR: not a rate/);
  });

  it('writes the committed file’s shape: date, source and one row per code', () => {
    const rendered = renderUsdRates(SAMPLE, '2026.9.29');
    expect(rendered).toContain("export const USD_RATES_AS_OF = '2026-09-29';");
    expect(rendered).toContain("export const USD_RATES_SOURCE = '@fawazahmed0/currency-api@2026.9.29 v1/currencies/usd.json';");
    expect(rendered).toContain("  JPY: '157.47729333',");
    // The committed table is this generator's output: the same lines but for the rows, date and version.
    const shape = (text: string) => text.replace(/^ {2}[A-Z]{3}: '[\d.]+',\n/gm, '').replace(/\d{4}-\d{2}-\d{2}|\d{4}\.\d+\.\d+/g, 'D');
    expect(shape(readFileSync(USD_RATES_FILE, 'utf8'))).toBe(shape(rendered));
  });
});
