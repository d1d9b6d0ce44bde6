import { parseArgs } from 'node:util';
import { loadConfig } from '../shared/config.js';
import { createDocumentClient } from '../shared/infra/dynamo-client.js';
import { migrateToShardedKeys } from '../shared/infra/migrations.js';

/**
 * `npm run migrate [-- --aws]`: moves records written before issue 20 to their new keys (sharded
 * list keys, one partition per checkout record). Locally the DynamoDB of `npm start`
 * (DYNAMODB_ENDPOINT or port DYNAMODB_PORT); with --aws the tables named by TABLE_NAME and
 * METRICS_TABLE_NAME with the caller's credentials. Safe to run again.
 */
const { values } = parseArgs({ options: { aws: { type: 'boolean', default: false } } });
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const config = loadConfig();
const endpoint = values.aws ? undefined : process.env.DYNAMODB_ENDPOINT || `http://localhost:${process.env.DYNAMODB_PORT ?? 8000}`;
const doc = createDocumentClient(endpoint, config.region);
const moved = await migrateToShardedKeys(doc, { main: config.tableName, metrics: config.metricsTableName });
doc.destroy();
console.log(`moved ${moved.listRecords} order and policy records to sharded list keys, ${moved.checkoutRecords} checkout records to their own partitions`);
