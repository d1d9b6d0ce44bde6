import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import fc from 'fast-check';
import { componentSchema } from '../../../test/support/contract.js';
import { EventInput, MAX_STRING, optionalLine, OptionalText, Text } from './schemas.js';

const accepts = (text: string) => v.safeParse(Text, text).success;
const messageOf = (text: string) => {
  const result = v.safeParse(Text, text);
  return result.success ? undefined : result.issues[0].message;
};

describe('Text: one line a person reads', () => {
  it('counts UTF-16 units: 127 emoji fit, 128 do not (an astral reference number must fit a 1,024-byte index key)', () => {
    expect(accepts('😀'.repeat(127))).toBe(true);
    expect(messageOf('😀'.repeat(128))).toBe(`must be at most ${MAX_STRING} characters`);
    expect(accepts('a'.repeat(MAX_STRING))).toBe(true);
    expect(messageOf('a'.repeat(MAX_STRING + 1))).toBe(`must be at most ${MAX_STRING} characters`);
  });

  it('refuses controls, line separators and bidirectional controls anywhere inside', () => {
    const hidden = [
      '\u0000',
      '\t',
      '\n',
      '\r',
      '\u007f',
      '\u0085',
      '\u009b',
      '\u2028',
      '\u2029',
      '\u061c',
      '\u200e',
      '\u200f',
      '\u202a',
      '\u202e',
      '\u2066',
      '\u2069',
    ];
    for (const char of hidden) {
      expect(messageOf(`Seat${char}A1`), JSON.stringify(char)).toBe('must hold no control, line-separator or bidirectional-control characters');
      expect(v.safeParse(OptionalText, `Main${char}Street`).success, JSON.stringify(char)).toBe(false);
    }
  });

  it('keeps what scripts and emoji need, and trims the whitespace around', () => {
    expect(accepts('👨‍👩‍👧 family pass')).toBe(true); // zero-width joiners
    expect(accepts('می‌خواهم')).toBe(true); // a zero-width non-joiner in Persian
    expect(accepts('عرض مسرحي')).toBe(true);
    expect(v.parse(Text, '\n  Seat A1\t')).toBe('Seat A1');
    expect(messageOf(' \n ')).toBe('must not be empty');
  });

  it('agrees with openapi.yaml’s Text on any string but astral text the code counts longer (the contract refuses what the code refuses)', () => {
    const contract = componentSchema('Text');
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 12 }),
          fc.string({ unit: 'grapheme', minLength: 250, maxLength: 260 }),
          fc.constantFrom('Seat A1', ' Seat A1 ', 'a\u202eb', '😀'.repeat(256), '\tx', ' ', '\n\t ', '\u2028'),
        ),
        (text) => {
          // The contract's verdict is on the text as sent and the code's on it trimmed: texts with something inside whitespace are the test above's (the contract counts their length before trimming); whitespace alone is empty to both.
          fc.pre(text === text.trim() || text.trim() === '');
          // Astral text of 128–255 code points: the contract takes it, the code (counting units) does not.
          fc.pre(text.length <= MAX_STRING || [...text].length > MAX_STRING);
          expect(accepts(text)).toBe(contract(text));
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe('optionalLine: a shorter single line (a zip code)', () => {
  it('is bounded by its own limit and refuses what Text refuses (found from outside: a zip code kept NUL, line breaks and a right-to-left override)', () => {
    const zip = optionalLine(32);
    expect(v.parse(zip, ' 75001 ')).toBe('75001');
    expect(v.parse(zip, undefined)).toBeUndefined();
    expect(v.safeParse(zip, '1'.repeat(33)).success).toBe(false);
    for (const char of ['\u0000', '\n', '\t', '\u202e', '\u0085', '\u2028', '\u001b'])
      expect(v.safeParse(zip, `12${char}34`).success, JSON.stringify(char)).toBe(false);
  });
});

describe('EventInput: a day, or days, with times', () => {
  const event = (fields: Record<string, unknown>) => v.safeParse(EventInput, { name: 'Show', start_date: '2027-03-08', start_time: '20:00', ...fields });
  const refusal = (fields: Record<string, unknown>) => {
    const result = event(fields);
    return result.success ? undefined : [v.getDotPath(result.issues[0]), result.issues[0].message];
  };
  it('refuses an end_time before start_time on the one day, whether end_date names that day or is left out (an outsider was sold such a show)', () => {
    for (const end_date of ['2027-03-08', null, undefined])
      expect(refusal({ end_time: '19:00', ...(end_date === undefined ? {} : { end_date }) }), String(end_date)).toEqual([
        'end_time',
        'must not be before start_time on the same day',
      ]);
    expect(event({ end_date: '2027-03-09', end_time: '01:00' }).success).toBe(true); // past midnight, on the next day
    expect(event({ end_time: '23:00' }).success).toBe(true);
  });

  it('takes an event as an order shows it (its id, no venue: location null) as it takes one without them', () => {
    const shown = { id: 'evnt_Mgl45n6BepnvdKKIGF7B55AJ', end_date: null, end_time: null, location: null };
    const parsed = event(shown);
    expect(parsed.success && parsed.output.location).toBeNull();
    expect(event({}).success && event({}).output).not.toHaveProperty('location');
    expect(refusal({ location: '  \u202Estage' })).toEqual(['location', 'must hold no control, line-separator or bidirectional-control characters']);
    expect(refusal({ ...shown, id: 7 })?.[0]).toBe('id');
    expect(refusal({ ...shown, venue: 'Hall' })?.[0]).toBe('venue'); // other fields are still refused
  });
});
