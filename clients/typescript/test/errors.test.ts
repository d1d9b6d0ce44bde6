import { describe, expect, it } from 'vitest';
import { OrderProtectionError } from '../src/index.js';

describe('OrderProtectionError.from', () => {
  it('reads the error envelope, the request id and Retry-After', () => {
    const body = {
      error: { type: 'rate_limit_error', code: 'too_many_failed_attempts', message: 'Too many.', param: 'public_key', request_id: 'req-1' },
    };
    const response = new Response(null, { status: 429, headers: { 'retry-after': '300', 'x-request-id': 'req-1' } });

    const error = OrderProtectionError.from(response, body);

    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'OrderProtectionError',
      status: 429,
      type: 'rate_limit_error',
      code: 'too_many_failed_attempts',
      message: 'Too many.',
      param: 'public_key',
      requestId: 'req-1',
      retryAfter: 300,
    });
  });

  it("types an answer that is not the envelope (a gateway's own) by its status", () => {
    const throttled = OrderProtectionError.from(new Response(null, { status: 429 }), { message: 'Too Many Requests' });
    const badGateway = OrderProtectionError.from(new Response(null, { status: 502, headers: { 'x-request-id': 'req-2' } }), '<html>');

    expect(throttled).toMatchObject({ type: 'rate_limit_error', code: 'unexpected_response', message: 'HTTP 429: Too Many Requests', retryAfter: undefined });
    expect(badGateway).toMatchObject({ type: 'api_error', code: 'unexpected_response', requestId: 'req-2', param: undefined });
  });
});
