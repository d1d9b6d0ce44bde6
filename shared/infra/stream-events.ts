import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { streamPosition, type StreamedCheckout } from '../domain/conversion.js';
import type { RecordChange } from '../domain/webhook-events.js';

/**
 * What Lambda passes a DynamoDB stream consumer whose event source mapping has a tumbling window
 * (the window is what makes Lambda name the shard: `shardId`). `npm start` and the tests pass the
 * same shape (scripts/local-streams.ts).
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

/** The new checkout records of a batch, as the day counts need them (other records and other changes are skipped). */
export function streamedCheckouts(records: readonly DynamoDBRecord[]): StreamedCheckout[] {
  const checkouts: StreamedCheckout[] = [];
  for (const record of records) {
    const image = record.dynamodb?.NewImage;
    const sequence = record.dynamodb?.SequenceNumber;
    if (record.eventName !== 'INSERT' || !image || !sequence || image.entity?.S !== 'checkout' || image.counted_by?.S !== 'stream') continue;
    const clientId = image.client_id?.S;
    const day = image.day?.S;
    const optIn = image.opt_in?.BOOL;
    if (!clientId || !day || optIn === undefined) throw new Error(`a checkout record without client_id, day or opt_in at ${sequence}`);
    checkouts.push({ client_id: clientId, day, opt_in: optIn, position: streamPosition(sequence) });
  }
  return checkouts;
}

/** The changes of a batch of main-table records, unmarshalled, in stream order. */
export function recordChanges(records: readonly DynamoDBRecord[]): RecordChange[] {
  return records.flatMap((record) => {
    const kind = record.eventName;
    if (kind !== 'INSERT' && kind !== 'MODIFY' && kind !== 'REMOVE') return [];
    const image = (attributes: unknown) => (attributes ? unmarshall(attributes as Record<string, AttributeValue>) : undefined);
    const seconds = record.dynamodb?.ApproximateCreationDateTime;
    return [
      {
        changeId: record.eventID ?? `${record.dynamodb?.SequenceNumber ?? ''}`,
        kind,
        at: new Date(seconds ? seconds * 1000 : Date.now()).toISOString(),
        before: image(record.dynamodb?.OldImage),
        after: image(record.dynamodb?.NewImage),
      },
    ];
  });
}
