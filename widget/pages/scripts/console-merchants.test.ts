import { describe, expect, it } from 'vitest';
import { percent, termsSummary } from './console-merchants.js';

describe("the console's premium rate", () => {
  it('is the API’s decimal fraction with its point moved two places, exactly', () => {
    expect(['0.085', '0.1', '0', '1', '0.0725', '0.10', '0.005', '1.5'].map(percent)).toEqual(['8.5%', '10%', '0%', '100%', '7.25%', '10%', '0.5%', '150%']);
  });
});

describe("the console's terms of a merchant", () => {
  it('names every band, the base rate last, and the commission', () => {
    expect(termsSummary({ rate_bands: [{ up_to_days: 7, rate: '0.12' }, { rate: '0.09' }], commission_rate: '0.15' })).toEqual({
      rates: '12% up to 7 days, then 9%',
      commission: 'commission 15%',
    });
    expect(termsSummary({ rate_bands: [{ up_to_days: 1, rate: '0.2' }, { up_to_days: 60, rate: '0.095' }, { rate: '0.085' }], commission_rate: '0' })).toEqual({
      rates: '20% up to 1 day, then 9.5% up to 60 days, then 8.5%',
      commission: 'no commission',
    });
  });
});
