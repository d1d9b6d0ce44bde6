import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertNoDuplicateKeys, DuplicateKeyError, parseJsonBody } from './json-body.js';

/** The duplicate-key scan against JSON.stringify, which never writes a key twice. */
describe('assertNoDuplicateKeys', () => {
  it('accepts every JSON text JSON.stringify writes, whatever the strings and nesting', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        assertNoDuplicateKeys(JSON.stringify(value));
        assertNoDuplicateKeys(JSON.stringify(value, null, 2));
      }),
      { numRuns: 500 },
    );
  });

  it('finds a key written twice into any object of any JSON value', () => {
    const objectWithKey = fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 });
    fc.assert(
      fc.property(objectWithKey, fc.array(fc.jsonValue(), { maxLength: 3 }), (object, siblings) => {
        const [key] = Object.keys(object) as [string];
        const inner = JSON.stringify(object);
        const repeated = `${inner.slice(0, -1)},${JSON.stringify(key)}:0}`;
        const text = `{"wrapper":[${[...siblings.map((s) => JSON.stringify(s)), repeated].join(',')}]}`;
        expect(() => assertNoDuplicateKeys(text)).toThrow(DuplicateKeyError);
      }),
      { numRuns: 300 },
    );
  });

  it('names the repeated key by its path', () => {
    const error = (() => {
      try {
        assertNoDuplicateKeys('{"a":[{"b":1},{"c":{"d":1,"d":2}}]}');
      } catch (err) {
        return err as DuplicateKeyError;
      }
    })();
    expect(error?.param).toBe('a[1].c.d');
  });
});

describe('parseJsonBody', () => {
  it('decodes a base64-encoded body as API Gateway may send it', () => {
    expect(parseJsonBody('application/json', Buffer.from('{"a":"é"}').toString('base64'), true)).toEqual({ a: 'é' });
  });
});
