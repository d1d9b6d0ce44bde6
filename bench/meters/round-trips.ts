import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * Counts DynamoDB round trips (one per HTTP request the SDK sends, retries included) by
 * attaching a middleware at the finalize step of a client's stack. The bench reads it to check
 * each operation's budget; it is never attached in production.
 */
export interface RoundTripCounter {
  count: number;
  commands: string[];
  reset(): void;
  detach(): void;
}

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
      const command = String(context.commandName ?? 'unknown');
      try {
        const result = await next(args);
        counter.commands.push(command);
        return result;
      } catch (error) {
        // A failed attempt still cost a round trip; name why, so a retry is told from a design flaw.
        counter.commands.push(`${command} (failed: ${(error as Error).name})`);
        throw error;
      }
    },
    { step: 'finalizeRequest', name, override: true },
  );
  return counter;
}
