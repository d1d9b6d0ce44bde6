import type { DynamoDBRecord } from 'aws-lambda';
import { streamPosition, type StreamedCheckout } from './conversion.js';

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
