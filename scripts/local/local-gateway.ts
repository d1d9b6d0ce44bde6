import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError, NotFoundError, PayloadTooLargeError } from '#shared/platform/errors.js';
import { errorResponse } from '#shared/platform/http/envelope.js';
import { logger } from '#shared/platform/http/logger.js';
import { describeFailure, MAX_BODY_BYTES } from '#shared/platform/http/middleware.js';
import { routes, type FunctionName, type Route } from '#shared/platform/functions.js';
import { apiEvent, decodePath, matchRoute, type ApiEventInput } from './api-events.js';
import { staffIssuerFromEnv, staffTokenVerifier } from '#shared/identity/index.js';
import { asFunction } from './local-grants.js';

/**
 * What API Gateway does in front of the functions, for local runs: match the route, run the real
 * authorizer on merchant routes, verify the staff sign-in's access token on staff routes (as the
 * JWT authorizer does deployed, against the local OpenID Provider's keys) or take the operator
 * key, build the HTTP API v2 event, call the real handler, write its answer. There is no second
 * code path: the handlers are the ones deployed to Lambda.
 */
type LambdaHandler = (event: unknown, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;
type StaticAnswer = { status: number; headers: Record<string, string>; body: string };
export type StaticRoute = (req: IncomingMessage, body: string) => StaticAnswer | Promise<StaticAnswer>;

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'content-type,x-public-key',
  'access-control-allow-methods': 'POST,OPTIONS',
};

/** Whether `Authorization: Operator <key>` carries npm start's operator key (OPERATOR_KEY), compared in constant time. */
function isOperatorKey(authorization: string | undefined): boolean {
  const expected = process.env.OPERATOR_KEY;
  const given = /^Operator +(\S+)$/i.exec(authorization ?? '')?.[1];
  if (!expected || !given) return false;
  const [a, b] = [createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest()];
  return timingSafeEqual(a, b);
}

const BEARER = /^Bearer +([A-Za-z0-9_.-]+)$/i;
let staffVerifier: { issuer: string; verify: ReturnType<typeof staffTokenVerifier> } | undefined;
/** The staff token's claims when it verifies against STAFF_ISSUER's keys (npm start's OpenID Provider), else undefined. */
async function verifiedStaffClaims(authorization: string | undefined) {
  const token = BEARER.exec(authorization?.trim() ?? '')?.[1];
  const issuer = staffIssuerFromEnv();
  if (!token || !issuer) return undefined;
  if (staffVerifier?.issuer !== issuer.issuer) staffVerifier = { issuer: issuer.issuer, verify: staffTokenVerifier(issuer) };
  return staffVerifier.verify(token);
}

const handlers = new Map<FunctionName, Promise<LambdaHandler>>();
function loadHandler(name: FunctionName): Promise<LambdaHandler> {
  let loaded = handlers.get(name);
  if (!loaded) {
    loaded = import(`../../functions/${name}/handler.ts`).then((module: { handler: LambdaHandler }) => module.handler);
    handlers.set(name, loaded);
  }
  return loaded;
}

function lambdaContext(name: string, requestId: string): Context {
  return {
    awsRequestId: requestId,
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${name}`,
    memoryLimitInMB: '512',
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new PayloadTooLargeError(MAX_BODY_BYTES);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as API Gateway hands it on: text when it is UTF-8, else base64 (the handler refuses it). */
function eventBody(bytes: Buffer): { rawBody?: string; isBase64Encoded?: boolean } {
  if (bytes.length === 0) return {};
  try {
    return { rawBody: utf8.decode(bytes) };
  } catch {
    return { rawBody: bytes.toString('base64'), isBase64Encoded: true };
  }
}

function send(res: ServerResponse, result: APIGatewayProxyStructuredResultV2, extraHeaders: Record<string, string> = {}): void {
  const headers = { ...(result.headers as Record<string, string> | undefined), ...extraHeaders };
  res.writeHead(result.statusCode ?? 200, headers);
  res.end(result.body ?? '');
}

const headersOf = (req: IncomingMessage): Record<string, string> =>
  Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(',') : (value ?? '')]));

async function invoke(
  route: Route,
  req: IncomingMessage,
  url: URL,
  body: Buffer,
  requestId: string,
  pathParameters?: Record<string, string>,
): Promise<APIGatewayProxyStructuredResultV2> {
  const headers = headersOf(req);
  let authorizerAnswer: Pick<ApiEventInput, 'clientId' | 'authError' | 'operator' | 'staffClaims'> = {};
  // API Gateway's JWT authorizer, locally: the staff token verified against the local provider's
  // keys, or the operator key npm start printed (the scripts' stand-in); else no identity, and the handler answers 401.
  if (route.auth === 'staff') {
    if (isOperatorKey(headers.authorization)) authorizerAnswer = { operator: 'operator-key' };
    else {
      const claims = await verifiedStaffClaims(headers.authorization);
      if (claims) authorizerAnswer = { staffClaims: claims };
    }
  }
  if (route.auth === 'access-token') {
    // Loaded on first use, like the handlers: a function module may build its clients when it
    // loads, and the local server sets DYNAMODB_ENDPOINT only once DynamoDB Local answers.
    const { handler: authorizer } = await import('../../functions/authorizer/handler.js');
    const answer = await asFunction('authorizer', () => authorizer({ headers, routeKey: `${route.method} ${route.path}` }));
    if (!answer.isAuthorized) return { statusCode: 403, headers: { 'content-type': 'application/json' }, body: '{"message":"Forbidden"}' };
    authorizerAnswer = { clientId: answer.context.client_id, authError: answer.context.auth_error };
  }
  const event = apiEvent({
    method: route.method,
    path: url.pathname,
    ...eventBody(body),
    headers,
    asSent: true,
    query: url.searchParams.size ? queryStringParameters(url.searchParams) : undefined,
    rawQuery: url.search.slice(1),
    pathParameters,
    ...authorizerAnswer,
  });
  event.requestContext.requestId = requestId;
  const handler = await loadHandler(route.function);
  return asFunction(route.function, () => handler(event, lambdaContext(route.function, requestId)));
}

/** The query as API Gateway's 2.0 payload gives it: a parameter given more than once, its values joined with commas. */
function queryStringParameters(params: URLSearchParams): Record<string, string> {
  const query = new Map<string, string>(); // a Map: a parameter named __proto__ or constructor is only a name
  for (const [name, value] of params) query.set(name, query.has(name) ? `${query.get(name)},${value}` : value);
  return Object.fromEntries(query);
}

/** The request listener of the local server. `staticRoutes` serve the widget and demo pages. */
export function localGateway(staticRoutes: Record<string, StaticRoute> = {}) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const requestId = randomUUID();
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    try {
      decodePath(url.pathname);
      const match = matchRoute(method, url.pathname);
      const route = match && routes.find((r) => `${r.method} ${r.path}` === match.routeKey);
      if (route) {
        const body = await readBody(req);
        send(res, await invoke(route, req, url, body, requestId, match.pathParameters), route.cors ? CORS : {});
        return;
      }
      const corsRoute = routes.find((r) => r.cors && matchRoute(r.method, url.pathname));
      if (method === 'OPTIONS' && corsRoute) {
        send(res, { statusCode: 204, headers: { ...CORS, 'access-control-max-age': '600' }, body: '' });
        return;
      }
      // A page answers with and without a trailing slash, as the API routes do; HEAD as GET without
      // the body (Node sends none for HEAD), as the deployed pages' CloudFront and S3 do.
      const pageMethod = method === 'HEAD' ? 'GET' : method;
      const page = staticRoutes[`${pageMethod} ${url.pathname}`] ?? staticRoutes[`${pageMethod} ${url.pathname.replace(/(.)\/$/, '$1')}`];
      if (page) {
        const answer = await page(req, (await readBody(req)).toString('utf8'));
        send(res, { statusCode: answer.status, headers: answer.headers, body: answer.body });
        return;
      }
      // A known path with another method: 405 with the methods it takes (HTTP's Allow).
      const allowed = [...new Set(routes.filter((r) => matchRoute(r.method, url.pathname)).map((r) => r.method))];
      if (allowed.length > 0) {
        const refused = errorResponse(
          new AppError(405, 'invalid_request_error', 'method_not_allowed', `${method} is not allowed on ${url.pathname}; it takes ${allowed.join(', ')}.`),
          requestId,
        );
        send(res, { ...refused, headers: { ...refused.headers, allow: allowed.join(', ') } });
        return;
      }
      throw new NotFoundError('route_not_found', `No route for ${method} ${url.pathname}.`);
    } catch (err) {
      // The client went away mid-request: nobody to answer, nothing went wrong here.
      if (req.destroyed && (err as NodeJS.ErrnoException).code === 'ECONNRESET') {
        res.destroy();
        return;
      }
      // As the handlers log it: a message may quote the request (a JSON parser's does), so it is redacted.
      if (!(err instanceof AppError)) logger.error('request failed', { request_id: requestId, status: 500, error: describeFailure(err) });
      // A body left unread (413) would be read as the next request on this connection: close it.
      if (!res.headersSent) send(res, errorResponse(err, requestId), err instanceof PayloadTooLargeError ? { connection: 'close' } : {});
      else res.end();
    }
  };
}

/**
 * Requests Node's HTTP parser refuses before any route sees them (headers over its limit, broken
 * framing) still get the error envelope, then the connection is closed.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const error =
    status === 431
      ? new AppError(431, 'invalid_request_error', 'headers_too_large', 'The request headers are too large.')
      : new AppError(400, 'invalid_request_error', 'malformed_request', 'The request is not valid HTTP/1.1.');
  const body = errorResponse(error, randomUUID()).body ?? '';
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
