import { loadConfig } from '#shared/platform/config.js';
import { groupByDay } from '#shared/conversion/conversion.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { DynamoDayCounts } from '#shared/conversion/dynamo-metrics-store.js';
import { streamedCheckouts } from '#shared/conversion/dynamo-checkout-stream.js';
import type { StreamWindowEvent, StreamWindowResponse } from '#shared/platform/dynamo/stream-events.js';

const config = loadConfig();
const counts = new DynamoDayCounts(sharedDocumentClient(), config.metricsTableName);

/**
 * The metrics table's stream → the day counts GET /metrics/conversion reads. A checkout writes
 * only its own record; this adds each batch's new records to their (client, day) count, one
 * update per count per batch, each checkout once however often the stream delivers it. A failure
 * throws: Lambda retries the batch (and npm start's stream pump does too).
 */
export const handler = async (event: StreamWindowEvent): Promise<StreamWindowResponse> => {
  const batches = groupByDay(streamedCheckouts(event.Records));
  await Promise.all(batches.map((batch) => counts.addToDayCount(event.shardId, batch)));
  return { state: {} };
};
