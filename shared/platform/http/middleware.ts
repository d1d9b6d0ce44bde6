import type { ErrorCode } from '../error-catalogue.js';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy, { type MiddlewareObj } from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { AppError, AuthenticationError, ForbiddenError, PayloadTooLargeError, TimedOutError, ValidationError } from '../errors.js';
import { errorResponse, NO_STORE } from './envelope.js';
import { parseJsonBody } from './json-body.js';
import { logger } from './logger.js';
import { countMetric, metrics } from './metrics.js';
import { IDEMPOTENT_ROUTES } from './idempotent-routes.js';
import { QUERY_ROUTES } from './query-routes.js';
import { ForbiddenRoleError, requireRole, staffFromClaims, type StaffIdentity, type StaffRole, type TokenClaims } from '../staff.js';

export const MAX_BODY_BYTES = 256 * 1024;
/** Middy answers this long before Lambda's timeout, so the answer and its log line leave in time. */
export const TIMEOUT_EARLY_MS = 50;

/** What the authorizer hands to handlers (API Gateway simple-response context). */
export interface AuthorizerContext {
  client_id?: string;
  auth_error?: string;
}

export type HttpEvent = Omit<APIGatewayProxyEventV2, 'body'> & {
  body?: unknown;
  requestContext: APIGatewayProxyEventV2['requestContext'] & { authorizer?: { lambda?: AuthorizerContext; jwt?: StaffAuthorizerContext } };
};

/**
 * What API Gateway's JWT authorizer hands a staff route: the access token's claims (a list claim
 * as one string, `[a b]`) and scopes. Locally npm start's gateway verifies the token the same way
 * and hands on the same (the operator key: a script's claims with every staff role).
 */
export interface StaffAuthorizerContext {
  claims: TokenClaims;
  scopes?: string[] | null;
}

export interface RequestInfo {
  requestId: string;
  clientId?: string;
  /** Who is signed in, on staff routes. */
  staff?: StaffIdentity;
}

/** The calling client of an `authenticated` handler (the middleware has already checked it). */
export function clientIdOf(info: RequestInfo): string {
  if (!info.clientId) throw new AuthenticationError('invalid_token', 'A valid access token is required.');
  return info.clientId;
}
export type HttpHandler = (event: HttpEvent, info: RequestInfo) => Promise<APIGatewayProxyStructuredResultV2>;

export interface HttpHandlerOptions {
  /**
   * Parse a JSON body (415 for other types, 400 for malformed JSON, 413 over the limit);
   * `optional`: a request may also come without one (the handler then sees `body` undefined).
   */
  jsonBody?: boolean | 'optional';
  /** Require the authorizer's client id; without it answer 401. */
  authenticated?: boolean;
  /** A staff route: require a signed-in identity with one of these roles (401 without one, 403 `forbidden_role` with others). */
  staff?: readonly StaffRole[];
}

/** Text that looks like an e-mail address or a long number (phone, card) is blanked out. */
const redact = (text: string): string => text.replace(/[^\s@"'<>]+@[^\s@"'<>]+/g, '[redacted]').replace(/\+?\d[\d ().-]{5,}\d/g, '[redacted]');

export function describeFailure(error: unknown) {
  if (!(error instanceof Error)) return { name: typeof error };
  const frames = (error.stack ?? '').split('\n').filter((line) => line.trimStart().startsWith('at '));
  return { name: error.name, message: redact(error.message), stack: frames.slice(0, 8).join('\n') };
}

/** Per-request state lives on the context, never in middleware closures (requests may overlap locally). */
type LambdaContext = Context & { info?: RequestInfo; startedAt?: number };

const requestIdOf = (event: Pick<APIGatewayProxyEventV2, 'requestContext'>): string => event.requestContext?.requestId || randomUUID();

/** Request id, Cache-Control, one log line per request, and the error envelope for everything thrown below. */
function requestLifecycle(): MiddlewareObj<HttpEvent, APIGatewayProxyStructuredResultV2, Error, LambdaContext> {
  const finish = (request: { event: HttpEvent; response?: APIGatewayProxyStructuredResultV2 | null; context: LambdaContext }, error?: unknown) => {
    const requestId = request.context.info?.requestId ?? requestIdOf(request.event);
    const response = error === undefined ? (request.response ?? { statusCode: 204 }) : errorResponse(error, requestId);
    // No answer of the API is for a cache (tokens, secrets, claims' text, every client's own data): no-store, unless a route says otherwise.
    response.headers = { 'cache-control': NO_STORE, ...response.headers, 'x-request-id': requestId };
    request.response = response;
    // Keys go on each line, not on the shared logger: the local server runs requests concurrently.
    const clientId = request.context.info?.clientId;
    const fields = {
      request_id: requestId,
      ...(clientId ? { client_id: clientId } : {}),
      status: response.statusCode,
      route: request.event.routeKey,
      duration_ms: Date.now() - (request.context.startedAt ?? Date.now()),
    };
    if (error !== undefined && !(error instanceof AppError)) {
      // The cause goes to the log, redacted (a driver's message may quote request data); the caller sees only the envelope.
      logger.error('request failed', { ...fields, error: describeFailure(error) });
    } else {
      logger.info('request', { ...fields, ...(error instanceof AppError ? { error_code: error.code } : {}) });
    }
    if (error !== undefined) countMetric('Errors', 1, { code: error instanceof AppError ? error.code : 'internal_error' });
  };
  return {
    before: (request) => {
      request.context.startedAt = Date.now();
      const requestId = requestIdOf(request.event);
      request.context.info = { requestId };
    },
    after: (request) => finish(request),
    onError: (request) => finish(request, request.error),
  };
}

function bodyLimit(): MiddlewareObj<HttpEvent> {
  return {
    before: ({ event }) => {
      if (typeof event.body === 'string') {
        const bytes = event.isBase64Encoded ? Math.floor((event.body.length * 3) / 4) : Buffer.byteLength(event.body);
        if (bytes > MAX_BODY_BYTES) throw new PayloadTooLargeError(MAX_BODY_BYTES);
      }
    },
  };
}

/** The body as JSON under the house body rules (shared/platform/http/json-body.ts). */
function jsonBody(optional: boolean): MiddlewareObj<HttpEvent> {
  return {
    before: ({ event }) => {
      if (optional && (event.body === undefined || event.body === '')) {
        event.body = undefined;
        return;
      }
      if (typeof event.body !== 'string' || event.body === '') throw new ValidationError('The request body is required.');
      const body = parseJsonBody(event.headers['content-type'], event.body, event.isBase64Encoded);
      // Every body of the API is an object; valibot's object schemas would take an array for one.
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ValidationError('The request body must be a JSON object.');
      event.body = body;
      event.isBase64Encoded = false;
    },
  };
}

/** The authorizer's `auth_error`s that get a code of their own; any other is `invalid_token`. */
const REFUSALS: Record<string, [code: ErrorCode, message: string]> = {
  expired: ['token_expired', 'The access token has expired.'],
  revoked: ['token_revoked', 'The access token has been revoked (secret rotated or client disabled); request a new one.'],
};

function authenticated(): MiddlewareObj<HttpEvent, APIGatewayProxyStructuredResultV2, Error, LambdaContext> {
  return {
    before: (request) => {
      const auth = request.event.requestContext.authorizer?.lambda;
      if (!auth?.client_id) {
        if (auth?.auth_error === 'client_disabled')
          throw new ForbiddenError('client_disabled', "This shop's account is disabled, so its people cannot use the portal; the insurer can enable it again.");
        if (auth?.auth_error === 'forbidden_role')
          throw new ForbiddenRoleError(
            ['merchant'],
            "This sign-in cannot call this route: a merchant user's sign-in reaches the portal's routes only (conversion, statements, the ledger, webhooks), and staff sign-ins no merchant route; the others take the client's access token.",
          );
        const [code, message] = REFUSALS[auth?.auth_error ?? ''] ?? [
          'invalid_token',
          "A valid access token is required: Authorization: JWT <token> (on the portal's routes, a merchant user's sign-in: Authorization: Bearer <token>; sign in again when it has expired).",
        ];
        throw new AuthenticationError(code, message);
      }
      if (request.context.info) request.context.info.clientId = auth.client_id;
    },
  };
}

/** Staff routes: the JWT authorizer's claims (or, locally, the gateway's check of the same token or the operator key), then the role. */
function staff(roles: readonly StaffRole[]): MiddlewareObj<HttpEvent, APIGatewayProxyStructuredResultV2, Error, LambdaContext> {
  return {
    before: (request) => {
      const identity = requireRole(staffFromClaims(request.event.requestContext.authorizer?.jwt?.claims), roles);
      if (request.context.info) request.context.info.staff = identity;
    },
  };
}

/** Who called a `staff` handler (the middleware has already checked the role). */
export function staffOf(info: RequestInfo): StaffIdentity {
  return requireRole(info.staff, info.staff?.roles ?? []);
}

/**
 * Wraps a handler in the house middleware stack:
 * metrics (flushed after the request) → request lifecycle (request id, log line, error envelope) →
 * header normalizer → auth → body limit → JSON parser → no Idempotency-Key or query parameter the route does not take.
 */
export function httpHandler(handler: HttpHandler, options: HttpHandlerOptions = {}) {
  // Before Lambda ends a slow request, Middy answers for it: 503 `timed_out` (retrying with the same Idempotency-Key is safe), not 500.
  const chain = middy<HttpEvent, APIGatewayProxyStructuredResultV2, Error, LambdaContext>({
    timeoutEarlyInMillis: TIMEOUT_EARLY_MS,
    timeoutEarlyResponse: () => {
      throw new TimedOutError();
    },
  })
    .use(logMetrics(metrics, { captureColdStartMetric: true }) as MiddlewareObj<HttpEvent>)
    .use(requestLifecycle())
    .use(httpHeaderNormalizer() as MiddlewareObj<HttpEvent>);
  if (options.authenticated) chain.use(authenticated());
  if (options.staff) chain.use(staff(options.staff));
  if (options.jsonBody) chain.use(bodyLimit()).use(jsonBody(options.jsonBody === 'optional'));
  return chain.handler((event, context) => {
    refuseInputsNotTaken(event);
    return handler(event, context.info ?? { requestId: requestIdOf(event) });
  });
}

/**
 * An Idempotency-Key where the route takes none (IDEMPOTENT_ROUTES) is 422, and the query string's
 * shape is checked, after the auth and body checks (each route's schema reads the values):
 * a parameter on a route that takes none (QUERY_ROUTES) is 422 naming it, as the routes that take
 * some refuse a name they do not know; so is a parameter without a name, or one given twice (API
 * Gateway joins the values with commas, which would answer a filter nobody sent).
 */
function refuseInputsNotTaken(event: HttpEvent): void {
  const route = event.routeKey.endsWith('/') ? event.routeKey.slice(0, -1) : event.routeKey;
  // A read is safe to retry as it is: the header means nothing there, and a client that sends it on every request keeps working.
  if (event.headers['idempotency-key'] !== undefined && !route.startsWith('GET ') && !IDEMPOTENT_ROUTES.has(route))
    throw new ValidationError(
      'This route takes no Idempotency-Key: its writes are not replayed, so a retry is not made safe by one (read what exists before sending it again).',
      'Idempotency-Key',
      'idempotency_key_not_supported',
    );
  const query = event.queryStringParameters;
  if (!query) return;
  const names = Object.keys(query);
  if (names.length === 0) return;
  if (names.includes('')) throw new ValidationError('A query parameter has no name.');
  if (!QUERY_ROUTES.has(route)) throw new ValidationError(`${names[0]} is not a known field: this route takes no query parameters.`, names[0]);
  const seen = new Set<string>();
  for (const [name] of new URLSearchParams(event.rawQueryString ?? '')) {
    if (seen.has(name)) throw new ValidationError(`${name} is given more than once: a query parameter takes one value.`, name);
    seen.add(name);
  }
}
