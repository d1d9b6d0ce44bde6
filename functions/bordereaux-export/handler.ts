import { loadConfig } from '#shared/platform/config.js';
import { systemClock } from '#shared/platform/clock.js';
import { runExport } from '#shared/bordereaux/index.js';
import { DynamoExportStore } from '#shared/bordereaux/dynamo-export-store.js';
import { PolicyFactsReader } from '#shared/bordereaux/policy-facts.js';
import { S3ObjectStore } from '#shared/bordereaux/s3-object-store.js';
import { DynamoLedgerStore } from '#shared/ledger/dynamo-ledger-store.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { DynamoClaimStore } from '#shared/claims/dynamo-claim-store.js';
import { DynamoOrderStore } from '#shared/orders/dynamo-order-store.js';
import { logger } from '#shared/platform/http/logger.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { sharedS3Client } from '#shared/platform/s3/s3-client.js';
import { recordChanges, type StreamWindowEvent, type StreamWindowResponse } from '#shared/platform/dynamo/stream-events.js';

const config = loadConfig();
const doc = sharedDocumentClient();
const policyFacts = new PolicyFactsReader(new DynamoOrderStore(doc, config.tableName, config.metricsTableName));
/** The export's adapters (the bench's export section runs the export through these too). */
export const deps = {
  exports: new DynamoExportStore(doc, config.tableName),
  objects: new S3ObjectStore(sharedS3Client(), config.bordereauxBucket),
  sources: {
    ledger: new DynamoLedgerStore(doc, config.tableName),
    clients: new DynamoClientStore(doc, config.tableName),
    claims: new DynamoClaimStore(doc, config.tableName),
    policyFacts: (clientId: string, entry: Parameters<PolicyFactsReader['factsOf']>[1]) => policyFacts.factsOf(clientId, entry),
  },
  clock: systemClock,
};

/**
 * The main table's stream (new export records) → each export run to its end: rows streamed into S3,
 * the record marked done with its row count, or failed with the reason (logged; the operator starts
 * another). A run cut short (timeout, crash) is given again by the stream and runs again.
 */
export const handler = async (event: StreamWindowEvent): Promise<StreamWindowResponse> => {
  for (const change of recordChanges(event.Records)) {
    const exportId = change.after?.export_id;
    if (change.kind !== 'INSERT' || typeof exportId !== 'string') continue;
    const exported = await runExport(deps, exportId);
    const fields = { export_id: exportId, kind: exported?.kind, period: exported?.period, status: exported?.status, rows: exported?.rows };
    if (exported?.status === 'failed') logger.error('bordereau export failed; the operator may start another', { ...fields, failure: exported.failure });
    else logger.info('bordereau export', fields);
  }
  return { state: {} };
};
