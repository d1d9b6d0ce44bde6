/**
 * The routes that take query parameters, each reading them against a strict schema of its own
 * (an unknown name is 422 there). Every other route takes none, and the middleware refuses any it
 * is sent (422 naming it) rather than ignoring it: `GET /statements/2026-11?client_id=…` must not
 * answer the caller's own statement as if the filter applied. openapi.yaml declares the same set
 * (route-inputs.test.ts holds them equal).
 */
export const QUERY_ROUTES: ReadonlySet<string> = new Set([
  'GET /api/v2/quotes/decode',
  'GET /api/v2/quote/decode',
  'GET /api/v2/orders',
  'GET /api/v2/policies',
  'GET /api/v2/ledger',
  'GET /api/v2/metrics/conversion',
  'GET /api/v2/events',
  'GET /api/v2/claims/eligibility',
  'GET /api/v2/admin/claims',
  'GET /api/v2/admin/bordereaux',
  'GET /api/v2/admin/clients',
  'GET /api/v2/admin/clients/{id}/terms',
  'POST /api/v2/admin/clients/{id}/terms/preview',
  'GET /api/v2/admin/clients/{id}/remittances',
  'GET /api/v2/admin/audit',
  'GET /api/v2/admin/staff',
]);
