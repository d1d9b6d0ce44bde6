import type { components } from './schema.generated.js';

type Envelope = components['schemas']['Error'];
export type ErrorType = Envelope['error']['type'];

/**
 * A non-2xx answer, read from the API's one error envelope (docs/errors.md lists every `code`).
 * Branch on `status` and `code`; `message` is for people.
 */
export class OrderProtectionError extends Error {
  override readonly name = 'OrderProtectionError';

  constructor(
    readonly status: number,
    readonly type: ErrorType,
    readonly code: string,
    message: string,
    /** The field, header or policy at fault, when there is one. */
    readonly param: string | undefined,
    /** The request's id, as the service logged it (the envelope's `request_id`, else the `x-request-id` header). */
    readonly requestId: string | undefined,
    /** Seconds to wait before trying again (429's `Retry-After`). */
    readonly retryAfter: number | undefined,
  ) {
    super(message);
  }

  /** The error a non-2xx `response` with the (already parsed) `body` stands for. */
  static from(response: Response, body: unknown): OrderProtectionError {
    const retryAfter = response.headers.has('retry-after') ? Number(response.headers.get('retry-after')) : undefined;
    const headerId = response.headers.get('x-request-id') ?? undefined;
    if (isEnvelope(body)) {
      const { type, code, message, param, request_id } = body.error;
      return new OrderProtectionError(response.status, type, code, message, param, request_id ?? headerId, retryAfter);
    }
    // Not the envelope: a gateway's own answer (API Gateway's throttling, a proxy's 502).
    const type: ErrorType = response.status === 429 ? 'rate_limit_error' : response.status >= 500 ? 'api_error' : 'invalid_request_error';
    const said = typeof body === 'string' ? body : typeof body === 'object' && body !== null && 'message' in body ? String(body.message) : '';
    const message = `HTTP ${response.status}${said ? `: ${said.slice(0, 200)}` : ''}`;
    return new OrderProtectionError(response.status, type, 'unexpected_response', message, undefined, headerId, retryAfter);
  }
}

const TYPES: readonly string[] = ['invalid_request_error', 'authentication_error', 'rate_limit_error', 'api_error'] satisfies ErrorType[];

function isEnvelope(body: unknown): body is Envelope {
  if (typeof body !== 'object' || body === null || !('error' in body)) return false;
  const { error } = body;
  return (
    typeof error === 'object' &&
    error !== null &&
    'type' in error &&
    typeof error.type === 'string' &&
    TYPES.includes(error.type) &&
    'code' in error &&
    typeof error.code === 'string' &&
    'message' in error &&
    typeof error.message === 'string'
  );
}
