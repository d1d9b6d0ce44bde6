import { loadConfig } from '#shared/platform/config.js';
import { systemClock } from '#shared/platform/clock.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { DynamoLedgerStore } from '#shared/ledger/dynamo-ledger-store.js';
import { DynamoCollectionsStore } from '#shared/ledger/dynamo-collections-store.js';
import { closeStatements, type CloseReport } from '#shared/ledger/statements.js';

const config = loadConfig();
const doc = sharedDocumentClient();
const deps = { collections: new DynamoCollectionsStore(doc, config.tableName, new DynamoLedgerStore(doc, config.tableName)), clock: systemClock };

/**
 * Hourly (EventBridge; npm start: every minute): each client's months closed since its last close
 * are written down with their balances (statement.closed), and each unsettled one moves to paid
 * or overdue as it now stands (statement.overdue). Run again, it writes nothing twice.
 */
export const handler = async (): Promise<CloseReport> => closeStatements(deps);
