import { describe, expect, it } from 'vitest';
import { bandsText, parseBands, parseMinimums } from './console-accounts.js';

/** The publish form's text into the API's fields, and back: the API judges the numbers, the form only their shape. */
describe('the terms form', () => {
  it('reads a band a line, the last a rate alone, and writes a version back the same way', () => {
    const bands = parseBands(' 7 0.12\n\n30   0.10\n0.085\n');
    expect(bands).toEqual([{ up_to_days: 7, rate: '0.12' }, { up_to_days: 30, rate: '0.10' }, { rate: '0.085' }]);
    expect(bandsText({ rate_bands: bands })).toBe('7 0.12\n30 0.10\n0.085');
  });

  it('names the line a band cannot be read from, as the field rate_bands', () => {
    expect(() => parseBands('7 0.12 extra')).toThrow(/line 1/);
    expect(() => parseBands('0.1\nseven 0.12')).toThrow(expect.objectContaining({ param: 'rate_bands', message: expect.stringMatching(/line 2/) }));
  });

  it('reads a minimum a line, the code upper-cased; none is an empty object', () => {
    expect(parseMinimums('usd 1.00\nJPY 100')).toEqual({ USD: '1.00', JPY: '100' });
    expect(parseMinimums('  \n')).toEqual({});
    expect(() => parseMinimums('USD')).toThrow(expect.objectContaining({ param: 'minimum_premium' }));
  });
});
