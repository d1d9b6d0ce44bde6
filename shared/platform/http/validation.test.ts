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
  });

  it('keeps a schema’s own message', () => {
    expect(refusal(v.strictObject({ days: v.pipe(v.number('must be a whole number of days'), v.integer()) }), { days: 'x' })).toEqual([
      'days',
      'days: must be a whole number of days',
    ]);
  });
});
