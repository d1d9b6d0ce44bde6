import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CURRENCIES_FILE, readIsoList, renderCurrencies } from './generate-currencies.js';

describe('the ISO 4217 minor-unit table', () => {
  it('is what the installed currency-codes package’s ISO list yields (after updating it: npm run generate:currencies)', () => {
    expect(readFileSync(CURRENCIES_FILE, 'utf8')).toBe(renderCurrencies());
  });

  it('holds known rows and leaves out the codes ISO gives no minor unit', () => {
    const { published, digits } = readIsoList();
    expect(published).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Object.fromEntries(['USD', 'EUR', 'JPY', 'KRW', 'KWD', 'BHD', 'CLF', 'IDR', 'ISK', 'VND'].map((code) => [code, digits.get(code)]))).toEqual({
      USD: 2,
      EUR: 2,
      JPY: 0,
      KRW: 0,
      KWD: 3,
      BHD: 3,
      CLF: 4,
      IDR: 2,
      ISK: 0,
      VND: 0,
    });
    for (const code of ['XAU', 'XAG', 'XPT', 'XDR', 'XXX', 'XTS']) expect(digits.has(code), code).toBe(false);
  });
});
