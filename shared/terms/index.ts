/**
 * Terms: a client's terms as immutable versions — rate bands by days to the event, a minimum
 * premium per currency, the merchant's commission and the look period — each in force from its
 * `effective_from`. Pricing under a version is pure (terms.ts); finance publishes versions, and a
 * policy keeps the version it was sold under.
 */
export {
  bandFor,
  commissionOn,
  daysToEvent,
  firstVersionOf,
  inForceAt,
  liveTermsOf,
  premiumUnder,
  termsView,
  rateBandsView,
  commissionRateView,
  EFFECTIVE_FROM_SLACK_MS,
  FIRST_TERMS_VERSION,
  MAX_BAND_DAYS,
  MAX_LOOK_PERIOD_DAYS,
  MAX_MINIMUM_CURRENCIES,
  MAX_RATE_BANDS,
  MAX_SCHEDULE_AHEAD_MS,
  type LiveTerms,
  type RateBand,
  type TermsVersion,
  type TermsView,
} from './terms.js';
export type { TermsHead, TermsStore } from './ports.js';
export { publishTerms, liveAfter, MAX_LIVE_VERSIONS, PUBLISH_ATTEMPTS, type PublishTermsDeps } from './publish-terms.js';
export { listTerms, type ListTermsDeps } from './list-terms.js';
export { previewTerms, PREVIEW_COST_UNITS, PREVIEW_DAYS } from './preview-terms.js';
export { cachedTermsVersions, TERMS_VERSION_CACHE_MS } from './cached-terms.js';
export { PublishTermsRequest } from './schemas.js';
