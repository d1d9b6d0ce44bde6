import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { hashOrderNumber } from './order-number-hash.js';
import { forgetKeySets, generateKeySet, type KeySet } from './signing-keys.js';

/** The keyed hash that stands for an order number in the metrics table. */
const signingKeysBefore = process.env.SIGNING_KEYS;
let orderNumberKeys: KeySet;
function useOrderNumberKeys(keys: KeySet | undefined) {
  process.env.SIGNING_KEYS = JSON.stringify({ access: generateKeySet('access'), quote: generateKeySet('quote'), ...(keys ? { 'order-number': keys } : {}) });
  forgetKeySets();
}

beforeEach(() => {
  orderNumberKeys = generateKeySet('order-number');
  useOrderNumberKeys(orderNumberKeys);
});
afterAll(() => {
  if (signingKeysBefore === undefined) delete process.env.SIGNING_KEYS;
  else process.env.SIGNING_KEYS = signingKeysBefore;
  forgetKeySets();
});

describe('hashOrderNumber', () => {
  it('is HMAC-SHA256 under the order-number key, base64url, the same for the same client and number', async () => {
    const hash = await hashOrderNumber('cl_1', 'philippa.q@example.net');
    const expected = createHmac('sha256', orderNumberKeys.secret).update('4:cl_1philippa.q@example.net').digest('base64url');
    expect(hash).toBe(expected);
    expect(hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await hashOrderNumber('cl_1', 'philippa.q@example.net')).toBe(hash);
    expect(generateKeySet('order-number').kid).toMatch(/^order-number-/);
  });

  it('differs between clients, between numbers, and between keys, and never holds the number', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 8 }),
        fc.string({ minLength: 1, maxLength: 8 }),
        fc.string({ minLength: 4, maxLength: 40 }),
        async (clientA, clientB, orderNumber) => {
          fc.pre(clientA !== clientB);
          // Where the client id ends is part of what is hashed: ('cl_1', '2x') is not ('cl_12', 'x').
          const [a, b] = await Promise.all([hashOrderNumber(clientA, `${clientB}${orderNumber}`), hashOrderNumber(`${clientA}${clientB}`, orderNumber)]);
          expect(a).not.toBe(b);
          expect(await hashOrderNumber(clientA, orderNumber)).not.toBe(await hashOrderNumber(clientB, orderNumber));
          expect(a).not.toContain(orderNumber);
        },
      ),
    );
    const before = await hashOrderNumber('cl_1', 'A-1001');
    useOrderNumberKeys(generateKeySet('order-number'));
    expect(await hashOrderNumber('cl_1', 'A-1001')).not.toBe(before);
  });

  it('refuses to hash without an order-number key', async () => {
    useOrderNumberKeys(undefined);
    await expect(hashOrderNumber('cl_1', 'A-1001')).rejects.toThrow('SIGNING_KEYS has no order-number keys');
  });
});
