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

/** The well-formedness check against its definition: every string and key of the parsed value is well-formed. */
describe('parseJsonBody and lone surrogates', () => {
  const everyStringWellFormed = (value: unknown): boolean =>
    typeof value === 'string'
      ? value.isWellFormed()
      : Array.isArray(value)
        ? value.every(everyStringWellFormed)
        : value !== null && typeof value === 'object'
          ? Object.entries(value).every(([key, element]) => key.isWellFormed() && everyStringWellFormed(element))
          : true;
  // Strings of any UTF-16 units, lone surrogates among them, so JSON.stringify writes some as
  // `\udXXX` escapes; the text is also written with raw surrogates and escaped backslashes.
  const units = fc.string({
    unit: fc.oneof(
      fc.constantFrom('\ud800', '\udfff', '\ud83d', '\ude00', '\\', 'u', 'd', '8', '"'),
      fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)),
    ),
  });
  const value = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small' }, units, fc.integer(), fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(units, tie('node'), { maxKeys: 3 })),
  })).node;

  it('refuses a body with 422 invalid_unicode exactly when one of its strings or keys holds a lone surrogate, however it is spelled', () => {
    fc.assert(
      fc.property(value, fc.boolean(), (body, raw) => {
        // Raw: the surrogates written as themselves instead of escapes (JSON.stringify escapes lone ones).
        const text = raw
          ? JSON.stringify(body).replace(/\\u(d[89a-f][0-9a-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
          : JSON.stringify(body);
        let code: string | undefined;
        try {
          parseJsonBody('application/json', text);
        } catch (err) {
          code = (err as { code?: string }).code;
        }
        if (code === 'duplicate_key') return; // two keys that differ only by spelling
        expect(code).toBe(everyStringWellFormed(body) ? undefined : 'invalid_unicode');
      }),
      { numRuns: 2_000 },
    );
  });
});
