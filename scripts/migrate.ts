import { parseArgs } from 'node:util';
import { deployedTables, orExit } from './cli-arguments.js';
import { loadConfig } from '#shared/platform/config.js';
import { createDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { runMigrations } from './migrations.js';
import { localDynamo } from './local/local-stack-file.js';

/**
 * `npm run migrate [-- --aws]`: moves records written before issue 20 to their new keys (sharded
 * list keys, one partition per checkout record). Locally the DynamoDB of `npm start`
 * (DYNAMODB_ENDPOINT, .local/stack.json, or port DYNAMODB_PORT); with --aws the tables named by TABLE_NAME and
 * METRICS_TABLE_NAME with the caller's credentials. Then gives policies stored before issue 25 their
 * void window (void_until), and rewrites amounts stored as hundredths into their currency's minor
 * unit (issue 27), gives each ledger entry its id record (issue 35) and writes the ledger's opening
 * balance (issue 28; a move of a closed month is booked in the open month), registers clients and lists
 * past bordereau exports for the console (issue 37), and gives each client made before versioned
 * terms its version 1 from its rate and look period and each policy sold before them its terms_version 1, and marks the months each client had moves in for its balance (issue 38). Safe to run again, and
 * beside traffic (scripts/migrations.ts runMigrations).
 */
const { values } = parseArgs({ options: { aws: { type: 'boolean', default: false } } });
const deployed = values.aws ? orExit(() => deployedTables({ metrics: true })) : undefined;
const local = deployed ? undefined : localDynamo();
if (local) console.error(`using DynamoDB at ${local.endpoint} (${local.source})`);
const config = deployed ?? loadConfig();
const doc = createDocumentClient(local?.endpoint, config.region);
const { moved, windows, minor, adopted, opening, registered, listed, terms, sold, months } = await runMigrations(doc, {
  main: config.tableName,
  metrics: config.metricsTableName,
});
doc.destroy();
console.log(`moved ${moved.listRecords} order and policy records to sharded list keys, ${moved.checkoutRecords} checkout records to their own partitions`);
console.log(`gave ${windows.policies} policies stored without one their void window (their order's sale + the client's look period)`);
console.log(
  `rewrote amounts into their currency's minor unit: ${minor.orders} orders, ${minor.items} items, ${minor.claims} claims` +
    ` (${minor.rounded} amounts rounded half away from zero to a whole unit; ${minor.writtenMeanwhile} records rewritten by requests meanwhile, left as they wrote them)`,
);
console.log(
  `gave ${adopted.entries} ledger entries written before entries had id records their own` +
    (adopted.duplicates ? ` (${adopted.duplicates} ids were already booked under two keys: npm run reconcile names their clients)` : ''),
);
console.log(`wrote the ledger's opening balance: ${opening.entries} entries for policies and claims from before the ledger (with their statements)`);
console.log(`registered ${registered.clients} clients created before the console's list of merchants`);
console.log(`listed ${listed.exports} bordereau exports made before the console's list of past exports`);
console.log(`gave ${terms.clients} clients made before versioned terms their version 1 (their rate and look period, no minimum, no commission)`);
console.log(`gave ${sold.policies} policies sold before versioned terms their terms_version 1 (and commission 0)`);
console.log(`marked ${months.months} months with moves among their clients' months (a balance walks them)`);
