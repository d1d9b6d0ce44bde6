import { describe, expect, it } from 'vitest';
import { coverageTotal, formatMoney, offerText, tokenFor, type Quote } from './offer.js';

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
    const text = offerText(quote({ currency: 'EUR' }), 'de-DE');

    expect(text.yes).toBe('Yes, protect my order for 13,22\u00a0€');
    expect(text.no).toBe("No, I don't want protection");
    expect(text.description).toContain('155,50\u00a0€');
  });

  it('adds coverage in cents, without float artefacts', () => {
    expect(
      coverageTotal(quote({ items: [0.1, 0.2].map((c, i) => ({ reference_number: `${i}`, cost: `${c}`, premium: '0.01', coverage_amount: c.toFixed(2) })) })),
    ).toBe('0.30');
  });

  it('falls back to the plain amount for a currency the browser does not know', () => {
    expect(formatMoney('1.00', 'NOT A CURRENCY')).toBe('1.00 NOT A CURRENCY');
  });
});
