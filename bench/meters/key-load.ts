import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { tableDefinitions, type TableDefinition } from '#shared/platform/dynamo/table-definitions.js';

/**
 * Counts what each DynamoDB key takes: every item written, per base-table partition key and per
 * global-secondary-index partition key the item lands in, and every read, per key read. Attached
 * at the SDK client (like round-trips.ts, before marshalling, so it sees the items as the code
 * wrote them); the bench's scale section scales the counts to an on-sale's rate. Never attached
 * in production.
 *
 * Write units follow DynamoDB's rules: 1 per started KB of the item, twice that inside a
 * transaction; an index takes the item's size again (its projection is ALL or, keys only, about
 * the keys), also doubled in a transaction, as DynamoDB Local's ConsumedCapacity reports it. Item size is approximated as DynamoDB measures it: attribute names plus values.
 */
export interface KeyCount {
  writes: number;
  units: number;
}

export interface KeyLoad {
  /** `<table>` or `<table>/<index>`, then the partition key value. */
  writes: Map<string, KeyCount>;
  reads: Map<string, number>;
  /** Write units of the base tables and of the indexes, and read requests. */
  totals: { baseUnits: number; indexUnits: number; itemWrites: number; reads: number };
  reset(): void;
  detach(): void;
}

/** DynamoDB's size of a value: strings by UTF-8 bytes, numbers about 1 byte per 2 digits, maps and lists 3 bytes plus their parts. */
export function valueSize(value: unknown): number {
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number') return Math.ceil(String(value).replace(/[-.]/g, '').length / 2) + 1;
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, item) => sum + 1 + valueSize(item), 0);
  if (value instanceof Set) return [...(value as Set<unknown>)].reduce((sum: number, item) => sum + valueSize(item), 0);
  if (typeof value === 'object') return 3 + itemSize(value as Record<string, unknown>);
  return 1;
}

export const itemSize = (item: Record<string, unknown>): number =>
  Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + valueSize(value), 0);

const writeUnits = (bytes: number, transactional: boolean) => Math.max(1, Math.ceil(bytes / 1024)) * (transactional ? 2 : 1);

type WriteAction = {
  Put?: { TableName?: string; Item?: Record<string, unknown> };
  Update?: { TableName?: string; Key?: Record<string, unknown>; UpdateExpression?: string; ExpressionAttributeValues?: Record<string, unknown> };
  Delete?: { TableName?: string; Key?: Record<string, unknown> };
};

export function recordKeyLoad(doc: DynamoDBDocumentClient, tables: Record<TableDefinition['id'], string>): KeyLoad {
  const byName = new Map(tableDefinitions.map((definition) => [tables[definition.id], definition]));
  const load: KeyLoad = {
    writes: new Map(),
    reads: new Map(),
    totals: { baseUnits: 0, indexUnits: 0, itemWrites: 0, reads: 0 },
    reset() {
      load.writes.clear();
      load.reads.clear();
      load.totals = { baseUnits: 0, indexUnits: 0, itemWrites: 0, reads: 0 };
    },
    detach() {
      doc.middlewareStack.remove('keyLoad');
    },
  };
  const count = (key: string, units: number) => {
    const entry = load.writes.get(key) ?? { writes: 0, units: 0 };
    entry.writes += 1;
    entry.units += units;
    load.writes.set(key, entry);
  };
  // The index keys each item written so far is under, so that an update or a delete of it is
  // counted on the index partitions it touches too (updates do not name them).
  const indexKeysOf = new Map<string, Record<string, string>>();
  const write = (
    tableName: string | undefined,
    item: Record<string, unknown> | undefined,
    transactional: boolean,
    whole: boolean,
    update?: { expression?: string; values?: Record<string, unknown> },
  ) => {
    const definition = tableName ? byName.get(tableName) : undefined;
    if (!definition || !item) return;
    // An update's size is not in its input: counted as one unit (the items it touches here are small counters and statuses).
    const units = writeUnits(whole ? itemSize(item) : 0, transactional);
    load.totals.itemWrites += 1;
    load.totals.baseUnits += units;
    count(`${definition.id}:${String(item[definition.partitionKey])}`, units);
    const itemId = `${definition.id}:${String(item[definition.partitionKey])}|${String(item[definition.sortKey])}`;
    const before = indexKeysOf.get(itemId) ?? {};
    const after: Record<string, string> = whole ? {} : { ...before };
    for (const index of definition.globalIndexes ?? []) {
      if (whole) {
        const key = item[index.partitionKey];
        if (typeof key === 'string') after[index.name] = key;
        continue;
      }
      // An update: `attr = :value` moves the item's key in that index, `REMOVE … attr` takes it out.
      const set = new RegExp(`(?:^|[ ,])${index.partitionKey} = (:[A-Za-z0-9_]+)`).exec(update?.expression ?? '');
      const value = set ? update?.values?.[set[1]!] : undefined;
      if (typeof value === 'string') after[index.name] = value;
      if (new RegExp(`REMOVE[^=]*\\b${index.partitionKey}\\b`).test(update?.expression ?? '')) delete after[index.name];
    }
    if (whole || update) indexKeysOf.set(itemId, after);
    for (const index of definition.globalIndexes ?? []) {
      // A write of an indexed item writes its index entry (ALL: any change; keys only: a change of key), out and in.
      const keys = new Set([before[index.name], after[index.name]].filter((key): key is string => key !== undefined));
      if (index.projection !== 'all' && before[index.name] === after[index.name] && !whole) continue;
      for (const key of keys) {
        // Doubled inside a transaction too, as DynamoDB Local reports it (ConsumedCapacity per index).
        const indexUnits = writeUnits(index.projection === 'all' && whole ? itemSize(item) : 100, transactional);
        load.totals.indexUnits += indexUnits;
        count(`${definition.id}/${index.name}:${key}`, indexUnits);
      }
    }
  };
  const allIndexAttributes = tableDefinitions.flatMap((definition) => (definition.globalIndexes ?? []).map((index) => index.partitionKey)).join(', ');
  const read = (tableName: string | undefined, key: unknown) => {
    const definition = tableName ? byName.get(tableName) : undefined;
    if (!definition) return;
    const name = `${definition.id}:${String(key)}`;
    load.reads.set(name, (load.reads.get(name) ?? 0) + 1);
    load.totals.reads += 1;
  };
  doc.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as {
        TableName?: string;
        Item?: Record<string, unknown>;
        Key?: Record<string, unknown>;
        TransactItems?: WriteAction[];
        ExpressionAttributeValues?: Record<string, unknown>;
        UpdateExpression?: string;
        RequestItems?: Record<string, { PutRequest?: { Item?: Record<string, unknown> }; DeleteRequest?: { Key?: Record<string, unknown> } }[]>;
      };
      switch (context.commandName) {
        case 'PutItemCommand':
          write(input.TableName, input.Item, false, true);
          break;
        case 'UpdateItemCommand':
          write(input.TableName, input.Key, false, false, { expression: input.UpdateExpression, values: input.ExpressionAttributeValues });
          break;
        case 'DeleteItemCommand':
          write(input.TableName, input.Key, false, false, { expression: 'REMOVE ' + allIndexAttributes, values: {} });
          break;
        case 'BatchWriteItemCommand':
          for (const [table, requests] of Object.entries(input.RequestItems ?? {})) {
            for (const request of requests) {
              if (request.PutRequest) write(table, request.PutRequest.Item, false, true);
              else if (request.DeleteRequest) write(table, request.DeleteRequest.Key, false, false, { expression: 'REMOVE ' + allIndexAttributes, values: {} });
            }
          }
          break;
        case 'TransactWriteItemsCommand':
          for (const action of input.TransactItems ?? []) {
            if (action.Put) write(action.Put.TableName, action.Put.Item, true, true);
            else if (action.Update)
              write(action.Update.TableName, action.Update.Key, true, false, {
                expression: action.Update.UpdateExpression,
                values: action.Update.ExpressionAttributeValues,
              });
            else if (action.Delete) write(action.Delete.TableName, action.Delete.Key, true, false);
          }
          break;
        case 'GetItemCommand':
          read(input.TableName, input.Key?.PK);
          break;
        case 'QueryCommand':
          read(input.TableName, Object.values(input.ExpressionAttributeValues ?? {})[0]);
          break;
      }
      return next(args);
    },
    { step: 'initialize', name: 'keyLoad' },
  );
  return load;
}
