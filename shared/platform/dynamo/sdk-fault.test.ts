import { describe, expect, it } from 'vitest';
import { errorResponse } from '../http/envelope.js';
import { sdkFault } from './transactions.js';

const sdkError = (name: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(name), { name, $metadata: {}, ...extra });

describe('an AWS SDK failure, as the answer it means', () => {
  it('throttling is 429 rate_limited; an unknown outcome is 503 service_unavailable; never a 500', () => {
    expect(sdkFault(sdkError('ThrottlingException'))?.code).toBe('rate_limited');
    expect(sdkFault(sdkError('ProvisionedThroughputExceededException'))?.code).toBe('rate_limited');
    expect(sdkFault(sdkError('TimeoutError'))?.code).toBe('service_unavailable');
    expect(sdkFault(sdkError('Error', { code: 'ECONNRESET' }))?.code).toBe('service_unavailable');
    expect(sdkFault(sdkError('InternalServerError', { $metadata: { httpStatusCode: 500 } }))?.code).toBe('service_unavailable');
    expect(errorResponse(sdkError('TimeoutError'), 'r').statusCode).toBe(503);
  });

  it('anything else stays unknown: a bare 500', () => {
    expect(sdkFault(new TypeError('x is undefined'))).toBeUndefined();
    expect(sdkFault('text')).toBeUndefined();
    expect(errorResponse(new TypeError('x'), 'r').statusCode).toBe(500);
  });
});
