import { beforeAll, describe, expect, it } from 'vitest';
import { forgetKeySets, generateKeySet } from './signing-keys.js';
import { openOrderNumber, sealOrderNumber } from './order-number-seal.js';

describe('sealed order numbers (the order.opted_out webhook)', () => {
  beforeAll(() => {
    process.env.SIGNING_KEYS = JSON.stringify({
      access: generateKeySet('access'),
      quote: generateKeySet('quote'),
      'order-number': generateKeySet('order-number'),
    });
    forgetKeySets();
  });

  it('open only for the client they were sealed for, never show the number, and differ each time', async () => {
    const number = 'jane.doe@example.org-#1042';
    const [a, b] = [await sealOrderNumber('cl_a', number), await sealOrderNumber('cl_a', number)];
    expect(a).not.toBe(b);
    expect(a).not.toContain('jane');
    expect(await openOrderNumber('cl_a', a)).toBe(number);
    expect(await openOrderNumber('cl_b', a)).toBeUndefined();
    // One character changed (the second-to-last: every bit of it is data, where the last may hold padding bits).
    const tampered = `${a.slice(0, -2)}${a.at(-2) === 'A' ? 'B' : 'A'}${a.slice(-1)}`;
    expect(tampered).not.toBe(a);
    expect(await openOrderNumber('cl_a', tampered)).toBeUndefined();
    expect(await openOrderNumber('cl_a', 'v1.short')).toBeUndefined();
  });
});
