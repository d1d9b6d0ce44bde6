/**
 * The routes that take an Idempotency-Key (each replays its first answer: shared/platform/http/idempotency.ts).
 * Every other write refuses the header (422 idempotency_key_not_supported) rather than ignore it (a
 * GET, safe to retry as it is, ignores it): a
 * retried `POST /webhook_endpoints` under one key made two endpoints with two secrets, while the
 * caller believed the retry safe. openapi.yaml declares the header on the same set (route-inputs.test.ts).
 */
export const IDEMPOTENT_ROUTES: ReadonlySet<string> = new Set([
  'POST /api/v2/orders',
  'PATCH /api/v2/orders/{id}',
  'POST /api/v2/orders/{id}/cancel',
  'PUT /api/v2/policies/{policy_number}/cancel',
  'POST /api/v2/policies/{policy_number}/cancel',
  'POST /api/v2/policies/{policy_number}/void',
  'POST /api/v2/cancellations/{id}/confirm',
  'POST /api/v2/test_helpers/orders/{id}/advance',
  'POST /api/v2/admin/clients/{id}/terms',
]);
