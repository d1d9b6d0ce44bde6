import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { MINOR_UNITS } from '../platform/money/currencies.generated.js';
import { maxItemCost } from '../platform/money/index.js';
import { liveAfter } from './publish-terms.js';
import { PublishTermsRequest } from './schemas.js';
import { bandFor, commissionOn, daysToEvent, inForceAt, MAX_BAND_DAYS, MAX_RATE_BANDS, premiumUnder, type LiveTerms, type RateBand } from './terms.js';

/**
 * Pricing under a terms version, against oracles written apart from the code: BigInt arithmetic
 * on exact rationals for the rounding, a linear search over the bands for the band.
 */
const CURRENCIES = Object.keys(MINOR_UNITS);
const ppm = fc.integer({ min: 1, max: 1_000_000 });

/** Rising `up_to_days` for all bands but the last, which has none. */
const bandsArb: fc.Arbitrary<RateBand[]> = fc
  .uniqueArray(fc.integer({ min: 0, max: MAX_BAND_DAYS }), { maxLength: MAX_RATE_BANDS - 1 })
  .chain((days) => fc.tuple(fc.constant(days.sort((a, b) => a - b)), fc.array(ppm, { minLength: days.length + 1, maxLength: days.length + 1 })))
  .map(([days, rates]) => [...days.map((up_to_days, i) => ({ up_to_days, rate_ppm: rates[i]! })), { rate_ppm: rates[days.length]! }]);

/** cost × ppm / 10⁶ rounded half-up, by BigInt: the exact quotient and remainder, no shortcut. */
function halfUp(cost: number, rate: number): number {
  const numerator = BigInt(cost) * BigInt(rate);
  const quotient = numerator / 1_000_000n;
  const remainder = numerator % 1_000_000n;
  return Number(remainder * 2n >= 1_000_000n ? quotient + 1n : quotient);
}

const pricingArb = fc.record({
  bands: bandsArb,
  currency: fc.constantFrom(...CURRENCIES),
  days: fc.option(fc.integer({ min: 0, max: MAX_BAND_DAYS + 30 }), { nil: undefined }),
  minimumShare: fc.option(fc.double({ min: 0, max: 0.01, noNaN: true }), { nil: undefined }),
});

describe('pricing under a terms version', () => {
  it('takes the first band whose up_to_days holds the days, and the last band for an item without a date or beyond every band', () => {
    fc.assert(
      fc.property(bandsArb, fc.option(fc.integer({ min: 0, max: MAX_BAND_DAYS + 30 }), { nil: undefined }), (bands, days) => {
        const expected = days === undefined ? bands.at(-1)! : (bands.find((band) => band.up_to_days !== undefined && days <= band.up_to_days) ?? bands.at(-1)!);
        expect(bandFor({ rate_bands: bands }, days)).toBe(expected);
      }),
    );
  });

  it("rounds half-up at every currency's minor unit, never below the currency's minimum nor one minor unit, never above the cost", () => {
    fc.assert(
      fc.property(pricingArb, fc.nat(), ({ bands, currency, days, minimumShare }, seed) => {
        const cost = seed % (maxItemCost(currency) + 1);
        const minimum = minimumShare === undefined ? undefined : Math.floor(maxItemCost(currency) * minimumShare);
        const terms = { rate_bands: bands, minimum_premium: minimum === undefined ? {} : { [currency]: minimum } };
        const rate = (days === undefined ? bands.at(-1)! : (bands.find((band) => band.up_to_days !== undefined && days <= band.up_to_days) ?? bands.at(-1)!))
          .rate_ppm;
        const premium = premiumUnder(terms, cost, currency, days);
        expect(premium).toBe(cost === 0 ? 0 : Math.min(Math.max(halfUp(cost, rate), minimum ?? 0, 1), cost));
        expect(Number.isSafeInteger(premium)).toBe(true);
      }),
    );
  });

  it('sells no cover for nothing and no protection dearer than its item (found from outside)', () => {
    const rate = { rate_bands: [{ rate_ppm: 85_000 }], minimum_premium: {} };
    expect(premiumUnder(rate, 5, 'USD', undefined)).toBe(1); // 0.05 × 8.5 % = 0.00425 → 0.01, not 0.00
    expect(premiumUnder(rate, 1, 'USD', undefined)).toBe(1);
    expect(premiumUnder(rate, 0, 'USD', undefined)).toBe(0);
    expect(premiumUnder({ rate_bands: [{ rate_ppm: 85_000 }], minimum_premium: { JPY: 150 } }, 7, 'JPY', undefined)).toBe(7); // ¥7 ticket, ¥150 minimum
    expect(premiumUnder({ rate_bands: [{ rate_ppm: 85_000 }], minimum_premium: { JPY: 150 } }, 1_000, 'JPY', undefined)).toBe(150);
  });

  it('takes a minimum only in its own currency', () => {
    expect(premiumUnder({ rate_bands: [{ rate_ppm: 85_000 }], minimum_premium: { EUR: 500 } }, 1_000, 'USD', undefined)).toBe(85);
    expect(premiumUnder({ rate_bands: [{ rate_ppm: 85_000 }], minimum_premium: { EUR: 500 } }, 1_000, 'EUR', undefined)).toBe(500);
  });

  it('gives a commission of premium × rate half-up, never above the premium, and 0 on nothing', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 90_000_000_000_000 }), fc.integer({ min: 0, max: 1_000_000 }), (premium, rate) => {
        const commission = commissionOn(premium, rate);
        expect(commission).toBe(rate === 0 ? 0 : halfUp(premium, rate));
        expect(commission).toBeGreaterThanOrEqual(0);
        expect(commission).toBeLessThanOrEqual(premium);
      }),
    );
    expect(commissionOn(1, 500_000)).toBe(1); // half a cent rounds up
    expect(commissionOn(1, 499_999)).toBe(0);
  });

  it("counts whole calendar days from the sale's UTC date to the event's start date, 0 once it has begun", () => {
    const sold = new Date('2026-11-28T23:59:59.999Z');
    expect(daysToEvent(sold, '2026-11-28')).toBe(0);
    expect(daysToEvent(sold, '2026-11-29')).toBe(1);
    expect(daysToEvent(sold, '2026-11-01')).toBe(0);
    expect(daysToEvent(sold, '2027-11-28')).toBe(365);
    expect(daysToEvent(sold, undefined)).toBeUndefined();
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2090-01-01'), noInvalidDate: true }),
        fc.integer({ min: 0, max: 5_000 }),
        (at, ahead) => {
          const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + ahead)).toISOString().slice(0, 10);
          expect(daysToEvent(at, day)).toBe(ahead);
        },
      ),
    );
  });
});

describe('versions in force', () => {
  const version = (n: number, from: string): LiveTerms => ({
    client_id: 'cl_x',
    version: n,
    effective_from: from,
    rate_bands: [{ rate_ppm: n * 1_000 }],
    minimum_premium: {},
    commission_ppm: 0,
    look_period_days: 14,
  });
  const v1 = version(1, '2026-01-01T00:00:00.000Z');
  const v2 = version(2, '2026-06-01T00:00:00.000Z');
  const v3 = version(3, '2026-12-01T00:00:00.000Z');

  it('prices under the latest version whose effective_from has come', () => {
    expect(inForceAt([v1, v2, v3], new Date('2025-12-31T23:59:59.999Z'))).toBeUndefined();
    expect(inForceAt([v1, v2, v3], new Date('2026-01-01T00:00:00.000Z'))).toBe(v1);
    expect(inForceAt([v3, v1, v2], new Date('2026-11-30T23:59:59.999Z'))).toBe(v2);
    expect(inForceAt([v1, v2, v3], new Date('2026-12-01T00:00:00.000Z'))).toBe(v3);
  });

  it('takes the version whose effective_from came last, not the highest number: one for now replaces the one in force while an earlier-published one waits', () => {
    const v4 = version(4, '2026-11-15T00:00:00.000Z'); // published after v3 was scheduled for 12-01
    expect(inForceAt([v1, v2, v3, v4], new Date('2026-11-20T00:00:00.000Z'))).toBe(v4);
    expect(inForceAt([v1, v2, v3, v4], new Date('2026-12-01T00:00:00.000Z'))).toBe(v3);
    const v5 = version(5, v3.effective_from); // the same instant: the later published wins
    expect(inForceAt([v5, v3], new Date('2026-12-02T00:00:00.000Z'))).toBe(v5);
    expect(liveAfter([v2, v3, v4], new Date('2026-11-20T00:00:00.000Z'))).toEqual([v3, v4]);
  });

  it('keeps live the version in force and those scheduled after it, nothing older', () => {
    expect(liveAfter([v1, v2, v3], new Date('2026-07-01T00:00:00.000Z'))).toEqual([v2, v3]);
    expect(liveAfter([v1, v2, v3], new Date('2027-01-01T00:00:00.000Z'))).toEqual([v3]);
    expect(liveAfter([v2, v3], new Date('2026-01-02T00:00:00.000Z'))).toEqual([v2, v3]);
  });
});

describe('a publish request', () => {
  const valid = { rate_bands: [{ up_to_days: 7, rate: '0.12' }, { rate: '0.085' }], commission_rate: '0.15', look_period_days: 14 };
  const issues = (body: unknown) => {
    const result = v.safeParse(PublishTermsRequest, body);
    return result.success ? [] : result.issues.map((issue) => `${v.getDotPath(issue)}: ${issue.message}`);
  };

  it('reads rates into ppm and amounts into minor units', () => {
    const result = v.parse(PublishTermsRequest, { ...valid, minimum_premium: { usd: '1.5', JPY: '100', KWD: '0.250' }, commission_rate: '0' });
    expect(result).toEqual({
      rate_bands: [{ up_to_days: 7, rate_ppm: 120_000 }, { rate_ppm: 85_000 }],
      minimum_premium: { USD: 150, JPY: 100, KWD: 250 },
      commission_ppm: 0,
      look_period_days: 14,
    });
  });

  it('refuses bands out of order, a last band with a limit, a middle band without one, and rates outside (0, 1]', () => {
    expect(issues({ ...valid, rate_bands: [{ up_to_days: 7, rate: '0.1' }, { up_to_days: 7, rate: '0.1' }, { rate: '0.1' }] })).toEqual([
      "rate_bands.1.up_to_days: must be above the previous band's (7)",
    ]);
    expect(issues({ ...valid, rate_bands: [{ up_to_days: 7, rate: '0.1' }] })[0]).toMatch(/^rate_bands\.0\.up_to_days: the last band must have no up_to_days/);
    expect(issues({ ...valid, rate_bands: [{ rate: '0.1' }, { rate: '0.1' }] })[0]).toMatch(
      /^rate_bands\.0\.up_to_days: must be set on every band but the last/,
    );
    expect(issues({ ...valid, rate_bands: [] })).toEqual(['rate_bands: must hold at least one band']);
    for (const rate of ['0', '1.5', '-0.1', '0.1234567', '8.5%', ' 0.1'])
      expect(issues({ ...valid, rate_bands: [{ rate }] })[0]).toMatch(/^rate_bands\.0\.rate: /);
    expect(issues({ ...valid, rate_bands: Array.from({ length: MAX_RATE_BANDS + 1 }, (_, i) => ({ up_to_days: i, rate: '0.1' })) })[0]).toMatch(
      /at most 8 bands/,
    );
  });

  it('refuses a commission above 1, an unknown or repeated currency, an amount with too many digits, and unknown fields', () => {
    expect(issues({ ...valid, commission_rate: '1.01' })[0]).toMatch(/^commission_rate: /);
    expect(issues({ ...valid, minimum_premium: { XAU: '1' } })[0]).toMatch(/^minimum_premium: "XAU": must be an ISO 4217/);
    // The keys a plain record skips are currency codes like any other, read from the body as JSON.parse makes it.
    for (const key of ['__proto__', 'constructor', 'prototype'])
      expect(issues({ ...valid, minimum_premium: JSON.parse(`{"${key}": "5.00"}`) as unknown })[0], key).toMatch(
        /^minimum_premium: ".{1,8}": must be an ISO 4217/,
      );
    expect(issues({ ...valid, minimum_premium: { USD: 1.5 } })).toEqual(['minimum_premium: USD: must be a decimal amount written as a string']);
    expect(issues({ ...valid, minimum_premium: ['USD'] })).toEqual(['minimum_premium: must be an object of amounts by currency']);
    expect(issues({ ...valid, minimum_premium: { usd: '1', USD: '2' } })).toEqual(['minimum_premium: USD is given twice']);
    expect(issues({ ...valid, minimum_premium: { JPY: '1.5' } })[0]).toMatch(/^minimum_premium: JPY: /);
    expect(issues({ ...valid, look_period_days: 61 })[0]).toMatch(/^look_period_days: must be at most 60/);
    expect(issues({ ...valid, rate_ppm: 1 })[0]).toMatch(/^rate_ppm: /);
  });
});
