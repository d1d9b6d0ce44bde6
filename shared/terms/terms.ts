import { formatMoney, formatRate, premiumFor, type Minor, type RatePpm } from '../platform/money/index.js';

/**
 * A client's terms: immutable versions, each in force from its `effective_from` until the next
 * version's. A policy keeps the version it was sold under (`terms_version`), so nothing sold is
 * ever repriced. Rates and the commission rate are held in parts per million, amounts in the
 * currency's minor units; the API writes them as decimal strings (api.md, "Terms as versioned
 * contracts").
 */
export interface RateBand {
  /** The band holds items whose event starts at most this many whole days after the sale; the last band has none. */
  up_to_days?: number;
  rate_ppm: RatePpm;
}

export interface TermsVersion {
  client_id: string;
  version: number;
  /** ISO instant from which quotes and orders without a quote price under this version. */
  effective_from: string;
  /** Ordered by `up_to_days`, strictly rising; the last band has no `up_to_days` and takes the rest and items without a date. */
  rate_bands: RateBand[];
  /** Per currency, the least premium of one item, in minor units. */
  minimum_premium: Record<string, Minor>;
  /** The merchant's share of each premium, in ppm (0 to 1,000,000). */
  commission_ppm: number;
  look_period_days: number;
  created: string;
  /** Who published it: a person's sub and e-mail, or the script that did (`migration`, `client-cli`). */
  created_by: { sub: string; email: string | null };
}

/** A version as the client's records keep it for pricing: without who published it. */
export type LiveTerms = Omit<TermsVersion, 'created' | 'created_by'>;
export const liveTermsOf = ({ created: _created, created_by: _by, ...terms }: TermsVersion): LiveTerms => terms;

/** At most this many rate bands in a version: enough for a season's price steps, small enough to seal and cache. */
export const MAX_RATE_BANDS = 8;
/** A band's `up_to_days` is at most this: ten years ahead. */
export const MAX_BAND_DAYS = 3_650;
/** At most this many currencies carry a minimum premium in one version. */
export const MAX_MINIMUM_CURRENCIES = 32;
/** The first version of every client's terms (made from its rate and look period by `npm run migrate` or at creation). */
export const FIRST_TERMS_VERSION = 1;
/**
 * How far in the past a publish may date its `effective_from` and still count as "now": the
 * console sends the time the person pressed Publish, which is a few seconds old when it lands.
 */
export const EFFECTIVE_FROM_SLACK_MS = 60_000;
/** A version may be scheduled at most this far ahead: a year. */
export const MAX_SCHEDULE_AHEAD_MS = 366 * 86_400_000;

const DAY_MS = 86_400_000;
/** A look period (the void window) is 0 to this many whole days. */
export const MAX_LOOK_PERIOD_DAYS = 60;

/**
 * Whole days from the sale to the event's start: the calendar days between the sale's UTC date and
 * the event's `start_date` (its local date: the event's time zone is not known). An event that has
 * started, or starts the same day, is 0 days away; an item without a date has none.
 */
export function daysToEvent(soldAt: Date, startDate: string | undefined): number | undefined {
  if (startDate === undefined) return undefined;
  const sold = Date.UTC(soldAt.getUTCFullYear(), soldAt.getUTCMonth(), soldAt.getUTCDate());
  const start = Date.parse(`${startDate}T00:00:00Z`);
  return Math.max(0, Math.round((start - sold) / DAY_MS));
}

/** The band an item falls in: the first whose `up_to_days` holds its days; the last band for an item without a date. */
export function bandFor(terms: Pick<TermsVersion, 'rate_bands'>, days: number | undefined): RateBand {
  const bands = terms.rate_bands;
  if (days !== undefined) {
    for (const band of bands) if (band.up_to_days !== undefined && days <= band.up_to_days) return band;
  }
  return bands[bands.length - 1]!;
}

/**
 * An item's premium under a version: cost × its band's rate, half-up at the minor unit, never below
 * the currency's minimum nor one minor unit (no cover is sold for nothing: a 0.05 item at 8.5 %
 * rounded to 0.00), and never above the item's cost (a minimum larger than a cheap item's price
 * does not make its protection cost more than the item). An item that costs nothing has no premium.
 */
export function premiumUnder(terms: Pick<TermsVersion, 'rate_bands' | 'minimum_premium'>, cost: Minor, currency: string, days: number | undefined): Minor {
  if (cost <= 0) return 0;
  const premium = premiumFor(cost, bandFor(terms, days).rate_ppm);
  const minimum = Object.hasOwn(terms.minimum_premium, currency) ? terms.minimum_premium[currency]! : 0;
  return Math.min(Math.max(premium, minimum, 1), cost);
}

/** The merchant's commission on a premium: premium × commission rate, half-up at the minor unit; never above the premium. */
export const commissionOn = (premium: Minor, commissionPpm: number): Minor => (premium <= 0 || commissionPpm <= 0 ? 0 : premiumFor(premium, commissionPpm));

/**
 * The version in force at `at`: of those whose `effective_from` has come, the one that came last
 * (of two taking effect at the same instant, the later published). So a version published to take
 * effect now replaces the one in force while one scheduled earlier still waits for its time.
 */
export function inForceAt<T extends Pick<TermsVersion, 'version' | 'effective_from'>>(versions: readonly T[], at: Date): T | undefined {
  const now = at.toISOString();
  let found: T | undefined;
  for (const version of versions) {
    if (version.effective_from > now) continue;
    if (!found || version.effective_from > found.effective_from || (version.effective_from === found.effective_from && version.version > found.version))
      found = version;
  }
  return found;
}

/** Version 1 of a client that had one flat rate and a look period: one band, no minimum, no commission, in force since the client's creation. */
export function firstVersionOf(
  client: { client_id: string; rate_ppm: RatePpm; look_period_days: number; created: string },
  by: TermsVersion['created_by'],
  now: Date,
): TermsVersion {
  return {
    client_id: client.client_id,
    version: FIRST_TERMS_VERSION,
    effective_from: client.created,
    rate_bands: [{ rate_ppm: client.rate_ppm }],
    minimum_premium: {},
    commission_ppm: 0,
    look_period_days: Math.min(client.look_period_days, MAX_LOOK_PERIOD_DAYS),
    created: now.toISOString(),
    created_by: by,
  };
}

/** A version's bands as the API answers them: rates as decimal strings. */
export const rateBandsView = (bands: TermsVersion['rate_bands']) =>
  bands.map((band) => ({ ...(band.up_to_days === undefined ? {} : { up_to_days: band.up_to_days }), rate: formatRate(band.rate_ppm) }));
/** A commission as the API answers it: a decimal string ("0" for none). */
export const commissionRateView = (ppm: TermsVersion['commission_ppm']): string => (ppm === 0 ? '0' : formatRate(ppm));

/** A version as the API answers it: rates as decimal strings, amounts in their currency's digits. */
export function termsView(terms: TermsVersion) {
  return {
    version: terms.version,
    effective_from: terms.effective_from,
    rate_bands: rateBandsView(terms.rate_bands),
    minimum_premium: Object.fromEntries(Object.entries(terms.minimum_premium).map(([currency, minor]) => [currency, formatMoney(minor, currency)])),
    commission_rate: commissionRateView(terms.commission_ppm),
    look_period_days: terms.look_period_days,
    created: terms.created,
    created_by: terms.created_by.email ?? terms.created_by.sub,
  };
}
export type TermsView = ReturnType<typeof termsView>;
