import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { CreateWebhookEndpointRequest } from './schemas.js';

/** An endpoint's description is one line, as names are (found from outside: it kept NUL, line breaks and a right-to-left override the portal shows). */
describe('a webhook endpoint’s description', () => {
  const describedAs = (description: string) => v.safeParse(CreateWebhookEndpointRequest, { url: 'https://shop.example.com/hooks', description });

  it('is one line, trimmed, at most 255 characters', () => {
    expect(describedAs('  Orders to the warehouse  ').output).toMatchObject({ description: 'Orders to the warehouse' });
    expect(describedAs('x'.repeat(255)).success).toBe(true);
    expect(describedAs('x'.repeat(256)).success).toBe(false);
    for (const char of ['\u0000', '\n', '\u001b', '\u202e', '\u2028']) expect(describedAs(`Orders${char}x`).success, JSON.stringify(char)).toBe(false);
  });
});
