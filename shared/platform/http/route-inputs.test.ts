import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { QUERY_ROUTES } from './query-routes.js';
import { IDEMPOTENT_ROUTES } from './idempotent-routes.js';
import { httpHandler } from './middleware.js';
import { apiEvent } from '../../../scripts/local/api-events.js';
import type { Context } from 'aws-lambda';

type Operation = { parameters?: { $ref?: string; in?: string }[]; responses?: unknown };
const openapi = parse(readFileSync(new URL('../../../openapi.yaml', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, Operation> & { parameters?: Operation['parameters'] }>;
  components: { parameters?: Record<string, { in: string }> };
};
const resolved = (parameter: { $ref?: string; in?: string }) =>
  parameter.$ref ? openapi.components.parameters?.[parameter.$ref.split('/').at(-1)!] : parameter;

describe('routes and their query parameters', () => {
  it('QUERY_ROUTES are exactly the operations openapi.yaml gives a query parameter', () => {
    const declared = Object.entries(openapi.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => typeof operation === 'object' && operation !== null && 'responses' in operation)
        .filter(([, operation]) => [...(item.parameters ?? []), ...((operation as Operation).parameters ?? [])].some((p) => resolved(p)?.in === 'query'))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect([...QUERY_ROUTES].sort()).toEqual(declared.sort());
  });

  it('IDEMPOTENT_ROUTES are exactly the operations openapi.yaml gives the Idempotency-Key header', () => {
    const declared = Object.entries(openapi.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => typeof operation === 'object' && operation !== null && 'responses' in operation)
        .filter(([, operation]) =>
          [...(item.parameters ?? []), ...((operation as Operation).parameters ?? [])].some(
            (p) => resolved(p)?.in === 'header' && /^idempotency-key$/i.test((resolved(p) as { name?: string }).name ?? ''),
          ),
        )
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect([...IDEMPOTENT_ROUTES].sort()).toEqual(declared.sort());
  });

  const context = { awsRequestId: 'test', getRemainingTimeInMillis: () => 30_000 } as unknown as Context;
  const handler = httpHandler(async () => ({ statusCode: 200, body: '{}' }));

  it('refuses a query parameter on a route that takes none (422 naming it), with or without a trailing slash', async () => {
    for (const routeKey of ['GET /api/v2/webhook_endpoints', 'GET /api/v2/webhook_endpoints/']) {
      const event = { ...apiEvent({ method: 'GET', path: '/api/v2/webhook_endpoints' }), routeKey, queryStringParameters: { client_id: 'cl_other' } };
      const answer = await handler(event, context);
      expect(answer.statusCode, routeKey).toBe(422);
      expect(JSON.parse(answer.body!).error).toMatchObject({
        code: 'validation_failed',
        param: 'client_id',
        message: 'client_id is not a known field: this route takes no query parameters.',
      });
    }
    expect((await handler(apiEvent({ method: 'GET', path: '/api/v2/webhook_endpoints' }), context)).statusCode).toBe(200);
  });

  it('refuses a parameter given twice (API Gateway would join its values) and one without a name, on any route', async () => {
    const asked = (rawQueryString: string, queryStringParameters: Record<string, string>) =>
      handler({ ...apiEvent({ method: 'GET', path: '/api/v2/orders' }), rawQueryString, queryStringParameters }, context);
    const twice = await asked('order_number=A&order_number=B', { order_number: 'A,B' });
    expect([twice.statusCode, JSON.parse(twice.body!).error.param, JSON.parse(twice.body!).error.message]).toEqual([
      422,
      'order_number',
      'order_number is given more than once: a query parameter takes one value.',
    ]);
    const nameless = await asked('=1', { '': '1' });
    expect([nameless.statusCode, JSON.parse(nameless.body!).error.message]).toEqual([422, 'A query parameter has no name.']);
    expect((await asked('order_number=A%2CB&limit=5', { order_number: 'A,B', limit: '5' })).statusCode).toBe(200); // a comma of its own
  });

  it('refuses an Idempotency-Key on a write that is not replayed (422), leaves it to the routes that replay, and lets a read ignore it', async () => {
    const keyed = (method: 'POST' | 'PATCH', path: string) =>
      handler({ ...apiEvent({ method, path, body: {} }), headers: { 'content-type': 'application/json', 'idempotency-key': 'k-1' } }, context);
    const endpoint = await keyed('POST', '/api/v2/webhook_endpoints');
    expect([endpoint.statusCode, JSON.parse(endpoint.body!).error.code, JSON.parse(endpoint.body!).error.param]).toEqual([
      422,
      'idempotency_key_not_supported',
      'Idempotency-Key',
    ]);
    expect((await keyed('POST', '/api/v2/orders')).statusCode).toBe(200);
    // A read ignores it: safe to retry as it is (a client that sends the header on every request keeps working).
    const read = await handler({ ...apiEvent({ method: 'GET', path: '/api/v2/webhook_endpoints' }), headers: { 'idempotency-key': 'k-1' } }, context);
    expect(read.statusCode).toBe(200);
    expect((await keyed('PATCH', '/api/v2/orders/ord_1')).statusCode).toBe(200);
  });

  it('leaves a route that takes query parameters to its own schema', async () => {
    for (const routeKey of ['GET /api/v2/orders', 'GET /api/v2/orders/']) {
      const answer = await handler({ ...apiEvent({ method: 'GET', path: '/api/v2/orders' }), routeKey, queryStringParameters: { limit: '5' } }, context);
      expect(answer.statusCode, routeKey).toBe(200);
    }
  });
});
