import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countryCode, PAYMENT_TYPES, paymentTypeCode, subdivisionCode } from './coded-values.js';
import { SUBDIVISIONS_BY_COUNTRY } from './region-codes.generated.js';

const countries = Object.keys(SUBDIVISIONS_BY_COUNTRY);
const subdivisions = countries.flatMap((country) =>
  SUBDIVISIONS_BY_COUNTRY[country]!.split(' ')
    .filter(Boolean)
    .map((suffix) => `${country}-${suffix}`),
);
const knownCountries = new Set(countries);
const knownSubdivisions = new Set(subdivisions);
const knownPaymentTypes = new Set<string>(PAYMENT_TYPES);

/** Mixed case and surrounding blanks, as merchants send codes. */
const carelessly = (code: string) =>
  fc.tuple(fc.constantFrom('', ' ', '\t'), fc.boolean()).map(([blank, lower]) => `${blank}${lower ? code.toLowerCase() : code}${blank}`);

describe('countryCode', () => {
  it('keeps every ISO 3166-1 alpha-2 code, upper-cased', () => {
    expect(countries).toHaveLength(249);
    fc.assert(
      fc.property(
        fc.constantFrom(...countries).chain((code) => carelessly(code).map((sent) => [code, sent] as const)),
        ([code, sent]) => {
          expect(countryCode(sent)).toBe(code);
        },
      ),
    );
  });

  it('turns any other text into null', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (sent) => {
        fc.pre(!knownCountries.has(sent.trim().toUpperCase()));
        expect(countryCode(sent)).toBeNull();
      }),
    );
    for (const sent of [undefined, '', 'UK', 'USA', 'United States', 'U S', '12']) expect(countryCode(sent)).toBeNull();
  });
});

describe('subdivisionCode', () => {
  it('keeps every ISO 3166-2 code of its own country, given whole or as its suffix, in full form', () => {
    expect(subdivisions.length).toBeGreaterThan(5000);
    fc.assert(
      fc.property(fc.constantFrom(...subdivisions), fc.boolean(), fc.boolean(), (code, whole, lower) => {
        const sent = whole ? code : code.slice(3);
        expect(subdivisionCode(lower ? sent.toLowerCase() : sent, code.slice(0, 2))).toBe(code);
      }),
    );
    expect([subdivisionCode('OR', 'US'), subdivisionCode('us-or', 'US'), subdivisionCode('ENG', 'GB')]).toEqual(['US-OR', 'US-OR', 'GB-ENG']);
  });

  it('is null without a country, under another country, and for any text that is no code of that country', () => {
    fc.assert(
      fc.property(fc.constantFrom(...subdivisions), fc.constantFrom(...countries), (code, other) => {
        expect(subdivisionCode(code, null)).toBeNull();
        expect(subdivisionCode(code.slice(3), null)).toBeNull();
        if (other !== code.slice(0, 2)) expect(subdivisionCode(code, other)).toBeNull();
      }),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.constantFrom(...countries), (sent, country) => {
        const code = sent.trim().toUpperCase();
        fc.pre(!knownSubdivisions.has(code) && !knownSubdivisions.has(`${country}-${code}`));
        expect(subdivisionCode(sent, country)).toBeNull();
      }),
    );
    for (const sent of [undefined, '', 'Oregon', 'Marche', 'US-', '-OR', 'US-ORE', 'USOR']) expect(subdivisionCode(sent, 'US')).toBeNull();
  });
});

describe('paymentTypeCode', () => {
  it('keeps every listed type, trimmed and lower-cased', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PAYMENT_TYPES).chain((type) => carelessly(type.toUpperCase()).map((sent) => [type, sent] as const)),
        ([type, sent]) => {
          expect(paymentTypeCode(sent)).toBe(type);
        },
      ),
    );
  });

  it('turns any other given text into other, and no text into null', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 24 }), (sent) => {
        fc.pre(sent.trim() !== '' && !knownPaymentTypes.has(sent.trim().toLowerCase()));
        expect(paymentTypeCode(sent)).toBe('other');
      }),
    );
    for (const sent of ['4111 1111 1111 1111', 'Giacomo Leopardi', 'credit card', 'visa']) expect(paymentTypeCode(sent)).toBe('other');
    for (const sent of [undefined, '', '  ']) expect(paymentTypeCode(sent)).toBeNull();
  });
});
