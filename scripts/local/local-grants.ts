import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import { BORDEREAUX_GRANTS, EVIDENCE_GRANTS, FUNCTIONS, type FunctionDefinition, type FunctionName } from '#shared/platform/functions.js';
import type { TableDefinition } from '#shared/platform/dynamo/table-definitions.js';
import { loadConfig } from '#shared/platform/config.js';
import { checkKeyReads } from '#shared/platform/keys/signing-keys.js';

/**
 * Each function's DynamoDB and S3 grants, held locally as IAM holds them deployed. The CDK stack grants a
 * function exactly the actions, indexes and object prefixes its entry in the function catalogue lists
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
/** The calls refused so far, the first MAX_REFUSALS_KEPT of them (the tests fail on any; npm start logs each as a 500). */
export const refusals: Refusal[] = [];
const MAX_REFUSALS_KEPT = 100;

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

/** What one S3 call asks for: its IAM action on each object it names (a copy reads one and writes another). */
export type ObjectAccess = { action: string; bucket: string; key: string };
export interface ObjectCallInput {
  Bucket?: string;
  Key?: string;
  CopySource?: string;
}
/** The IAM action of each S3 operation (a multipart upload's parts are PutObject's, as IAM checks them). */
const OBJECT_ACTION: Record<string, string> = {
  PutObject: 's3:PutObject',
  CreateMultipartUpload: 's3:PutObject',
  UploadPart: 's3:PutObject',
  CompleteMultipartUpload: 's3:PutObject',
  AbortMultipartUpload: 's3:AbortMultipartUpload',
  GetObject: 's3:GetObject',
  HeadObject: 's3:GetObject',
  DeleteObject: 's3:DeleteObject',
};

export function objectAccessesOf(commandName: string, input: ObjectCallInput): ObjectAccess[] {
  const operation = commandName.replace(/Command$/, '');
  const target = { bucket: String(input.Bucket), key: String(input.Key ?? '') };
  if (operation === 'CopyObject') {
    const source = decodeURIComponent(String(input.CopySource)).replace(/^\//, '');
    const slash = source.indexOf('/');
    return [
      { action: 's3:GetObject', bucket: source.slice(0, slash), key: source.slice(slash + 1) },
      { action: 's3:PutObject', ...target },
    ];
  }
  return [{ action: OBJECT_ACTION[operation] ?? `s3:${operation}`, ...target }];
}

/** Whether `name`'s catalogue entry grants the access: its uses of the bucket, each action on its prefixes only. */
export function objectGranted(name: FunctionName, access: ObjectAccess, buckets = configuredBuckets()): boolean {
  const definition: FunctionDefinition = FUNCTIONS[name];
  const grants =
    access.bucket === buckets.bordereaux
      ? (definition.bucket ?? []).flatMap((use) => BORDEREAUX_GRANTS[use])
      : access.bucket === buckets.evidence
        ? (definition.evidence ?? []).flatMap((use) => EVIDENCE_GRANTS[use])
        : [];
  return grants.some((grant) => grant.actions.includes(access.action) && grant.prefixes.some((prefix) => access.key.startsWith(prefix)));
}

const configuredBuckets = () => {
  const config = loadConfig();
  return { bordereaux: config.bordereauxBucket, evidence: config.evidenceBucket };
};

/** The middleware stack both SDK clients have; the check sees each call's command name and input. */
type HeldClient = Pick<DynamoDBDocumentClient | S3Client, 'middlewareStack'>;
const held = new WeakSet<HeldClient>();

function hold(client: HeldClient, refusalOf: (name: FunctionName, commandName: string, input: unknown) => Refusal | undefined): void {
  if (held.has(client)) return;
  held.add(client);
  (client.middlewareStack as DynamoDBDocumentClient['middlewareStack']).add(
    (next, context) => async (args) => {
      const name = running.getStore();
      if (name === undefined) return next(args); // a script's or a test's own call, not a function's
      const refusal = refusalOf(name, context.commandName ?? '', args.input);
      if (!refusal) return next(args);
      if (refusals.length < MAX_REFUSALS_KEPT) refusals.push(refusal);
      throw Object.assign(
        new Error(`${name} is not granted ${refusal.action} on ${refusal.resource}: its entry in shared/platform/functions.ts does not list it`),
        { name: 'AccessDeniedException', $metadata: { httpStatusCode: 403 } },
      );
    },
    { step: 'initialize', name: 'localGrants', override: true, priority: 'high' },
  );
}

/**
 * Holds every read of a key kind while a function runs to the kinds its catalogue entry lists
 * (deployed, the secrets it may read): refused as IAM would refuse GetSecretValue.
 */
export function holdKeysToGrants(): void {
  checkKeyReads((kind) => {
    const name = running.getStore();
    if (name === undefined || (FUNCTIONS[name] as FunctionDefinition).keys?.includes(kind)) return;
    const refusal = { function: name, action: 'secretsmanager:GetSecretValue', resource: `${kind} keys` };
    if (refusals.length < MAX_REFUSALS_KEPT) refusals.push(refusal);
    throw Object.assign(new Error(`${name} is not granted the ${kind} keys: its entry in shared/platform/functions.ts does not list them`), {
      name: 'AccessDeniedException',
    });
  });
}

/** Holds every call made on `doc` while a function runs (asFunction) to that function's table grants; once per client. */
export function holdToGrants(doc: DynamoDBDocumentClient): void {
  hold(doc, (name, commandName, input) => {
    const access = accessesOf(commandName, input as CallInput).find((each) => !granted(name, each));
    return access && { function: name, action: `dynamodb:${access.action}`, resource: access.index ? `${access.table}/index/${access.index}` : access.table };
  });
}

/**
 * Likewise for S3 (the bordereaux and evidence buckets), once per client. A presigned URL is not a
 * call of the function's: it carries the signer's grants to whoever uses it, and s3rver does not check them.
 */
export function holdObjectsToGrants(s3: S3Client): void {
  hold(s3, (name, commandName, input) => {
    const access = objectAccessesOf(commandName, input as ObjectCallInput).find((each) => !objectGranted(name, each));
    return access && { function: name, action: access.action, resource: `${access.bucket}/${access.key}` };
  });
}
