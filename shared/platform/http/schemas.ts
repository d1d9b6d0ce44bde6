import * as v from 'valibot';
import { MAX_CHECKOUT_ITEMS } from '../limits.js';
import { maxItemCost, minorUnit, parseMoney, type Minor } from '../money/index.js';

/**
 * The API's field shapes, which every feature's request schemas are built from (each feature's
 * `schemas.ts`). Objects are strict (unknown fields are refused, so a body cannot slip in
 * `status`, `premium` or `client`), strings are bounded, and money is parsed into integer minor
 * units of its currency (`costsInCurrency`) once the currency is known.
 */
export const MAX_STRING = 255;
/** Quote tokens are about 500 characters whatever the cart (they seal a digest of the items). */
const MAX_QUOTE_TOKEN_LENGTH = 2048;

/** At most `max` characters counted as code points (as JSON Schema's maxLength counts; valibot's maxLength counts UTF-16 units). */
export const maxCharacters = (max: number) => v.check((text: string) => codePoints(text, max) <= max, `must be at most ${max} characters`);

/**
 * The code points of `text` where they are more than `stop` (counted up to `stop + 1`), else a
 * number at most `stop`: no array of characters is made, and a text of at most `stop` UTF-16 units
 * (every text of a usual request) is not walked, since it cannot hold more code points than units.
 */
function codePoints(text: string, stop: number): number {
  if (text.length <= stop) return text.length;
  let count = 0;
  for (let i = 0; i < text.length && count <= stop; i++, count++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point; a lone one counts as one.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
  }
  return count;
}

/**
 * What no single-line text of the API holds (names, references, order numbers, addresses): control
 * characters (C0, DEL, C1: a NUL or a line break in a bordereau's cell), line and paragraph
 * separators, and the bidirectional controls that reorder what a reader sees (a right-to-left
 * override turns `exe.txt` around). Other invisible formatting stays: the zero-width joiner builds
 * emoji (👨‍👩‍👧) and the non-joiner spells Persian and Hindi words. The same class, spelled as
 * ranges, is the `pattern` of openapi.yaml's `Text`.
 */
const HIDDEN = /[\p{Cc}\p{Zl}\p{Zp}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
const noHidden = v.check((text: string) => !HIDDEN.test(text), 'must hold no control, line-separator or bidirectional-control characters');

/**
 * What free text over several lines (a claim's description, a message, a decision's note) does not
 * hold: the same class but for the tab and the line breaks (`\t`, `\n`, `\r`), which such text is
 * made of. The right-to-left override is refused there too: staff read it in the console.
 * openapi.yaml's `Prose` spells it as ranges.
 */
// eslint-disable-next-line no-control-regex -- the controls are what it finds
const HIDDEN_IN_PROSE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\p{Zl}\p{Zp}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
export const noHiddenInProse = v.check(
  (text: string) => !HIDDEN_IN_PROSE.test(text),
  'must hold no control characters but tabs and line breaks, and no line-separator or bidirectional-control characters',
);

/**
 * Single-line text: trimmed, 1 to MAX_STRING UTF-16 units, nothing hidden. Units, not code points
 * (openapi.yaml's maxLength counts code points, so the code refuses some astral text the contract
 * allows): an item's reference number goes into a list index's sort key (DynamoDB: 1,024 bytes),
 * and 255 emoji there are 1,020 bytes before the key's other 67, which DynamoDB refused with a 500.
 */
export const Text = line(MAX_STRING);
export const OptionalText = optionalLine(MAX_STRING);

/** Single-line text of 1 to `max` UTF-16 units (a payout reference's 100), trimmed, nothing hidden. */
export function line(max: number) {
  return v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(max, `must be at most ${max} characters`), noHidden);
}

/** Optional single-line text of at most `max` UTF-16 units (a zip code's 32), trimmed, nothing hidden. */
export function optionalLine(max: number) {
  return v.optional(v.pipe(v.string(), v.trim(), v.maxLength(max, `must be at most ${max} characters`), noHidden));
}

/**
 * An amount as a request writes it: a string, kept as text until its currency is known (the
 * body's `currency`, the order's for a PATCH, the claim's for an approval) and then read into
 * minor units with parseMoney, whose message shows the currency's own example ("120" in JPY).
 */
export const AmountText = v.pipe(v.string('must be a decimal amount written as a string'), v.maxLength(40, 'must be at most 40 characters'));

const CURRENCY_MESSAGE = 'must be an ISO 4217 currency code with a minor unit, such as USD or JPY';
/** a–z to A–Z and nothing else: String#toUpperCase folds Unicode (`uſd` → USD, `ınr` → INR, `ßp` → SSP). */
const asciiUpper = (text: string): string => text.replace(/[a-z]/g, (letter) => String.fromCharCode(letter.charCodeAt(0) - 32));

/**
 * An ISO 4217 code that has a minor unit: three ASCII letters, either case, answered upper-case.
 * Gold (XAU), the SDR (XDR) and XXX have no minor unit, so no amount can be written in them.
 */
export const Currency = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z]{3}$/, CURRENCY_MESSAGE),
  v.transform(asciiUpper),
  v.check((code) => minorUnit(code) !== undefined, CURRENCY_MESSAGE),
);

type Costed = { currency: string; items: { cost: string }[] };
type WithMinorCosts<T extends Costed> = Omit<T, 'items'> & { items: (Omit<T['items'][number], 'cost'> & { cost: Minor })[] };

/**
 * Reads every `items[i].cost` in the body's `currency`: at most its minor unit's digits (zeros past
 * it are fine) and at most its item limit; the first that is not gives a 422 naming it.
 */
export function costsInCurrency<T extends Costed>() {
  return v.rawTransform<T, WithMinorCosts<T>>(({ dataset, addIssue, NEVER }) => {
    const { currency, items } = dataset.value;
    const max = maxItemCost(currency);
    const costs: Minor[] = [];
    for (const [index, item] of items.entries()) {
      const parsed = parseMoney(item.cost, currency, max);
      if ('problem' in parsed) {
        addIssue({
          message: parsed.problem,
          path: [
            { type: 'object', origin: 'value', input: dataset.value, key: 'items', value: items },
            { type: 'array', origin: 'value', input: items, key: index, value: item },
            { type: 'object', origin: 'value', input: item, key: 'cost', value: item.cost },
          ],
        });
        return NEVER;
      }
      costs.push(parsed.minor);
    }
    return { ...dataset.value, items: items.map((item, index) => ({ ...item, cost: costs[index]! })) } as unknown as WithMinorCosts<T>;
  });
}

/** YYYY-MM-DD naming a day that exists (2026-02-30 does not). */
export const CalendarDate = v.pipe(
  v.string(),
  v.check((text) => {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
    if (!match) return false;
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const date = new Date(Date.UTC(year, month - 1, day));
    return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  }, 'must be a real date written YYYY-MM-DD'),
);

/** HH:MM or HH:MM:SS, normalized to HH:MM:SS. */
export const ClockTime = v.pipe(
  v.string(),
  v.regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, 'must be a time written HH:MM'),
  v.transform((text) => (text.length === 5 ? `${text}:00` : text)),
);

export const EventInput = v.pipe(
  v.strictObject({
    // An event read back (an order's item shows it with its id) can be sent again as it is: the id is
    // taken and not read, since the fields decide whether it is the event the item had.
    id: v.optional(v.pipe(v.string(), v.maxLength(MAX_STRING, `must be at most ${MAX_STRING} characters`))),
    name: Text,
    start_date: CalendarDate,
    start_time: ClockTime,
    end_date: v.optional(v.nullable(CalendarDate)),
    end_time: v.optional(v.nullable(ClockTime)),
    // null as an order's event shows it (no venue given): an event read back can be sent again as it is.
    location: v.nullish(v.pipe(v.string(), v.trim(), v.maxLength(MAX_STRING, `must be at most ${MAX_STRING} characters`), noHidden)),
  }),
  v.forward(
    v.check((event) => !event.end_date || event.end_date >= event.start_date, 'must not be before start_date'),
    ['end_date'],
  ),
  v.forward(
    v.check(
      // Without an end_date the event is of one day (its start_date), as the claim window reads it.
      (event) => !((event.end_date ?? event.start_date) === event.start_date && event.end_time && event.end_time < event.start_time),
      'must not be before start_time on the same day',
    ),
    ['end_time'],
  ),
);
export type EventInput = v.InferOutput<typeof EventInput>;

const uniqueReferences = <T extends { reference_number: string }>(items: T[]): number =>
  items.findIndex((item, index) => items.findIndex((other) => other.reference_number === item.reference_number) !== index);

/** Items of a checkout: 1 to MAX_CHECKOUT_ITEMS, reference numbers unique within it. */
export function itemList<S extends v.GenericSchema<unknown, { reference_number: string }>>(item: S) {
  return v.pipe(
    v.array(item, 'must be an array of items'),
    v.minLength(1, 'must hold at least one item'),
    v.maxLength(MAX_CHECKOUT_ITEMS, `must hold at most ${MAX_CHECKOUT_ITEMS} items`),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const duplicate = uniqueReferences(dataset.value);
      if (duplicate >= 0) {
        addIssue({
          message: 'repeats a reference_number of an earlier item',
          path: [
            { type: 'array', origin: 'value', input: dataset.value, key: duplicate, value: dataset.value[duplicate] },
            {
              type: 'object',
              origin: 'value',
              input: dataset.value[duplicate] as Record<string, unknown>,
              key: 'reference_number',
              value: dataset.value[duplicate]?.reference_number,
            },
          ],
        });
      }
    }),
  );
}

export const QuoteToken = v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_QUOTE_TOKEN_LENGTH, `must be at most ${MAX_QUOTE_TOKEN_LENGTH} characters`));

/** An instant or a day: 2026-11-23T10:15:30.123Z, or 2026-11-23 for its start (UTC); held as the ISO instant. */
export const Instant = v.pipe(
  v.string(),
  v.check(
    // A real day and time: JavaScript would roll 2026-02-30 over into March, and T24:00 into the next day.
    (text) =>
      /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z)?$/.test(text) &&
      !Number.isNaN(Date.parse(text)) &&
      new Date(text.length === 10 ? `${text}T00:00:00Z` : text).toISOString().startsWith(text.slice(0, 19)),
    'must be a date (YYYY-MM-DD) or an ISO 8601 UTC time',
  ),
  v.transform((text) => new Date(text.length === 10 ? `${text}T00:00:00Z` : text).toISOString()),
);

/** A page of a list: `limit` 1–100 (default 20) and the opaque cursor where it continues. */
export const listPage = {
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^(100|[1-9]\d?)$/, 'must be a whole number from 1 to 100'),
      v.transform((text) => Number(text)),
    ),
    '20',
  ),
  cursor: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(512, 'must be at most 512 characters'))),
};

/** POST …/rotate_secret and …/redeliver take no fields: no body, or `{}`. */
export const EmptyRequest = v.optional(v.strictObject({}), {});

/**
 * A short note staff type that others read later (a reversal's or a suspension's reason, in the
 * audit log): 1 to `max` characters as people count them (code points), trimmed, with something
 * visible, and no control, invisible formatting (a right-to-left override) or line-separator
 * characters.
 */
export const StaffNote = (max: number) =>
  v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.minLength(1, 'must not be empty'),
    maxCharacters(max),
    v.regex(/^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]*$/u, 'must hold no control, invisible formatting or line-separator characters'),
    v.regex(/[^\s]/u, 'must hold something visible'),
  );
