import { loadConfig } from '../../platform/config.js';
import { systemClock } from '../../platform/clock.js';
import { sharedDocumentClient } from '../../platform/dynamo/dynamo-client.js';
import type { ClientStore } from '../../clients/index.js';
import { DynamoIdempotencyStore } from '../../platform/dynamo/idempotency-store.js';
import { DynamoOrderStore } from '../dynamo-order-store.js';
import { DynamoCancellations } from './dynamo-cancellations.js';
import type { CancellationDeps } from './cancellation-previews.js';

/**
 * The adapters of the cancel and void routes and of the confirm, once per cold start: one order
 * store serves the order's and the policy's reads and writes, beside the kept previews. The
 * clients' store comes from the function (the clients room keeps its adapter to its functions).
 */
export function cancellationDeps(
  clients: (doc: ReturnType<typeof sharedDocumentClient>, tableName: string) => Pick<ClientStore, 'get'>,
): CancellationDeps & { idempotency: DynamoIdempotencyStore } {
  const config = loadConfig();
  const doc = sharedDocumentClient();
  const orders = new DynamoOrderStore(doc, config.tableName, config.metricsTableName);
  return {
    orders,
    policies: orders,
    cancellations: new DynamoCancellations(doc, config.tableName),
    clients: clients(doc, config.tableName),
    clock: systemClock,
    idempotency: new DynamoIdempotencyStore(doc, config.tableName),
  };
}
