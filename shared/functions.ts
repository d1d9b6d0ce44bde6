/**
 * The route table of the API, read by the CDK stack (`lib/`) and by the local server
 * (`scripts/local-server.ts`), so the deployed and the local API always expose the same routes.
 * Every path is served with and without a trailing slash.
 */
export type FunctionName =
  | 'auth-token'
  | 'quotes-create'
  | 'orders-create'
  | 'orders-read'
  | 'orders-change'
  | 'metrics-conversion';

export interface RouteDefinition {
  method: 'GET' | 'POST' | 'PATCH';
  /** API Gateway path syntax, without trailing slash. */
  path: string;
  function: FunctionName;
  /** `access-token`: behind the JWT authorizer. `public-key` / `none`: no authorizer. */
  auth: 'access-token' | 'public-key' | 'none';
  /** Browser-facing routes answer CORS preflights. */
  cors?: boolean;
}

export const routes: readonly RouteDefinition[] = [
  { method: 'POST', path: '/api/v2/auth/token', function: 'auth-token', auth: 'none' },
  { method: 'POST', path: '/api/v2/quotes', function: 'quotes-create', auth: 'public-key', cors: true },
  { method: 'POST', path: '/api/v2/orders', function: 'orders-create', auth: 'access-token' },
  { method: 'GET', path: '/api/v2/orders/{id}', function: 'orders-read', auth: 'access-token' },
  { method: 'PATCH', path: '/api/v2/orders/{id}', function: 'orders-change', auth: 'access-token' },
  { method: 'GET', path: '/api/v2/metrics/conversion', function: 'metrics-conversion', auth: 'access-token' },
];
