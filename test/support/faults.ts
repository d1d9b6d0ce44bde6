import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * Faults injected into the AWS SDK calls the handlers make, by a middleware on the client they
 * share (sharedDocumentClient), before the SDK's own retries see them so that the code above must
 * cope: DynamoDB throttling a call before it runs, a write that commits and whose answer is lost
 * (the caller cannot tell it wrote), a transaction cancelled by a concurrent one. A fault plan is
 * driven by a seeded random source, so a seed replays the same faults.
 */
export const FAULT_KINDS = ['throttle', 'lost_answer', 'conflict'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand', 'BatchWriteItemCommand']);

export interface FaultPlan {
  /** Faults happen only while on (during a history's calls, not its checks). */
  on: boolean;
  /** The chance of a fault per SDK call. */
  rate: number;
  random: () => number;
  counts: Record<FaultKind, number>;
}

export function faultPlan(seed: number, rate: number): FaultPlan {
  let state = seed >>> 0 || 1;
  // xorshift32: small, seeded, good enough to pick faults.
  const random = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  return { on: false, rate, random, counts: { throttle: 0, lost_answer: 0, conflict: 0 } };
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
