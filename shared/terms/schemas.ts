import * as v from 'valibot';
import { Currency, Instant } from '../platform/http/schemas.js';
import { maxItemCost, parseMoney, parseRate, type Minor } from '../platform/money/index.js';
import { MAX_BAND_DAYS, MAX_LOOK_PERIOD_DAYS, MAX_MINIMUM_CURRENCIES, MAX_RATE_BANDS, type RateBand } from './terms.js';

const RATE_MESSAGE = 'must be a decimal rate written as a string, above 0 and at most 1, with at most 6 decimals (such as "0.085")';
const COMMISSION_MESSAGE = 'must be a decimal rate written as a string, from 0 to 1, with at most 6 decimals (such as "0.15")';

/** A rate such as "0.085", held in ppm. */
const Rate = v.pipe(
  v.string(RATE_MESSAGE),
  v.maxLength(10, RATE_MESSAGE),
  v.check((text) => parseRate(text) !== undefined, RATE_MESSAGE),
  v.transform((text) => parseRate(text)!),
);
/** A commission rate: a rate, or "0" (a merchant that keeps nothing). */
const CommissionRate = v.pipe(
  v.string(COMMISSION_MESSAGE),
  v.maxLength(10, COMMISSION_MESSAGE),
  v.check((text) => /^0(\.0{1,6})?$/.test(text) || parseRate(text) !== undefined, COMMISSION_MESSAGE),
  v.transform((text) => (/^0(\.0{1,6})?$/.test(text) ? 0 : parseRate(text)!)),
);

const Band = v.strictObject({
  up_to_days: v.optional(
    v.pipe(
      v.number('must be a whole number of days'),
      v.integer('must be a whole number of days'),
      v.minValue(0),
      v.maxValue(MAX_BAND_DAYS, `must be at most ${MAX_BAND_DAYS}`),
    ),
  ),
  rate: Rate,
});

/** Bands rising strictly by `up_to_days`, the last one (and only it) without: every item falls in exactly one. */
const RateBands = v.pipe(
  v.array(Band, 'must be an array of rate bands'),
  v.minLength(1, 'must hold at least one band'),
  v.maxLength(MAX_RATE_BANDS, `must hold at most ${MAX_RATE_BANDS} bands`),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const bands = dataset.value;
    bands.forEach((band, index) => {
      const last = index === bands.length - 1;
      if (last && band.up_to_days !== undefined) {
        addIssue({ message: 'the last band must have no up_to_days: it takes the rest, and items without a date', path: bandPath(bands, index) });
      } else if (!last && band.up_to_days === undefined) {
        addIssue({ message: 'must be set on every band but the last', path: bandPath(bands, index) });
      } else if (index > 0 && band.up_to_days !== undefined && band.up_to_days <= bands[index - 1]!.up_to_days!) {
        addIssue({ message: `must be above the previous band's (${bands[index - 1]!.up_to_days})`, path: bandPath(bands, index) });
      }
    });
  }),
  v.transform((bands): RateBand[] => bands.map((band) => ({ ...(band.up_to_days === undefined ? {} : { up_to_days: band.up_to_days }), rate_ppm: band.rate }))),
);

/** The issue path `rate_bands[i].up_to_days` (shared/platform/http/validation.ts renders the keys), as itemList writes one. */
function bandPath(bands: { up_to_days?: number }[], index: number): [v.ArrayPathItem, v.ObjectPathItem] {
  return [
    { type: 'array', origin: 'value', input: bands, key: index, value: bands[index] },
    { type: 'object', origin: 'value', input: bands[index] as Record<string, unknown>, key: 'up_to_days', value: bands[index]?.up_to_days },
  ];
}

/** `{ "USD": "1.00", "JPY": "100" }`: each amount in its currency's digits, at most the currency's item limit. */
const MinimumPremium = v.pipe(
  // Not v.record: it skips the keys `__proto__`, `constructor` and `prototype` before any check, so
  // `{"constructor": "5.00"}` published terms with no minimum; every key the body holds is read here.
  v.custom<Record<string, unknown>>(
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
    'must be an object of amounts by currency',
  ),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const entries = Object.entries(dataset.value);
    if (entries.length > MAX_MINIMUM_CURRENCIES) {
      addIssue({ message: `must name at most ${MAX_MINIMUM_CURRENCIES} currencies` });
      return NEVER;
    }
    const minimums: Record<string, Minor> = {};
    for (const [key, text] of entries) {
      const currency = v.safeParse(Currency, key);
      if (!currency.success) {
        addIssue({ message: `${JSON.stringify(key.slice(0, 8))}: must be an ISO 4217 currency code with a minor unit, such as USD or JPY` });
        return NEVER;
      }
      const code = currency.output;
      if (typeof text !== 'string') {
        addIssue({ message: `${code}: must be a decimal amount written as a string` });
        return NEVER;
      }
      if (Object.hasOwn(minimums, code)) {
        addIssue({ message: `${code} is given twice` });
        return NEVER;
      }
      const parsed = parseMoney(text, code, maxItemCost(code));
      if ('problem' in parsed) {
        addIssue({ message: `${code}: ${parsed.problem}` });
        return NEVER;
      }
      minimums[code] = parsed.minor;
    }
    return minimums;
  }),
);

/** POST /api/v2/admin/clients/{id}/terms: read into the version's own fields (`commission_rate` becomes `commission_ppm`). */
export const PublishTermsRequest = v.pipe(
  v.strictObject({
    effective_from: v.optional(Instant),
    rate_bands: RateBands,
    minimum_premium: v.optional(MinimumPremium, {}),
    commission_rate: CommissionRate,
    look_period_days: v.pipe(
      v.number('must be a whole number of days'),
      v.integer('must be a whole number of days'),
      v.minValue(0, 'must be at least 0'),
      v.maxValue(MAX_LOOK_PERIOD_DAYS, `must be at most ${MAX_LOOK_PERIOD_DAYS}`),
    ),
  }),
  v.transform(({ commission_rate, ...rest }) => ({ ...rest, commission_ppm: commission_rate })),
);
export type PublishTermsRequest = v.InferOutput<typeof PublishTermsRequest>;
