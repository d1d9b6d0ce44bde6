import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * Asks DynamoDB for the capacity each request consumed (ReturnConsumedCapacity INDEXES: the
 * table's and every index's) and adds it up, as read and write request units. DynamoDB Local
 * answers it by DynamoDB's own rules (1 WRU per started KB, 2 in a transaction, 0.5 RRU for an
 * eventually consistent read of up to 4 KB, 1 strongly consistent). The bench's cost section
 * prices these; never attached in production.
 */
export interface CapacityMeter {
  readUnits: number;
  writeUnits: number;
  reset(): void;
  detach(): void;
}

const READS = new Set(['GetItemCommand', 'QueryCommand', 'ScanCommand', 'BatchGetItemCommand', 'TransactGetItemsCommand']);
const METERED = new Set([...READS, 'PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand', 'BatchWriteItemCommand']);

type Consumed = { CapacityUnits?: number } | { CapacityUnits?: number }[] | undefined;

export function meterCapacity(doc: DynamoDBDocumentClient): CapacityMeter {
  const meter: CapacityMeter = {
    readUnits: 0,
    writeUnits: 0,
    reset() {
      meter.readUnits = 0;
      meter.writeUnits = 0;
    },
    detach() {
      doc.middlewareStack.remove('capacityMeter');
    },
  };
  doc.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName);
      if (!METERED.has(command)) return next(args);
      (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'INDEXES';
      const result = await next(args);
      const consumed = (result.output as { ConsumedCapacity?: Consumed }).ConsumedCapacity;
      const units = [consumed ?? []].flat().reduce((sum, entry) => sum + (entry.CapacityUnits ?? 0), 0);
      if (READS.has(command)) meter.readUnits += units;
      else meter.writeUnits += units;
      return result;
    },
    { step: 'initialize', name: 'capacityMeter' },
  );
  return meter;
}
