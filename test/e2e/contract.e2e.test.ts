import { describe, expect, it } from 'vitest';
import { contractViolation } from '../support/contract.js';

/**
 * Every HTTP answer in the e2e and security suites, and every handler answer in the integration
 * suites, passes through `assertContract` (test/support/http.ts, test/support/service.ts). This
 * file proves the checker itself can fail.
 */
describe('the contract checker', () => {
  const envelope = { error: { type: 'invalid_request_error', code: 'validation_failed', message: 'm', param: 'items', request_id: 'r' } };

  it('accepts a documented answer', () => {
    expect(contractViolation('POST', '/api/v2/orders/', 422, JSON.stringify(envelope))).toBeUndefined();
    expect(contractViolation('POST', '/api/v2/orders', 204, '')).toBeUndefined();
  });

  it('refuses an undocumented status, a body where none belongs, and a body off its schema', () => {
    expect(contractViolation('GET', '/api/v2/orders/x', 418, '')).toMatch(/documents no 418/);
    expect(contractViolation('POST', '/api/v2/orders', 204, '{}')).toMatch(/no body/);
    expect(contractViolation('POST', '/api/v2/orders', 422, JSON.stringify({ error: { ...envelope.error, leaked: 'stack' } }))).toMatch(
      /additional properties/,
    );
    expect(contractViolation('POST', '/api/v2/quotes', 201, JSON.stringify({ quote_id: 'qt_1' }))).toMatch(/required property/);
  });
});
