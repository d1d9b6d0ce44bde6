import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { parseInput } from './validation.js';

const refusal = (schema: v.GenericSchema, input: unknown) => {
  try {
    parseInput(schema, input);
    return undefined;
  } catch (err) {
    return [(err as { param?: string }).param, (err as Error).message];
  }
};

describe('a refused input’s message', () => {
  it('is the house’s words where a schema kept valibot’s own (found from outside: "Invalid type: Expected string but received null")', () => {
    const Body = v.strictObject({
      description: v.optional(v.string()),
      customer: v.optional(v.strictObject({})),
      token: v.optional(v.pipe(v.string(), v.minLength(1))),
    });
    expect(refusal(Body, { description: null })).toEqual(['description', 'description: must be a string, not null.']);
    expect(refusal(Body, { customer: null })).toEqual(['customer', 'customer: must be an object, not null.']);
    expect(refusal(Body, { description: Infinity })).toEqual(['description', 'description: must be a string, not Infinity.']);
    expect(refusal(Body, { token: '' })).toEqual(['token', 'token: must not be empty.']);
    expect(refusal(Body, { other: 1 })).toEqual(['other', 'other is not a known field.']);
    // Every check that kept valibot's words (found from outside on the token route, the staff groups and the bands).
    const Checks = v.strictObject({
      key: v.optional(v.pipe(v.string(), v.maxLength(255))),
      groups: v.optional(v.pipe(v.array(v.string()), v.maxLength(4))),
      days: v.optional(v.pipe(v.number(), v.minValue(0))),
      rate: v.optional(v.pipe(v.number(), v.maxValue(1))),
      code: v.optional(v.pipe(v.string(), v.regex(/^[A-Z]{3}$/))),
    });
    expect(refusal(Checks, { key: 'a'.repeat(256) })).toEqual(['key', 'key: must be at most 255 characters.']);
    expect(refusal(Checks, { groups: ['a', 'b', 'c', 'd', 'e'] })).toEqual(['groups', 'groups: must be at most 4 items.']);
    expect(refusal(Checks, { days: -1 })).toEqual(['days', 'days: must be at least 0.']);
    expect(refusal(Checks, { rate: 2 })).toEqual(['rate', 'rate: must be at most 1.']);
    expect(refusal(Checks, { code: 'usd' })).toEqual(['code', 'code: is not valid.']);
  });

  it('keeps a schema’s own message', () => {
    expect(refusal(v.strictObject({ days: v.pipe(v.number('must be a whole number of days'), v.integer()) }), { days: 'x' })).toEqual([
      'days',
      'days: must be a whole number of days',
    ]);
  });
});
