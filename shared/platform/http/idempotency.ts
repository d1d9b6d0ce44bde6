import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { createHash } from 'node:crypto';
import type { IdempotencyReceipt, IdempotencyStore, OrderReplay, StoredAnswer } from '../idempotency-receipts.js';
import { AppError, ConflictError, ValidationError } from '../errors.js';
import { errorResponse } from './envelope.js';
import { logger } from './logger.js';
import { clientIdOf, type HttpEvent, type RequestInfo } from './middleware.js';

/**
 * Idempotency-Key (docs/api.md "Limits and idempotency"): per client, 24 h. The first request with a key claims it;
 * a repeat with the same request replays the first answer (`Idempotent-Replayed: true`), with
 * another body is 422 `idempotency_key_reused`, and while the first still runs is 409
 * `request_in_progress`. A write that commits carries its receipt in the same transaction (see
 * IdempotencyReceipt), so a committed write is never answered, first or on replay, with an error.
 * Validation failures (422) and server errors are not kept: the key is released so a corrected
 * request, or a retry after a crash, can run. Without the header nothing extra happens.
 */
type Response = APIGatewayProxyStructuredResultV2;

/** Rebuilds the answer of a committed write from its receipt (`null`: the answer had no body). */
export type Replayer = (replay: OrderReplay | null, clientId: string) => Promise<Response>;

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * Same route, same path parameters, same JSON (key order ignored) → same fingerprint. The route
 * and its parameters, not the raw path: `/orders/{id}` and `/orders/{id}/` are the same request.
 */
function fingerprintOf(event: HttpEvent): string {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
          )
        : value;
  const request = [event.routeKey, canonical(event.pathParameters ?? {}), canonical(event.body) ?? null];
  return createHash('sha256').update(JSON.stringify(request)).digest('base64url');
}

const asAnswer = (response: Response): StoredAnswer => ({
  statusCode: response.statusCode ?? 200,
  headers: Object.fromEntries(Object.entries(response.headers ?? {}).map(([name, value]) => [name, String(value)])),
  body: response.body ?? '',
});

/**
 * 409s that describe a passing state, not the request: the same request may succeed once it has
 * passed (a concurrent change, an open claim decided or withdrawn), so they are never kept.
 */
export const PASSING_CONFLICTS: ReadonlySet<string> = new Set(['order_busy', 'conflict', 'claim_open']);

/** Whether an error is this request's answer for good: a 404, or a 409 no later state changes (policy_not_issued, order_exists…). */
const isLastingAnswer = (err: unknown): err is AppError =>
  err instanceof AppError && (err.status === 404 || (err.status === 409 && !PASSING_CONFLICTS.has(err.code)));

const replayed = (response: Response): Response => ({ ...response, headers: { ...response.headers, 'idempotent-replayed': 'true' } });

/** Tries of keeping an answer (a throttled or lost write of the record is tried again). */
const COMPLETE_ATTEMPTS = 3;

async function keepAnswer(store: IdempotencyStore, receipt: IdempotencyReceipt, answer: StoredAnswer, requestId: string): Promise<void> {
  for (let attempt = 1; attempt <= COMPLETE_ATTEMPTS; attempt++) {
    try {
      await store.complete(receipt, answer);
      return;
    } catch (err) {
      // The answer stands: a later request with the key finds the claim, and once its lock lapses runs again.
      if (attempt === COMPLETE_ATTEMPTS) logger.warn('idempotency record not completed', { request_id: requestId, error: (err as Error).name });
      else await new Promise((resolve) => setTimeout(resolve, 10 * attempt));
    }
  }
}

export async function idempotent(
  store: IdempotencyStore,
  event: HttpEvent,
  info: RequestInfo,
  run: (receipt?: IdempotencyReceipt) => Promise<Response>,
  /** For routes whose writes carry receipts; the others keep their answers whole. */
  replay?: Replayer,
  now = () => new Date(),
): Promise<Response> {
  const key = event.headers['idempotency-key'];
  if (key === undefined) return run();
  if (!KEY_PATTERN.test(key)) {
    throw new ValidationError('Idempotency-Key must be 1 to 255 visible ASCII characters.', 'Idempotency-Key', 'invalid_idempotency_key');
  }
  // A merchant's keys are its client's; a staff member's (a publish of terms) are theirs alone.
  const clientId = info.clientId === undefined && info.staff ? `staff:${info.staff.sub}` : clientIdOf(info);
  const fingerprint = fingerprintOf(event);
  const claim = await store.claim(clientId, key, fingerprint, now());
  if (claim.kind !== 'claimed') {
    if (claim.fingerprint !== fingerprint) {
      throw new ValidationError('This Idempotency-Key was already used with another request.', 'Idempotency-Key', 'idempotency_key_reused');
    }
    if (claim.kind === 'in_progress') {
      throw new ConflictError('request_in_progress', 'A request with this Idempotency-Key is still being processed; retry shortly.', 'Idempotency-Key');
    }
    if (claim.answer) return replayed(claim.answer);
    if (!replay) throw new Error('an idempotency receipt on a route that keeps answers whole');
    return replayed(await replay(claim.replay ?? null, clientId));
  }

  const receipt: IdempotencyReceipt = { clientId, key, fingerprint, now: now() };
  let response: Response;
  try {
    response = await run(receipt);
  } catch (err) {
    if (!isLastingAnswer(err)) {
      await store.release(clientId, key);
      throw err;
    }
    response = errorResponse(err, info.requestId); // a 404 or a lasting 409 is the answer to this request: keep it
  }
  if (!receipt.committed) await keepAnswer(store, receipt, asAnswer(response), info.requestId);
  return response;
}
