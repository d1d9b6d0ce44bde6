import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { AppError } from '#shared/platform/errors.js';
import { routes } from '#shared/platform/functions.js';
import type { AuthorizerContext, StaffAuthorizerContext } from '#shared/platform/http/middleware.js';
import { SCOPE_PREFIX, type TokenClaims } from '#shared/platform/staff.js';

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
  /** The query string as the request spelled it (a repeated parameter stays repeated); else made from `query`. */
  rawQuery?: string;
  pathParameters?: Record<string, string>;
  clientId?: string;
  authError?: string;
  /** npm start's operator key (staff routes): a script named so, with the claims, finance and admin roles. */
  operator?: string;
  /** A verified staff access token's claims (staff routes): what API Gateway's JWT authorizer puts in `authorizer.jwt`. */
  staffClaims?: TokenClaims;
}

export type ApiEvent = APIGatewayProxyEventV2 & { requestContext: { authorizer?: { lambda?: AuthorizerContext; jwt?: StaffAuthorizerContext } } };

/** The roles npm start's operator key stands for: every staff role but a merchant's. */
export const OPERATOR_KEY_SCOPES = ['claims', 'finance', 'admin'].map((role) => `${SCOPE_PREFIX}${role}`);

/** The claims the operator key stands for: a script's access token of the staff issuer. */
export const operatorKeyClaims = (name: string): TokenClaims => ({
  sub: name,
  token_use: 'access',
  client_id: name,
  scope: OPERATOR_KEY_SCOPES.join(' '),
});

/**
 * Claims as API Gateway's JWT authorizer hands them to the function: a list claim (Cognito's
 * groups) becomes one string, `[a b]`; other values are kept.
 */
export function apiGatewayClaims(claims: TokenClaims): TokenClaims {
  return Object.fromEntries(Object.entries(claims).map(([name, value]) => [name, Array.isArray(value) ? `[${value.join(' ')}]` : value]));
}

const staffContext = (claims: TokenClaims): StaffAuthorizerContext => {
  const scopes = typeof claims.scope === 'string' ? claims.scope.split(' ').filter(Boolean) : [];
  return { claims: apiGatewayClaims(claims), scopes: scopes.length ? scopes : null };
};

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
    ? { jwt: staffContext(operatorKeyClaims(input.operator)) }
    : input.staffClaims
      ? { jwt: staffContext(input.staffClaims) }
      : input.clientId || input.authError
        ? { lambda: input.clientId ? { client_id: input.clientId } : { auth_error: input.authError } }
        : undefined;
  const query = input.rawQuery ?? new URLSearchParams(input.query ?? {}).toString();
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
