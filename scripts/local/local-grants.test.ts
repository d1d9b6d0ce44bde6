import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { FUNCTIONS } from '#shared/platform/functions.js';
import { ORDER_LIST_INDEX, POLICY_INDEX } from '#shared/platform/dynamo/table-definitions.js';
import { accessesOf, asFunction, granted, holdKeysToGrants, holdToGrants, objectAccessesOf, objectGranted, refusals, type CallInput } from './local-grants.js';
import { checkKeyReads, forgetKeySets, generateKeySet, keySet } from '#shared/platform/keys/signing-keys.js';

/** Each function's calls held to its catalogue entry, as its deployed role holds them. */
const tables = { main: 'main-t', metrics: 'metrics-t' };
const env = { TABLE_NAME: 'main-t', METRICS_TABLE_NAME: 'metrics-t' };

describe('what a call asks for', () => {
  it('names each part of a transaction and each table of a batch by its own IAM action', () => {
    const parts: CallInput = {
      TransactItems: [
        { Put: { TableName: 'main-t' } },
        { Update: { TableName: 'main-t' } },
        { ConditionCheck: { TableName: 'main-t' } },
        { Delete: { TableName: 'metrics-t' } },
      ],
    };
    expect(accessesOf('TransactWriteItemsCommand', parts)).toEqual([
      { action: 'PutItem', table: 'main-t' },
      { action: 'UpdateItem', table: 'main-t' },
      { action: 'ConditionCheckItem', table: 'main-t' },
      { action: 'DeleteItem', table: 'metrics-t' },
    ]);
    expect(accessesOf('BatchWriteItemCommand', { RequestItems: { 'main-t': [], 'metrics-t': [] } })).toEqual([
      { action: 'BatchWriteItem', table: 'main-t' },
      { action: 'BatchWriteItem', table: 'metrics-t' },
    ]);
    expect(accessesOf('QueryCommand', { TableName: 'main-t', IndexName: 'x' })).toEqual([{ action: 'Query', table: 'main-t', index: 'x' }]);
    expect(accessesOf('GetItemCommand', { TableName: 'main-t' })).toEqual([{ action: 'GetItem', table: 'main-t' }]);
  });
});

describe('granted', () => {
  it('grants what the catalogue lists, on the table the environment names, and nothing else', () => {
    expect(FUNCTIONS['orders-read'].tables).toEqual({ main: ['Query'] });
    expect(granted('orders-read', { action: 'Query', table: 'main-t' }, tables)).toBe(true);
    expect(granted('orders-read', { action: 'PutItem', table: 'main-t' }, tables)).toBe(false);
    expect(granted('orders-read', { action: 'Query', table: 'metrics-t' }, tables)).toBe(false);
    expect(granted('orders-read', { action: 'Query', table: 'some-other-table' }, tables)).toBe(false);
  });

  it('grants an index only by its exact name, and only to Query', () => {
    expect(granted('orders-list', { action: 'Query', table: 'main-t', index: ORDER_LIST_INDEX }, tables)).toBe(true);
    expect(granted('orders-list', { action: 'Query', table: 'main-t', index: POLICY_INDEX }, tables)).toBe(false);
    expect(granted('orders-list', { action: 'Scan', table: 'main-t', index: ORDER_LIST_INDEX }, tables)).toBe(false);
  });
});

describe('objects', () => {
  const buckets = { bordereaux: 'b-bucket', evidence: 'e-bucket' };

  it('names a multipart upload by PutObject, and a copy by the object it reads and the one it writes', () => {
    expect(objectAccessesOf('UploadPartCommand', { Bucket: 'b-bucket', Key: 'bordereaux/2026-11/x.csv' })).toEqual([
      { action: 's3:PutObject', bucket: 'b-bucket', key: 'bordereaux/2026-11/x.csv' },
    ]);
    expect(objectAccessesOf('CopyObjectCommand', { Bucket: 'e-bucket', Key: 'files/c/f', CopySource: 'e-bucket/uploads/c/f%20x' })).toEqual([
      { action: 's3:GetObject', bucket: 'e-bucket', key: 'uploads/c/f x' },
      { action: 's3:PutObject', bucket: 'e-bucket', key: 'files/c/f' },
    ]);
  });

  it('grants each use its actions under its prefixes of its own bucket only', () => {
    const check = (name: Parameters<typeof objectGranted>[0], action: string, bucket: string, key: string) =>
      objectGranted(name, { action, bucket, key }, buckets);
    expect(check('evidence-check', 's3:GetObject', 'e-bucket', 'uploads/c/f')).toBe(true);
    expect(check('evidence-check', 's3:PutObject', 'e-bucket', 'files/c/f/1')).toBe(true);
    expect(check('evidence-check', 's3:PutObject', 'e-bucket', 'uploads/c/f')).toBe(false);
    expect(check('evidence-admin', 's3:GetObject', 'e-bucket', 'uploads/c/f')).toBe(false);
    expect(check('evidence-erase', 's3:DeleteObject', 'e-bucket', 'files/c/f/1')).toBe(true);
    expect(check('bordereaux-export', 's3:PutObject', 'b-bucket', 'bordereaux/2026-11/x.csv')).toBe(true);
    expect(check('bordereaux-export', 's3:PutObject', 'b-bucket', 'elsewhere/x.csv')).toBe(false);
    expect(check('bordereaux-export', 's3:PutObject', 'e-bucket', 'bordereaux/x.csv')).toBe(false);
    expect(check('orders-create', 's3:GetObject', 'e-bucket', 'files/c/f/1')).toBe(false);
  });
});

describe('a client held to the grants', () => {
  /** A client whose calls never leave the process: the last middleware answers them. */
  function offlineClient() {
    const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }));
    doc.middlewareStack.add(() => async () => ({ output: { $metadata: {} } as never, response: {} }), { step: 'finalizeRequest', name: 'answerAtOnce' });
    holdToGrants(doc);
    holdToGrants(doc); // once per client
    return doc;
  }

  it("refuses a function's call its role lacks as AccessDeniedException, keeps the refusal, and leaves calls outside a function alone", async () => {
    const saved = { TABLE_NAME: process.env.TABLE_NAME, METRICS_TABLE_NAME: process.env.METRICS_TABLE_NAME };
    Object.assign(process.env, env); // unit files share a worker: given back below
    const doc = offlineClient();
    const before = refusals.length;
    const write = new TransactWriteCommand({ TransactItems: [{ Put: { TableName: 'main-t', Item: { PK: 'a', SK: 'b' } } }] });

    await expect(asFunction('orders-read', () => doc.send(write))).rejects.toMatchObject({
      name: 'AccessDeniedException',
      message: expect.stringContaining('orders-read is not granted dynamodb:PutItem on main-t'),
    });
    await expect(asFunction('orders-read', () => doc.send(new GetCommand({ TableName: 'main-t', Key: { PK: 'a', SK: 'b' } })))).rejects.toMatchObject({
      name: 'AccessDeniedException',
    });
    await expect(
      asFunction('orders-read', () =>
        doc.send(new QueryCommand({ TableName: 'main-t', KeyConditionExpression: 'PK = :p', ExpressionAttributeValues: { ':p': 'a' } })),
      ),
    ).resolves.toBeDefined();
    await expect(doc.send(write)).resolves.toBeDefined();
    expect(refusals.slice(before)).toEqual([
      { function: 'orders-read', action: 'dynamodb:PutItem', resource: 'main-t' },
      { function: 'orders-read', action: 'dynamodb:GetItem', resource: 'main-t' },
    ]);
    refusals.splice(before);
    for (const [name, value] of Object.entries(saved))
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
  });
});

describe('keys', () => {
  it('refuses a function the keys of a kind its entry does not list, as IAM refuses the secret; a read outside a function is not checked', async () => {
    const saved = process.env.SIGNING_KEYS;
    process.env.SIGNING_KEYS = JSON.stringify({ 'order-number': generateKeySet('order-number'), quote: generateKeySet('quote') });
    forgetKeySets();
    holdKeysToGrants();
    const before = refusals.length;
    try {
      await expect(asFunction('orders-list', () => keySet('order-number'))).resolves.toBeDefined();
      await expect(asFunction('orders-read', () => keySet('order-number'))).rejects.toMatchObject({ name: 'AccessDeniedException' });
      await expect(asFunction('orders-list', () => keySet('quote'))).rejects.toMatchObject({ name: 'AccessDeniedException' });
      await expect(keySet('quote')).resolves.toBeDefined();
      expect(refusals.slice(before)).toEqual([
        { function: 'orders-read', action: 'secretsmanager:GetSecretValue', resource: 'order-number keys' },
        { function: 'orders-list', action: 'secretsmanager:GetSecretValue', resource: 'quote keys' },
      ]);
    } finally {
      refusals.splice(before);
      checkKeyReads(() => undefined); // unit files share a worker: no check left behind
      if (saved === undefined) delete process.env.SIGNING_KEYS;
      else process.env.SIGNING_KEYS = saved;
      forgetKeySets();
    }
  });
});
