import { parseArgs } from 'node:util';
import { deployedTables, orExit } from './cli-arguments.js';
import { loadConfig } from '#shared/platform/config.js';
import { createDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { localDynamo } from './local/local-stack-file.js';
import { describeDifference, reconcile } from './reconcile.js';

/**
 * `npm run reconcile [-- --aws]`: the ledger against the policies and claims, for every client and
 * currency (scripts/reconcile.ts). Exit 0 when they agree; 1 naming each client, currency and
 * difference. Locally the DynamoDB of `npm start`; with --aws the table named by TABLE_NAME.
 */
const { values } = parseArgs({ options: { aws: { type: 'boolean', default: false } } });
const deployed = values.aws ? orExit(() => deployedTables()) : undefined;
const local = deployed ? undefined : localDynamo();
if (local) console.error(`using DynamoDB at ${local.endpoint} (${local.source})`);
const config = deployed ?? loadConfig();
const doc = createDocumentClient(local?.endpoint, config.region);
const differences = await reconcile(doc, config.tableName);
doc.destroy();
for (const difference of differences) console.log(describeDifference(difference));
console.log(differences.length === 0 ? 'the ledger agrees with every policy and claim' : `${differences.length} differences`);
process.exitCode = differences.length === 0 ? 0 : 1;
