import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { apiEvent } from '../../../scripts/local/api-events.js';
import { ConflictError } from '../errors.js';
import { emptyResponse, jsonResponse } from './envelope.js';
import { httpHandler, type HttpHandler } from './middleware.js';

/**
 * Issue 35.7: every answer of the API is `Cache-Control: no-store` unless its route says otherwise,
 * set on the one response path every handler goes through (a claim session's bearer token, a
 * webhook endpoint's secret, a claim's health text were cacheable by any proxy or browser).
 */
const context = () => ({ awsRequestId: 'unit', functionName: 'unit', getRemainingTimeInMillis: () => 10_000 }) as unknown as Context;
const answer = async (handler: HttpHandler, options: Parameters<typeof httpHandler>[1] = {}) =>
  await httpHandler(handler, options)(apiEvent({ method: 'POST', path: '/api/v2/anything', body: { a: 1 } }), context());

describe('the response path', () => {
  it('answers Cache-Control: no-store on a JSON answer, an empty one, an AppError, an unexpected failure and a refused body', async () => {
    const answers = [
      await answer(async () => jsonResponse(201, { claim_token: 'secret' })),
      await answer(async () => emptyResponse(204)),
      await answer(async () => {
        throw new ConflictError('claim_open', 'A claim is open.');
      }),
      await answer(async () => {
        throw new Error('boom');
      }),
      await answer(async () => jsonResponse(200, {}), { authenticated: true }),
    ];
    expect(answers.map((res) => res.statusCode)).toEqual([201, 204, 409, 500, 401]);
    for (const res of answers) expect(res.headers?.['cache-control'], String(res.statusCode)).toBe('no-store');
  });

  it('tells a caller without a valid token both ways in: a client’s JWT, and a merchant user’s Bearer sign-in on the portal’s routes', async () => {
    const res = await answer(async () => jsonResponse(200, {}), { authenticated: true });
    expect(JSON.parse(res.body!).error).toMatchObject({ code: 'invalid_token', message: expect.stringContaining('Authorization: JWT <token>') });
    expect(JSON.parse(res.body!).error.message).toContain('Authorization: Bearer <token>');
  });

  it('keeps a route’s own Cache-Control (one that deliberately caches)', async () => {
    const res = await answer(async () => jsonResponse(200, {}, { 'cache-control': 'public, max-age=60' }));
    expect(res.headers?.['cache-control']).toBe('public, max-age=60');
  });
});

describe('a request Lambda is about to end', () => {
  it('answers 503 timed_out in the envelope (retry with the same Idempotency-Key), not 500, before the function is killed', async () => {
    // 200 ms left: Middy answers TIMEOUT_EARLY_MS before that, while the handler still waits on its write.
    const short = { awsRequestId: 'unit', functionName: 'unit', getRemainingTimeInMillis: () => 200 } as unknown as Context;
    let release: () => void = () => {};
    const slow: HttpHandler = () => new Promise((resolve) => (release = () => resolve(jsonResponse(201, {}))));
    const res = await httpHandler(slow)(apiEvent({ method: 'POST', path: '/api/v2/orders', body: { a: 1 } }), short);
    release();
    expect(res.statusCode).toBe(503);
    expect(JSON.parse(res.body!)).toMatchObject({ error: { type: 'api_error', code: 'timed_out' } });
    expect(res.headers).toMatchObject({ 'cache-control': 'no-store' });
  });
});
