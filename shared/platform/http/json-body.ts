import { AppError, MalformedRequestError, UnsupportedMediaTypeError, ValidationError } from '../errors.js';

/**
 * The body rules (docs/api.md "Conventions"): `Content-Type: application/json`, optionally with
 * `charset=utf-8`, and nothing else (no `application/evil+json`, no other charset); JSON with no
 * key twice in one object at any depth (400 `duplicate_key`: JSON.parse would keep the last
 * `"cost"`, a reviewer the first); every string, keys included, well-formed Unicode (422: a lone
 * surrogate cannot be stored faithfully, and two different ones would collide).
 *
 * Our own code rather than Middy's JSON body parser: that parser accepts any `+json` type and
 * JSON.parse cannot see duplicate keys. The scan below is one pass over text JSON.parse already
 * accepted, so it only has to tell keys from values, not validate.
 */
const MEDIA_TYPE = /^application\/json\s*(?:;\s*charset\s*=\s*(?:utf-8|"utf-8")\s*)?$/i;
/** Far deeper than any body of the API (an order nests 4 levels); deeper text is refused before it is walked. */
export const MAX_DEPTH = 32;
const utf8 = new TextDecoder('utf-8', { fatal: true });

export class DuplicateKeyError extends AppError {
  constructor(param: string) {
    super(400, 'invalid_request_error', 'duplicate_key', `${param} appears more than once in the same object.`, param);
  }
}

const pathText = (path: readonly (string | number)[]): string =>
  path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${key}` : key), '');

const [QUOTE, BACKSLASH, OPEN_OBJECT, OPEN_ARRAY, CLOSE_OBJECT, CLOSE_ARRAY, COMMA] = [...'"\\{[}],'].map((char) => char.charCodeAt(0));

/** Whether the quote at `at` is escaped: an odd number of backslashes right before it. */
function escapedAt(text: string, at: number): boolean {
  let backslashes = 0;
  for (let i = at - 1; i >= 0 && text.charCodeAt(i) === BACKSLASH; i--) backslashes++;
  return backslashes % 2 === 1;
}

type Frame = { kind: 'object'; keys: Set<string>; key?: string } | { kind: 'array'; index: number };

/**
 * Throws DuplicateKeyError naming the first repeated key, or a 400 when objects and arrays nest
 * deeper than MAX_DEPTH; `text` must be valid JSON. Iterative: no input can exhaust the stack.
 */
export function assertNoDuplicateKeys(text: string): void {
  const stack: Frame[] = [];
  const path = () => stack.map((frame) => (frame.kind === 'object' ? (frame.key ?? '') : frame.index));
  let expectKey = false;
  // Char codes and slices, not characters: this runs on every body (bench/README.md, the CPU goal).
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === QUOTE) {
      // The string's closing quote: the next quote not escaped (preceded by an odd run of
      // backslashes). indexOf, not a loop over the characters: a quote token is 500 of a checkout's 700.
      let end = text.indexOf('"', i + 1);
      while (end !== -1 && escapedAt(text, end)) end = text.indexOf('"', end + 1);
      if (end === -1) return; // an unterminated string: not JSON, which JSON.parse refused before this runs
      const top = stack[stack.length - 1];
      if (expectKey && top?.kind === 'object') {
        // A key without escapes is its own text; only an escaped one needs JSON's reading.
        const spelled = text.slice(i + 1, end);
        const key = spelled.includes('\\') ? (JSON.parse(`"${spelled}"`) as string) : spelled;
        top.key = key;
        if (top.keys.has(key)) throw new DuplicateKeyError(pathText(path()));
        top.keys.add(key);
        expectKey = false;
      }
      i = end;
    } else if (char === OPEN_OBJECT || char === OPEN_ARRAY) {
      if (stack.length >= MAX_DEPTH)
        throw new MalformedRequestError(`The request body nests objects and arrays more than ${MAX_DEPTH} levels deep.`, 'nesting_too_deep');
      stack.push(char === OPEN_OBJECT ? { kind: 'object', keys: new Set() } : { kind: 'array', index: 0 });
      expectKey = char === OPEN_OBJECT;
    } else if (char === CLOSE_OBJECT || char === CLOSE_ARRAY) {
      stack.pop();
    } else if (char === COMMA) {
      const top = stack[stack.length - 1];
      if (top?.kind === 'object') expectKey = true;
      else if (top) top.index += 1;
    }
  }
}

/**
 * Text whose every string is well-formed once parsed: the text itself is, and it spells no
 * surrogate as a `\uD800`–`\uDFFF` escape. Most bodies pass this at once; the others are walked
 * value by value below (an escaped backslash before `uD8…` only costs the walk).
 */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const surelyWellFormed = (text: string): boolean => text.isWellFormed() && !SURROGATE_ESCAPE.test(text);

/** Throws a 422 naming the first string (or key) that is not well-formed Unicode. */
function assertWellFormed(value: unknown, path: (string | number)[] = []): void {
  if (typeof value === 'string') {
    if (!value.isWellFormed())
      throw new ValidationError(
        `${pathText(path) || 'The request body'} must be well-formed Unicode (it holds a lone surrogate).`,
        pathText(path) || undefined,
        'invalid_unicode',
      );
  } else if (Array.isArray(value)) {
    value.forEach((element, index) => assertWellFormed(element, [...path, index]));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, element] of Object.entries(value)) {
      if (!key.isWellFormed())
        throw new ValidationError(
          `${pathText(path) || 'The request body'} has a key that is not well-formed Unicode.`,
          pathText(path) || undefined,
          'invalid_unicode',
        );
      assertWellFormed(element, [...path, key]);
    }
  }
}

/** The request body as JSON under the rules above. */
export function parseJsonBody(contentType: string | undefined, body: string, isBase64Encoded = false): unknown {
  if (!contentType || !MEDIA_TYPE.test(contentType.trim())) throw new UnsupportedMediaTypeError();
  let text = body;
  let value: unknown;
  if (isBase64Encoded) {
    try {
      text = utf8.decode(Buffer.from(body, 'base64'));
    } catch {
      throw new MalformedRequestError('The request body is not valid UTF-8.', 'invalid_encoding');
    }
  }
  try {
    value = JSON.parse(text);
  } catch {
    throw new MalformedRequestError();
  }
  assertNoDuplicateKeys(text);
  if (!surelyWellFormed(text)) assertWellFormed(value);
  return value;
}
