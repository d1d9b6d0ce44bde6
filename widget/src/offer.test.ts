import { describe, expect, it } from 'vitest';
import { readCatalogue, surfaceOf } from '../locale-files.js';
import { translator } from './i18n.js';
import { coverageTotal, formatMoney, offerText, termsLink, tokenFor, type Quote } from './offer.js';

const english = surfaceOf(readCatalogue('en'), 'widget');
const german = surfaceOf(readCatalogue('de'), 'widget');
const inEnglish = translator('en', english, english).t;

const quote = (overrides: Partial<Quote> = {}): Quote => ({
  quote_id: 'qt_1',
  currency: 'USD',
  items: [
    { reference_number: 'a', cost: '120.00', premium: '10.20', coverage_amount: '120.00' },
    { reference_number: 'b', cost: '35.50', premium: '3.02', coverage_amount: '35.50' },
  ],
  premium_total: '13.22',
  expires_at: '2026-11-30T00:00:00.000Z',
  tokens: { opt_in: 'token-in', opt_out: 'token-out' },
  ...overrides,
});

describe('the offer', () => {
  it('hands over the token matching the choice, and none before a choice', () => {
    expect(tokenFor(quote(), undefined)).toBeUndefined();
    expect(tokenFor(quote(), 'opt_in')).toBe('token-in');
    expect(tokenFor(quote(), 'opt_out')).toBe('token-out');
    expect(tokenFor(undefined, 'opt_in')).toBeUndefined();
  });

  it('names both choices with the premium in the shopper’s locale', () => {
    const text = offerText(quote({ currency: 'EUR' }), inEnglish, 'de-DE');

    expect(text.yes).toBe('Yes, protect my order for 13,22\u00a0€');
    expect(text.no).toBe("No, I don't want protection");
    expect(text.description).toContain('155,50\u00a0€');
    const deutsch = offerText(quote({ currency: 'EUR' }), translator('de', german, english).t, 'de-AT');
    expect(deutsch.yes).toBe('Ja, meine Bestellung für €\u00a013,22 absichern'); // de-AT writes the euro first
    expect(deutsch.legend).toBe('Rückerstattungsschutz');
  });

  it('links the terms of the locale (or its language) when they are https, and ignores anything else', () => {
    expect(termsLink('https://shop.example/terms', 'de')).toBe('https://shop.example/terms');
    expect(termsLink({ de: 'https://shop.example/agb', en: 'https://shop.example/terms' }, 'de')).toBe('https://shop.example/agb');
    expect(termsLink({ en: 'https://shop.example/terms' }, 'en-GB')).toBe('https://shop.example/terms');
    expect(termsLink({ en: 'https://shop.example/terms' }, 'fr')).toBeUndefined();
    for (const bad of ['http://shop.example/terms', 'javascript:alert(1)', 'data:text/html,x', '/terms', 'not a url'])
      expect(termsLink({ de: bad }, 'de'), bad).toBeUndefined();
    expect(termsLink(undefined, 'de')).toBeUndefined();
  });

  it('adds coverage exactly, in the currency’s digits, without float artefacts', () => {
    const items = (...amounts: string[]) => amounts.map((amount, i) => ({ reference_number: `${i}`, cost: amount, premium: '0', coverage_amount: amount }));
    expect(coverageTotal(quote({ items: items('0.10', '0.20') }))).toBe('0.30');
    expect(coverageTotal(quote({ currency: 'JPY', items: items('1500', '98765') }))).toBe('100265');
    expect(coverageTotal(quote({ currency: 'KWD', items: items('12.345', '0.005') }))).toBe('12.350');
    expect(coverageTotal(quote({ currency: 'IDR', items: items('16000000000.00', '16000000000.00', '0.01') }))).toBe('32000000000.01');
  });

  it('shows each currency as people read it: whole yen, three-digit dinars, cents', () => {
    expect(formatMoney('1500', 'JPY', 'en-US')).toBe('¥1,500');
    expect(formatMoney('12.345', 'KWD', 'en-US')).toBe('KWD\u00a012.345');
    expect(formatMoney('120.00', 'USD', 'en-US')).toBe('$120.00');
    expect(formatMoney('99999999999999.99', 'USD', 'en-US')).toBe('$99,999,999,999,999.99'); // past 2^53 in cents: still exact
    const yen = offerText(
      quote({ currency: 'JPY', premium_total: '530', items: [{ reference_number: 'a', cost: '6234', premium: '530', coverage_amount: '6234' }] }),
      inEnglish,
      'en-US',
    );
    expect(yen.yes).toBe('Yes, protect my order for ¥530');
    expect(yen.description).toContain('¥6,234');
  });

  it('falls back to the plain amount for a currency the browser does not know', () => {
    expect(formatMoney('1.00', 'NOT A CURRENCY')).toBe('1.00 NOT A CURRENCY');
  });
});
