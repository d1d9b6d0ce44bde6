import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import fc from 'fast-check';
import { componentSchema } from '../../test/support/contract.js';
import { ClaimMessageRequest, ClaimPaidRequest } from './schemas.js';
import { MAX_CLAIM_TEXT } from './claim.js';

/**
 * A claim's free text (its description, the customer's answers, a decision's note) keeps its lines
 * and tabs but nothing hidden: found from outside, a description kept a right-to-left override
 * that the console then showed staff reordered.
 */
const messageOf = (message: string) => {
  const result = v.safeParse(ClaimMessageRequest, { message });
  return result.success ? undefined : result.issues[0].message;
};

describe('a claim’s free text', () => {
  it('keeps lines, tabs and every script', () => {
    expect(messageOf('The concert was cancelled.\r\n\tTicket 1\n\tTicket 2')).toBeUndefined();
    expect(messageOf('👨‍👩‍👧 می‌خواهم عرض مسرحي')).toBeUndefined();
    expect(v.parse(ClaimMessageRequest, { message: '\n  Cancelled.\n' }).message).toBe('Cancelled.');
  });

  it('refuses other controls, separators and bidirectional controls anywhere inside', () => {
    for (const char of [
      '\u0000',
      '\u0008',
      '\u000b',
      '\u000c',
      '\u001b',
      '\u007f',
      '\u0085',
      '\u2028',
      '\u2029',
      '\u061c',
      '\u200e',
      '\u202e',
      '\u2066',
      '\u2069',
    ]) {
      expect(messageOf(`line 1${char}line 2`), JSON.stringify(char)).toBe(
        'must hold no control characters but tabs and line breaks, and no line-separator or bidirectional-control characters',
      );
    }
  });

  it('counts characters as people do, up to its limit', () => {
    expect(messageOf('😀'.repeat(MAX_CLAIM_TEXT))).toBeUndefined();
    expect(messageOf('😀'.repeat(MAX_CLAIM_TEXT + 1))).toBe(`must be at most ${MAX_CLAIM_TEXT} characters`);
  });

  it('agrees with openapi.yaml’s Prose on any string (the contract refuses what the code refuses)', () => {
    const contract = componentSchema('Prose');
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 12 }),
          fc.constantFrom('a\nb', 'a\u202eb', 'a\r\n\tb', 'a\u0085b', '😀'.repeat(2001), ' ', '\n\n', '\r\n\t'),
        ),
        (text) => {
          // The contract's verdict is on the text as sent and the code's on it trimmed (the contract counts length before trimming); whitespace alone is empty to both.
          fc.pre(text === text.trim() || text.trim() === '');
          expect(messageOf(text) === undefined).toBe(contract(text));
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe('a payout reference', () => {
  it('is one line', () => {
    expect(v.safeParse(ClaimPaidRequest, { payout_reference: 'SEPA/2026/77' }).success).toBe(true);
    expect(v.safeParse(ClaimPaidRequest, { payout_reference: 'SEPA\n2026' }).success).toBe(false);
    expect(v.safeParse(ClaimPaidRequest, { payout_reference: 'SEPA\u202e77' }).success).toBe(false);
  });
});
