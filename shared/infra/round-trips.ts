import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * Counts DynamoDB round trips (one per HTTP request the SDK sends, retries included) by
 * attaching a middleware at the finalize step of a client's stack. The bench reads it to check
 * each operation's budget; it is never attached in production.
 */
export interface RoundTripCounter { count: number; commands: string[]; reset(): void; detach(): void }

export function countRoundTrips(client: DynamoDBClient | DynamoDBDocumentClient): RoundTripCounter {
  const name = 'roundTripCounter';
  const counter: RoundTripCounter = {
    count: 0,
    commands: [],
    reset() {
      counter.count = 0;
      counter.commands = [];
    },
    detach() {
      client.middlewareStack.remove(name);
    },
  };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      counter.count += 1;
      counter.commands.push(String(context.commandName ?? 'unknown'));
      return next(args);
    },
    { step: 'finalizeRequest', name, override: true },
  );
  return counter;
}
