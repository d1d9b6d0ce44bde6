import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Handler } from '../../scripts/local/local-streams.js';

/**
 * Faults injected into the AWS SDK calls the handlers make, by a middleware on the client they
 * share (sharedDocumentClient), before the SDK's own retries see them so that the code above must
 * cope: DynamoDB throttling a call before it runs, a write that commits and whose answer is lost
 * (the caller cannot tell it wrote), a transaction cancelled by a concurrent one. A fault plan is
 * driven by a seeded random source, so a seed replays the same faults.
 */
export const FAULT_KINDS = ['throttle', 'lost_answer', 'conflict', 'redelivered', 'split', 'died_mid_batch'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand', 'BatchWriteItemCommand']);

export interface FaultPlan {
  /** The SDK's faults happen only while on (during a history's calls, not its checks). */
  on: boolean;
  /** The stream batches' faults happen only while on (when a history's changes reach the consumers). */
  streams: boolean;
  /** The chance of a fault per SDK call. */
  rate: number;
  /** The chance of a fault per batch given to a stream consumer. */
  batchRate: number;
  random: () => number;
  counts: Record<FaultKind, number>;
  /**
   * Awaited before each SDK call while set: the fault suite's races (two commands at once) set it to
   * fast-check's scheduler, which then picks at every DynamoDB call which of the two goes next.
   */
  gate?: () => Promise<unknown>;
}

export function faultPlan(seed: number, rate: number): FaultPlan {
  const plan: FaultPlan = {
    on: false,
    streams: false,
    rate,
    batchRate: rate,
    random: () => 0,
    counts: { throttle: 0, lost_answer: 0, conflict: 0, redelivered: 0, split: 0, died_mid_batch: 0 },
  };
  reseed(plan, seed);
  return plan;
}

/**
 * Starts the plan's faults over from `seed` (xorshift32: small, seeded, good enough to pick faults).
 * The fault suite reseeds it from each case's own commands, so that a case replayed alone (its
 * fast-check path) meets the same faults as in the run that found it.
 */
export function reseed(plan: FaultPlan, seed: number): void {
  let state = seed >>> 0 || 1;
  plan.random = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

const throttled = () =>
  Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), { name: 'ThrottlingException', $metadata: { httpStatusCode: 400 } });
const lostAnswer = () => Object.assign(new Error('socket hang up after the request was sent'), { name: 'TimeoutError', code: 'ECONNRESET', $metadata: {} });
const conflicted = (actions: number) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled: TransactionConflict',
    $metadata: { httpStatusCode: 400 },
    CancellationReasons: Array.from({ length: actions }, (_, i) => ({ Code: i === 0 ? 'TransactionConflict' : 'None' })),
  });

/** Adds the fault middleware to the client (once per client); the plan decides, call by call. */
export function injectFaults(doc: DynamoDBDocumentClient, plan: FaultPlan): void {
  doc.middlewareStack.add(
    (next, context) => async (args) => {
      if (plan.gate) await plan.gate();
      if (!plan.on || plan.random() >= plan.rate) return next(args);
      const command = context.commandName ?? '';
      const input = args.input as { TransactItems?: unknown[] };
      const choices: FaultKind[] = [
        'throttle',
        ...(WRITES.has(command) ? (['lost_answer'] as const) : []),
        ...(input.TransactItems ? (['conflict'] as const) : []),
      ];
      const kind = choices[Math.floor(plan.random() * choices.length)]!;
      plan.counts[kind]++;
      if (kind === 'throttle') throw throttled();
      if (kind === 'conflict') throw conflicted(input.TransactItems!.length);
      await next(args); // it commits…
      throw lostAnswer(); // …and its answer never arrives
    },
    { step: 'initialize', name: 'faultInjection', override: true },
  );
}

/**
 * Faults of the stream consumers' batches, as Lambda's event source mappings make them: a batch
 * given again whole (redelivered), its first part given before the whole (a split batch), and a
 * consumer that dies after handling part of a batch (the pump gives the whole batch again).
 * Every consumer must write each change's effect once, whatever it is given again.
 */
export function streamFaults(plan: FaultPlan) {
  return (_name: string, handler: Handler): Handler =>
    async (event) => {
      if (!plan.streams || event.Records.length === 0 || plan.random() >= plan.batchRate) return handler(event);
      const kinds = event.Records.length > 1 ? (['redelivered', 'split', 'died_mid_batch'] as const) : (['redelivered'] as const);
      const kind = kinds[Math.floor(plan.random() * kinds.length)]!;
      plan.counts[kind]++;
      const firstPart = { ...event, Records: event.Records.slice(0, Math.ceil(event.Records.length / 2)) };
      if (kind === 'redelivered') await handler(event);
      if (kind === 'split') await handler(firstPart);
      if (kind === 'died_mid_batch') {
        await handler(firstPart);
        throw new Error(DIED_MID_BATCH);
      }
      return handler(event);
    };
}

/** What a consumer that died mid-batch throws (the pump gives the batch again on the next drain). */
export const DIED_MID_BATCH = 'the consumer died mid-batch';
