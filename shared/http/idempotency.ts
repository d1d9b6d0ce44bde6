import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { createHash } from 'node:crypto';
import { AppError, ConflictError, ValidationError } from '../errors.js';
import { errorResponse } from './envelope.js';
import { clientIdOf, type HttpEvent, type RequestInfo } from './middleware.js';

/**
 * Idempotency-Key (api.md "Idempotency"): per client, 24 h. The first request with a key claims it;
 * a repeat with the same body replays the stored response (`Idempotent-Replayed: true`), with another
 * body is 422 `idempotency_key_reused`, and while the first still runs is 409 `request_in_progress`.
 * Validation failures (422) and server errors are not stored: the key is released so a corrected
 * request, or a retry after a crash, can run. Without the header nothing extra happens.
 */
export interface StoredResponse { statusCode: number; headers: Record<string, string>; body: string }

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'completed'; fingerprint: string; response: StoredResponse }
  | { kind: 'in_progress'; fingerprint: string };

export interface IdempotencyStore {
  /** Claims the key unless a live record holds it; otherwise returns that record. */
  claim(clientId: string, key: string, fingerprint: string, now: Date): Promise<Claim>;
  complete(clientId: string, key: string, fingerprint: string, response: StoredResponse, now: Date): Promise<void>;
  release(clientId: string, key: string): Promise<void>;
}

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** Same route, same path, same JSON (key order ignored) → same fingerprint. */
export function fingerprintOf(event: HttpEvent): string {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value) ? value.map(canonical)
      : value && typeof value === 'object' ? Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]))
        : value;
  return createHash('sha256').update(`${event.requestContext.http?.method} ${event.rawPath}\n${JSON.stringify(canonical(event.body) ?? null)}`).digest('base64url');
}

type Response = APIGatewayProxyStructuredResultV2;

export async function idempotent(store: IdempotencyStore, event: HttpEvent, info: RequestInfo, run: () => Promise<Response>, now = () => new Date()): Promise<Response> {
  const key = event.headers['idempotency-key'];
  if (key === undefined) return run();
  if (!KEY_PATTERN.test(key)) {
    throw new ValidationError('Idempotency-Key must be 1 to 255 visible ASCII characters.', 'Idempotency-Key', 'invalid_idempotency_key');
  }
  const clientId = clientIdOf(info);
  const fingerprint = fingerprintOf(event);
  const claim = await store.claim(clientId, key, fingerprint, now());
  if (claim.kind !== 'claimed') {
    if (claim.fingerprint !== fingerprint) {
      throw new ValidationError('This Idempotency-Key was already used with another request body.', 'Idempotency-Key', 'idempotency_key_reused');
    }
    if (claim.kind === 'in_progress') {
      throw new ConflictError('request_in_progress', 'A request with this Idempotency-Key is still being processed; retry shortly.', 'Idempotency-Key');
    }
    return { ...claim.response, headers: { ...claim.response.headers, 'idempotent-replayed': 'true' } };
  }

  let response: Response;
  try {
    response = await run();
  } catch (err) {
    if (!(err instanceof AppError) || err.status >= 500 || err instanceof ValidationError) {
      await store.release(clientId, key);
      throw err;
    }
    response = errorResponse(err, info.requestId); // a 404 or 409 is the answer to this request: keep it
  }
  await store.complete(clientId, key, fingerprint, {
    statusCode: response.statusCode ?? 200,
    headers: Object.fromEntries(Object.entries(response.headers ?? {}).map(([name, value]) => [name, String(value)])),
    body: response.body ?? '',
  }, now());
  return response;
}
