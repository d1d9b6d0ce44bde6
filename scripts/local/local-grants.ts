import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { FUNCTIONS, type FunctionDefinition, type FunctionName } from '#shared/platform/functions.js';
import type { TableDefinition } from '#shared/platform/dynamo/table-definitions.js';
import { loadConfig } from '#shared/platform/config.js';

/**
 * Each function's DynamoDB grants, held locally as IAM holds them deployed. The CDK stack grants a
 * function exactly the actions and indexes its entry in the function catalogue lists
 * (shared/platform/functions.ts); npm start and the tests run every function in one process on one
 * client, where nothing would refuse a call the deployed role lacks, so a missing grant would show
 * first as AccessDeniedException in production. Here a call made while a function runs is checked
 * against that function's entry and refused the same way, and the refusal is kept for the tests.
 */
type TableId = TableDefinition['id'];

/** The IAM action of each DynamoDB operation the service uses (a transaction's parts by their own actions, as IAM checks them). */
const ACTION: Record<string, string> = {
  Get: 'GetItem',
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
  Query: 'Query',
  Scan: 'Scan',
  BatchGet: 'BatchGetItem',
  BatchWrite: 'BatchWriteItem',
};
/** A transaction names at most 100 parts; a batch at most 100 tables' worth: no loop here runs longer. */
const MAX_PARTS = 100;

const running = new AsyncLocalStorage<FunctionName>();

/** Runs `work` as function `name`: its DynamoDB calls are held to that function's grants. */
export const asFunction = <T>(name: FunctionName, work: () => T): T => running.run(name, work);

export interface Refusal {
  function: FunctionName;
  action: string;
  resource: string;
}
/** Every call refused so far (the tests fail on any). */
export const refusals: Refusal[] = [];

type Access = { action: string; table: string; index?: string };
/** The fields of a DynamoDB request that name what it touches. */
export interface CallInput {
  TableName?: string;
  IndexName?: string;
  TransactItems?: Record<string, { TableName?: string }>[];
  RequestItems?: Record<string, unknown>;
}

/** What one call asks for: its operation on each table (and index) it names. */
export function accessesOf(commandName: string, input: CallInput): Access[] {
  const operation = commandName.replace(/Command$/, '').replace(/Items?$/, '');
  if (operation === 'TransactWrite' || operation === 'TransactGet') {
    const parts = (input.TransactItems ?? []).slice(0, MAX_PARTS);
    return parts.flatMap((part) => Object.entries(part).map(([kind, body]) => ({ action: ACTION[kind] ?? kind, table: String(body.TableName) })));
  }
  if (operation === 'BatchGet' || operation === 'BatchWrite')
    return Object.keys(input.RequestItems ?? {})
      .slice(0, MAX_PARTS)
      .map((table) => ({ action: ACTION[operation]!, table }));
  return [{ action: ACTION[operation] ?? operation, table: String(input.TableName), ...(input.IndexName ? { index: String(input.IndexName) } : {}) }];
}

/** The tables as the functions' configuration names them now (the tests give each file tables of its own). */
const configuredTables = (): Record<TableId, string> => {
  const config = loadConfig();
  return { main: config.tableName, metrics: config.metricsTableName };
};

/** Whether `name`'s catalogue entry grants the access, on the tables as the functions are configured. */
export function granted(name: FunctionName, access: Access, tables: Record<TableId, string> = configuredTables()): boolean {
  const definition: FunctionDefinition = FUNCTIONS[name];
  const table = (Object.keys(tables) as TableId[]).find((id) => tables[id] === access.table);
  if (!table) return false;
  if (access.index) return access.action === 'Query' && (definition.indexes?.[table] ?? []).includes(access.index);
  return (definition.tables?.[table] ?? []).includes(access.action);
}

const held = new WeakSet<DynamoDBDocumentClient>();

/** Holds every call made on `doc` while a function runs (asFunction) to that function's grants; once per client. */
export function holdToGrants(doc: DynamoDBDocumentClient): void {
  if (held.has(doc)) return;
  held.add(doc);
  doc.middlewareStack.add(
    (next, context) => async (args) => {
      const name = running.getStore();
      if (name === undefined) return next(args); // a script's or a test's own call, not a function's
      for (const access of accessesOf(context.commandName ?? '', args.input as CallInput)) {
        if (granted(name, access)) continue;
        const refusal = {
          function: name,
          action: `dynamodb:${access.action}`,
          resource: access.index ? `${access.table}/index/${access.index}` : access.table,
        };
        refusals.push(refusal);
        throw Object.assign(
          new Error(`${name} is not granted ${refusal.action} on ${refusal.resource}: its entry in shared/platform/functions.ts does not list it`),
          { name: 'AccessDeniedException', $metadata: { httpStatusCode: 400 } },
        );
      }
      return next(args);
    },
    { step: 'initialize', name: 'localGrants', override: true, priority: 'high' },
  );
}
