import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { ChangeRejectedError } from '../errors.js';
import { ConflictError, RateLimitError, UnavailableError, ValidationError, type AppError } from '../errors.js';

/** A write's refusals as plain exceptions (a single-item write's, or a transaction's refused whole), by the cancellation reason each stands for. */
const REFUSALS: Record<string, string> = {
  ProvisionedThroughputExceededException: 'ProvisionedThroughputExceeded',
  ThrottlingException: 'ThrottlingError',
  RequestLimitExceeded: 'RequestLimitExceeded',
  TransactionConflictException: 'TransactionConflict',
  ValidationException: 'ValidationError',
  ItemCollectionSizeLimitExceededException: 'ItemCollectionSizeLimitExceeded',
};

/**
 * Reading TransactWriteItems cancellations. DynamoDB gives one reason per action, in order:
 * `None`, `ConditionalCheckFailed`, `TransactionConflict` (another transaction held an item), …
 * A transaction DynamoDB refuses whole, before any action runs, is answered with a plain
 * exception instead: an index's sort key past 1,024 bytes is a ValidationException ("Size limit
 * exceeded"), throttling after the SDK's retries a ThrottlingException. Those read as the one
 * reason a cancellation would give, so every caller answers them as it answers the cancellation
 * (422 `not_storable`, 429), never with a 500.
 */
export function cancellationCodes(err: unknown): string[] | undefined {
  if (err instanceof TransactionCanceledException) return (err.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');
  const code = REFUSALS[(err as Error | undefined)?.name ?? ''];
  return code ? [code] : undefined;
}

/** True when the only trouble was a concurrent transaction on the same items: worth a retry. */
export const isOnlyConflict = (codes: readonly string[]): boolean =>
  codes.includes('TransactionConflict') && codes.every((code) => code === 'None' || code === 'TransactionConflict');

/** Tries of a transaction that only conflicts with concurrent ones cancel, the first included; the last cancellation is then the caller's to read. */
export const MAX_CONFLICT_ATTEMPTS = 10;
/** The most a retry waits, per attempt made so far (the wait is a random part of it). */
const CONFLICT_JITTER_MS = 10;

/**
 * Runs a transaction, retrying (with jitter) while it is cancelled only by conflicts with
 * concurrent transactions, at most `attempts` tries in all. Other cancellations and errors, and
 * the last conflict, are the caller's to read.
 */
export async function retryOnConflict<T>(run: () => Promise<T>, attempts = MAX_CONFLICT_ATTEMPTS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      const codes = cancellationCodes(err);
      if (!codes || !isOnlyConflict(codes) || attempt >= attempts) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * CONFLICT_JITTER_MS * attempt));
    }
  }
}

const THROTTLED = new Set(['ThrottlingError', 'ProvisionedThroughputExceeded', 'RequestLimitExceeded']);

/**
 * A cancellation the caller had no specific answer for, as the client error it is: nothing was
 * written, and the request may be retried (conflict, throttling) or must change (validation).
 * Never a 500: a cancelled transaction is a refused request, not a fault.
 */
export function cancellationError(codes: readonly string[]): AppError {
  if (codes.some((code) => THROTTLED.has(code))) return new RateLimitError();
  if (codes.includes('ValidationError')) {
    return new ValidationError('The request holds a value that cannot be stored (too large or malformed); nothing was written.', undefined, 'not_storable');
  }
  return new ConflictError('conflict', 'The request conflicts with a concurrent change; nothing was written. Retry it.');
}

/**
 * A single-item write's refusal (after the SDK's own retries), answered as the same refusal inside
 * a transaction would be; undefined for anything else (a fault: the caller rethrows it).
 */
export function singleWriteError(err: unknown): AppError | undefined {
  const code = REFUSALS[(err as Error | undefined)?.name ?? ''];
  return code ? cancellationError([code]) : undefined;
}

/**
 * A conditional write's answer, or undefined when DynamoDB refused it because its condition did
 * not hold (the item moved, or is gone): for the writes whose refusal is an answer, not a fault.
 */
export async function unlessConditionFails<T>(write: Promise<T>): Promise<T | undefined> {
  try {
    return await write;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return undefined;
    throw err;
  }
}

/** The first action's condition failed: the usual refusal of a transaction that guards one record. */
const firstConditionFailed = (codes: readonly string[]): boolean => codes[0] === 'ConditionalCheckFailed';

/**
 * A transaction whose refusal is an answer, not a fault (a limit reached, a record already there,
 * a version moved): true when written, false when `refused` reads the cancellation so (by default:
 * the first action's condition failed). Retried while only concurrent transactions cancel it; any
 * other cancellation is the client error it is.
 */
export async function transactUnlessRefused(
  doc: DynamoDBDocumentClient,
  TransactItems: NonNullable<TransactWriteCommandInput['TransactItems']>,
  refused: (codes: readonly string[]) => boolean = firstConditionFailed,
): Promise<boolean> {
  try {
    await retryOnConflict(() => doc.send(new TransactWriteCommand({ TransactItems })));
    return true;
  } catch (err) {
    const codes = cancellationCodes(err);
    if (!codes) throw err;
    if (refused(codes)) return false;
    throw cancellationError(codes);
  }
}

/**
 * A transaction over records read before (an order, its items): when a condition no longer holds
 * or a concurrent transaction held a record, what was read is stale, and the use case reads again
 * and plans anew (ChangeRejectedError 'stale'); any other cancellation is the client error it is.
 */
export async function transactUnlessStale(doc: DynamoDBDocumentClient, TransactItems: NonNullable<TransactWriteCommandInput['TransactItems']>): Promise<void> {
  try {
    await doc.send(new TransactWriteCommand({ TransactItems }));
  } catch (err) {
    const codes = cancellationCodes(err);
    if (!codes) throw err;
    if (isOnlyConflict(codes) || codes.includes('ConditionalCheckFailed')) throw new ChangeRejectedError('stale');
    throw cancellationError(codes);
  }
}

/** Errors of an AWS SDK call that say nothing of whether it wrote: the network, a timeout, the service's own 5xx. */
const UNKNOWN_OUTCOME = new Set([
  'TimeoutError',
  'NetworkingError',
  'RequestTimeout',
  'InternalServerError',
  'ServiceUnavailable',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
]);

/**
 * An AWS SDK failure (after the SDK's own retries) as the answer it means, undefined for anything
 * else: throttling is 429 `rate_limited` (nothing was written), an unknown outcome 503
 * `service_unavailable` (retry with the same Idempotency-Key). Never a 500: a retry can mend both.
 */
export function sdkFault(err: unknown): AppError | undefined {
  if (!(err instanceof Error)) return undefined;
  // Already read so (a transaction throttled whole reads as its cancellation: cancellationCodes).
  if (err instanceof RateLimitError || err instanceof UnavailableError) return err;
  const refused = singleWriteError(err);
  if (refused instanceof RateLimitError) return refused;
  const code = (err as { code?: unknown }).code;
  const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  if (UNKNOWN_OUTCOME.has(err.name) || (typeof code === 'string' && UNKNOWN_OUTCOME.has(code)) || (status !== undefined && status >= 500))
    return new UnavailableError();
  return undefined;
}

/** Tries of a write that follows a side effect (a webhook sent): a throttle or a lost answer is tried again, this many times in all. */
export const TRANSIENT_TRIES = 3;

/**
 * Runs `run` again, a little later each time, while it fails with a throttle or an unknown outcome
 * (sdkFault), at most TRANSIENT_TRIES times in all. For writes whose failure would leave a record
 * behind what was done: a delivery sent but its attempt not logged. `run` is told which try it is,
 * so that a conditional write refused on a later try can look whether its own earlier try wrote.
 */
export async function retryTransient<T>(run: (tries: number) => Promise<T>, tries = TRANSIENT_TRIES): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(attempt);
    } catch (err) {
      if (attempt >= tries || sdkFault(err) === undefined) throw err;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
    }
  }
}
