import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { AppError } from '#shared/platform/errors.js';
import { routes } from '#shared/platform/functions.js';
import type { AuthorizerContext, OperatorIdentity } from '#shared/platform/http/middleware.js';

/**
 * API Gateway HTTP API (payload 2.0) events, as API Gateway builds them. The route key and path
 * parameters come from the route table; `clientId` / `authError` stand for the authorizer's answer.
 */
export interface ApiEventInput {
  method: string;
  path: string;
  body?: unknown;
  /** Sent as is when a string (e.g. malformed JSON); otherwise JSON-encoded. */
  rawBody?: string;
  /** rawBody holds base64 of bytes that are not UTF-8 text, as API Gateway passes such a body. */
  isBase64Encoded?: boolean;
  /**
   * The headers exactly as a client sent them (the local gateway). Otherwise, for tests, a body
   * comes with `Content-Type: application/json` unless the headers say otherwise.
   */
  asSent?: boolean;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  pathParameters?: Record<string, string>;
  clientId?: string;
  authError?: string;
  /** An IAM-authorized caller (operator routes): what API Gateway puts in `authorizer.iam`. */
  operator?: string;
}

export type ApiEvent = APIGatewayProxyEventV2 & { requestContext: { authorizer?: { lambda?: AuthorizerContext; iam?: OperatorIdentity } } };

/** A path or path parameter, percent-decoded; a malformed escape is 400, as API Gateway answers it. */
export function decodePath(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new AppError(400, 'invalid_request_error', 'invalid_path', 'The path holds a malformed percent-encoded character.');
  }
}

/** The route a method and path match, with its path parameters (trailing slash optional). */
export function matchRoute(method: string, path: string): { routeKey: string; pathParameters?: Record<string, string> } | undefined {
  const trimmed = path.length > 1 ? path.replace(/\/$/, '') : path;
  for (const route of routes) {
    if (route.method !== method) continue;
    const names: string[] = [];
    const pattern = new RegExp(
      `^${route.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
        names.push(name);
        return '([^/]+)';
      })}$`,
    );
    const match = pattern.exec(trimmed);
    if (match) {
      const pathParameters = names.length ? Object.fromEntries(names.map((name, i) => [name, decodePath(match[i + 1] ?? '')])) : undefined;
      return { routeKey: `${route.method} ${route.path}`, pathParameters };
    }
  }
  return undefined;
}

export function apiEvent(input: ApiEventInput): ApiEvent {
  const route = matchRoute(input.method, input.path);
  const body = input.rawBody ?? (input.body === undefined ? undefined : JSON.stringify(input.body));
  const headers = { ...(body === undefined || input.asSent ? {} : { 'content-type': 'application/json' }), ...input.headers };
  const authorizer = input.operator
    ? { iam: { userArn: `arn:aws:iam::000000000000:user/${input.operator}`, callerId: input.operator } }
    : input.clientId || input.authError
      ? { lambda: input.clientId ? { client_id: input.clientId } : { auth_error: input.authError } }
      : undefined;
  const query = new URLSearchParams(input.query ?? {}).toString();
  return {
    version: '2.0',
    routeKey: route?.routeKey ?? '$default',
    rawPath: input.path,
    rawQueryString: query,
    headers,
    queryStringParameters: input.query,
    pathParameters: input.pathParameters ?? route?.pathParameters,
    body,
    isBase64Encoded: input.isBase64Encoded ?? false,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      requestId: randomUUID(),
      routeKey: route?.routeKey ?? '$default',
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
      http: { method: input.method, path: input.path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
      ...(authorizer ? { authorizer } : {}),
    },
  };
}
