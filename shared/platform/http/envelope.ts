import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { AppError, InternalError, NotEligibleError, RateLimitError } from '../errors.js';
import { sdkFault } from '../dynamo/transactions.js';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' } as const;
/** Every API answer's Cache-Control (the middleware's default; error answers carry it wherever they are made, the local gateway's too). */
export const NO_STORE = 'no-store';

/** Renders any thrown value as the error envelope: a database call's throttling 429, its unknown outcome 503, anything else unknown a bare 500. */
export function errorResponse(error: unknown, requestId: string): APIGatewayProxyStructuredResultV2 {
  const app = error instanceof AppError ? error : (sdkFault(error) ?? new InternalError());
  const body = {
    error: {
      type: app.type,
      code: app.code,
      message: app.message,
      ...(app.param === undefined ? {} : { param: app.param }),
      ...(app instanceof NotEligibleError ? { failed_checks: app.failedChecks } : {}),
      request_id: requestId,
    },
  };
  const retryAfter: Record<string, string> =
    app instanceof RateLimitError && app.retryAfterSeconds !== undefined ? { 'retry-after': String(app.retryAfterSeconds) } : {};
  return {
    statusCode: app.status,
    headers: { ...JSON_HEADERS, 'cache-control': NO_STORE, 'x-request-id': requestId, ...retryAfter },
    body: JSON.stringify(body),
  };
}

export function jsonResponse(statusCode: number, body: unknown, headers: Record<string, string> = {}): APIGatewayProxyStructuredResultV2 {
  return { statusCode, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) };
}

export function emptyResponse(statusCode = 204): APIGatewayProxyStructuredResultV2 {
  return { statusCode, headers: {}, body: '' };
}
