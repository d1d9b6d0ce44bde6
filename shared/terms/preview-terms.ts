import { ConflictError, NotFoundError } from '../platform/errors.js';
import { formatMoney, formatRate, minorUnit, premiumFor, type Minor } from '../platform/money/index.js';
import type { TermsStore } from './ports.js';
import type { PublishTermsRequest } from './schemas.js';
import { effectiveFrom } from './publish-terms.js';
import { bandFor, commissionOn, inForceAt, premiumUnder, type LiveTerms } from './terms.js';

/** The sample items a preview prices: one ticket of 100 in the currency, its event this many whole days after the sale (none: no date). */
export const PREVIEW_DAYS: readonly (number | undefined)[] = [1, 7, 30, 90, undefined];
/** A sample ticket's cost, in the currency's major units. */
export const PREVIEW_COST_UNITS = 100;

/** What set the premium: the band's rate, the currency's minimum (or one minor unit), or the cost itself (a premium never exceeds it). */
type PricedBy = 'rate' | 'minimum' | 'cost';
type Priced = { rate: string; premium: string; commission: string; priced_by: PricedBy };

const priced = (
  terms: Pick<LiveTerms, 'rate_bands' | 'minimum_premium' | 'commission_ppm'>,
  cost: Minor,
  currency: string,
  days: number | undefined,
): Priced => {
  const premium = premiumUnder(terms, cost, currency, days);
  const ratePpm = bandFor(terms, days).rate_ppm;
  return {
    rate: formatRate(ratePpm),
    premium: formatMoney(premium, currency),
    commission: formatMoney(commissionOn(premium, terms.commission_ppm), currency),
    priced_by: premium === premiumFor(cost, ratePpm) ? 'rate' : premium === cost ? 'cost' : 'minimum',
  };
};

/**
 * POST /api/v2/admin/clients/{id}/terms/preview: what a version would do before finance publishes
 * it. Sample tickets (PREVIEW_COST_UNITS in `currency`, events PREVIEW_DAYS away) priced under the
 * version in force and under the proposed one, by the same rules quotes use; nothing is written.
 */
export async function previewTerms(
  deps: { store: Pick<TermsStore, 'head'> },
  clientId: string,
  request: PublishTermsRequest,
  currency: string,
  now: Date,
): Promise<{ currency: string; in_force: number; samples: { days_to_event: number | null; cost: string; in_force: Priced; proposed: Priced }[] }> {
  // The same time rules as a publish (now or later, at most a year ahead): a preview refuses what a publish would.
  effectiveFrom(request.effective_from, now);
  const head = await deps.store.head(clientId);
  if (!head) throw new NotFoundError('client_not_found', 'No client has this id.', 'id');
  const current = inForceAt(head.live, now);
  if (!current) throw new ConflictError('terms_not_migrated', "This client's terms have no first version yet: run `npm run migrate` once after deploying.");
  const proposed = { rate_bands: request.rate_bands, minimum_premium: request.minimum_premium, commission_ppm: request.commission_ppm };
  const cost = PREVIEW_COST_UNITS * 10 ** (minorUnit(currency) ?? 2);
  return {
    currency,
    in_force: current.version,
    samples: PREVIEW_DAYS.map((days) => ({
      days_to_event: days ?? null,
      cost: formatMoney(cost, currency),
      in_force: priced(current, cost, currency, days),
      proposed: priced(proposed, cost, currency, days),
    })),
  };
}
