import type { ErrorCode } from './error-catalogue.js';

/**
 * The one error taxonomy of the service. Every non-2xx answer is an AppError (or becomes an
 * InternalError) and is rendered into the envelope by `errorResponse` in `shared/platform/http/envelope.ts`.
 */
export type ErrorType = 'invalid_request_error' | 'authentication_error' | 'rate_limit_error' | 'api_error';

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400: the body is not parseable JSON. */
export class MalformedRequestError extends AppError {
  constructor(message = 'The request body is not valid JSON.', code: ErrorCode = 'invalid_json') {
    super(400, 'invalid_request_error', code, message);
  }
}

/** 401: missing, invalid or expired access token; unknown key or wrong secret. */
export class AuthenticationError extends AppError {
  constructor(code: ErrorCode = 'invalid_credentials', message = 'The credentials are missing, invalid or expired.') {
    super(401, 'authentication_error', code, message);
  }
}

/** 404: never 403, so that the existence of another client's resource is not revealed. */
export class NotFoundError extends AppError {
  constructor(code: ErrorCode, message = 'No such resource.', param?: string) {
    super(404, 'invalid_request_error', code, message, param);
  }
}

/** 409: the request conflicts with the current state. */
export class ConflictError extends AppError {
  constructor(code: ErrorCode, message: string, param?: string) {
    super(409, 'invalid_request_error', code, message, param);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(limitBytes: number) {
    super(413, 'invalid_request_error', 'payload_too_large', `The request body exceeds ${limitBytes} bytes.`);
  }
}

export class UnsupportedMediaTypeError extends AppError {
  constructor() {
    super(415, 'invalid_request_error', 'unsupported_media_type', 'The request body must be JSON (Content-Type: application/json).');
  }
}

/** 403: allowed to no one with this credential (a test helper called with live keys). */
export class ForbiddenError extends AppError {
  constructor(code: ErrorCode, message: string) {
    super(403, 'invalid_request_error', code, message);
  }
}

/** 422: well-formed but invalid. */
export class ValidationError extends AppError {
  constructor(message: string, param?: string, code: ErrorCode = 'validation_failed') {
    super(422, 'invalid_request_error', code, message, param);
  }
}

/** 422 claim_not_eligible: the checks that failed, as the eligibility check names them (`failed_checks` in the envelope). */
export class NotEligibleError extends AppError {
  constructor(
    readonly failedChecks: readonly string[],
    message: string,
    param?: string,
  ) {
    super(422, 'invalid_request_error', 'claim_not_eligible', message, param);
  }
}

/** 429; `retryAfterSeconds` becomes a Retry-After header when known. */
export class RateLimitError extends AppError {
  constructor(
    code: ErrorCode = 'rate_limited',
    message = 'Too many requests; retry later.',
    readonly retryAfterSeconds?: number,
  ) {
    super(429, 'rate_limit_error', code, message);
  }
}

/** 5xx: the message is fixed; internals never reach the caller. */
export class InternalError extends AppError {
  constructor() {
    super(500, 'api_error', 'internal_error', 'Something went wrong on our side; it has been logged.');
  }
}

/**
 * 503: Lambda was about to end the function before it answered (Middy's early timeout). A write it
 * started may have committed, so this is not "our fault, nothing happened" (500) but "unknown":
 * retrying with the same Idempotency-Key is safe.
 */
export class TimedOutError extends AppError {
  constructor() {
    super(
      503,
      'api_error',
      'timed_out',
      'The request ran out of time before it was answered: it may or may not have taken effect. Retry with the same Idempotency-Key, or read the resource first.',
    );
  }
}

/**
 * 503: a call to the database failed in a way that says nothing of whether it wrote (a network
 * error, a lost answer, the service's own 5xx). Not "our fault, nothing happened" (500): retrying
 * with the same Idempotency-Key is safe, and gives the first answer if the write had committed.
 */
export class UnavailableError extends AppError {
  constructor() {
    super(
      503,
      'api_error',
      'service_unavailable',
      'A call to our database failed: the request may or may not have taken effect. Retry with the same Idempotency-Key, or read the resource first.',
    );
  }
}

/**
 * Not an answer but a signal to the use case: a write planned on records read before was refused
 * (`stale`: they moved since; or a named condition failed on one of them). The use case plans again
 * or answers the client error it means.
 */
export type RejectionReason = 'stale' | 'policy_not_issued' | 'item_not_found' | 'reference_exists';

export class ChangeRejectedError extends Error {
  constructor(
    readonly reason: RejectionReason,
    readonly index?: number,
  ) {
    super(`change rejected: ${reason}${index === undefined ? '' : ` (items[${index}])`}`);
  }
}
