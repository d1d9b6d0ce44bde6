import { formatRate } from '../platform/money/index.js';
import { termsInForce, type ClientSummary } from './client.js';
import { commissionRateView, rateBandsView } from '../terms/index.js';

/**
 * A client as staff see it: its state and the terms version in force, never a key or a secret's
 * hash. `rate` is that version's base rate (its last band's, for items without a date), beside
 * its bands and commission; the whole version is GET /api/v2/admin/clients/{id}/terms.
 */
export const clientSummaryView = ({ terms_live, rate_ppm, look_period_days, suspended, ...client }: ClientSummary, now: Date) => {
  const terms = termsInForce({ client_id: client.client_id, rate_ppm, look_period_days, created: client.created, ...(terms_live ? { terms_live } : {}) }, now);
  return {
    ...client,
    terms_version: terms.version,
    rate: formatRate(terms.rate_bands.at(-1)!.rate_ppm),
    rate_bands: rateBandsView(terms.rate_bands),
    commission_rate: commissionRateView(terms.commission_ppm),
    look_period_days: terms.look_period_days,
    suspended: suspended !== undefined,
  };
};
