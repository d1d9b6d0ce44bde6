import { loadConfig } from '#shared/platform/config.js';
import { recordLedger } from '#shared/ledger/record-ledger.js';
import { DynamoLedgerStore } from '#shared/ledger/dynamo-ledger-store.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { recordChanges, type StreamWindowEvent, type StreamWindowResponse } from '#shared/platform/dynamo/stream-events.js';

const config = loadConfig();
const ledger = new DynamoLedgerStore(sharedDocumentClient(), config.tableName);

/**
 * The main table's stream → the ledger and the monthly statements. Each batch's changes of items
 * and claims become entries, each written once, and the batch's figures are added to each
 * statement after its watermark for this shard. A failure throws: Lambda (or npm start's stream
 * pump) gives the batch again, and what was written is found, not written twice.
 */
export const handler = async (event: StreamWindowEvent): Promise<StreamWindowResponse> => {
  await recordLedger(ledger, event.shardId, recordChanges(event.Records));
  return { state: {} };
};
