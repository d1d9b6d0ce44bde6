import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { RecordChange } from '../record-change.js';
import { orderOfPartition } from './keys.js';

/**
 * What Lambda passes a DynamoDB stream consumer whose event source mapping has a tumbling window
 * (the window is what makes Lambda name the shard: `shardId`). `npm start` and the tests pass the
 * same shape (scripts/local/local-streams.ts).
 */
export interface StreamWindowEvent {
  Records: DynamoDBRecord[];
  shardId: string;
  eventSourceARN?: string;
  window: { start: string; end: string };
  state?: Record<string, unknown>;
  isFinalInvokeForWindow: boolean;
  isWindowTerminatedEarly: boolean;
}

/** A tumbling-window consumer must answer with a state (an empty one: nothing is carried between batches). */
export interface StreamWindowResponse {
  state: Record<string, unknown>;
}

/** The changes of a batch of main-table records, unmarshalled, in stream order. */
export function recordChanges(records: readonly DynamoDBRecord[]): RecordChange[] {
  return records.flatMap((record) => {
    const kind = record.eventName;
    if (kind !== 'INSERT' && kind !== 'MODIFY' && kind !== 'REMOVE') return [];
    const image = (attributes: unknown) => (attributes ? unmarshall(attributes as Record<string, AttributeValue>) : undefined);
    const seconds = record.dynamodb?.ApproximateCreationDateTime;
    const order = orderOfPartition(record.dynamodb?.Keys?.PK?.S);
    return [
      {
        changeId: record.eventID ?? `${record.dynamodb?.SequenceNumber ?? ''}`,
        kind,
        at: new Date(seconds ? seconds * 1000 : Date.now()).toISOString(),
        before: image(record.dynamodb?.OldImage),
        after: image(record.dynamodb?.NewImage),
        ...(order ? { order } : {}),
        ...(record.dynamodb?.SequenceNumber ? { position: record.dynamodb.SequenceNumber.padStart(40, '0') } : {}),
      },
    ];
  });
}
