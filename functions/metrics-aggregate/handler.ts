import { loadConfig } from '../../shared/config.js';
import { groupByDay } from '../../shared/domain/conversion.js';
import { sharedDocumentClient } from '../../shared/infra/dynamo-client.js';
import { DynamoDayCounts } from '../../shared/infra/metrics-store.js';
import { streamedCheckouts, type StreamWindowEvent, type StreamWindowResponse } from '../../shared/infra/stream-events.js';

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
