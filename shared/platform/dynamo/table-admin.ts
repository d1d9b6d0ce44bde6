import {
  CreateTableCommand,
  DeleteTableCommand,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { tableDefinitions, type TableDefinition } from './table-definitions.js';

/**
 * Creates the tables from the shared definitions (the CDK stack builds the same ones). Used by
 * the local stack, the tests and the bench, never by the functions.
 */
export interface TableNames {
  main: string;
  metrics: string;
}

async function createTable(client: DynamoDBClient, definition: TableDefinition, name: string): Promise<void> {
  try {
    await client.send(
      new CreateTableCommand({
        TableName: name,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: definition.partitionKey, AttributeType: 'S' },
          { AttributeName: definition.sortKey, AttributeType: 'S' },
          ...(definition.globalIndexes ?? []).flatMap((index) =>
            [index.partitionKey, ...(index.sortKey ? [index.sortKey] : [])].map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
          ),
        ],
        KeySchema: [
          { AttributeName: definition.partitionKey, KeyType: 'HASH' },
          { AttributeName: definition.sortKey, KeyType: 'RANGE' },
        ],
        ...(definition.stream
          ? {
              StreamSpecification: {
                StreamEnabled: true,
                StreamViewType: definition.stream === 'new-image' ? ('NEW_IMAGE' as const) : ('NEW_AND_OLD_IMAGES' as const),
              },
            }
          : {}),
        ...(definition.globalIndexes?.length
          ? {
              GlobalSecondaryIndexes: definition.globalIndexes.map((index) => ({
                IndexName: index.name,
                KeySchema: [
                  { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
                  ...(index.sortKey ? [{ AttributeName: index.sortKey, KeyType: 'RANGE' as const }] : []),
                ],
                Projection: { ProjectionType: index.projection === 'all' ? ('ALL' as const) : ('KEYS_ONLY' as const) },
              })),
            }
          : {}),
      }),
    );
  } catch (err) {
    if (!(err instanceof ResourceInUseException)) throw err; // already there: fine
    return;
  }
  await waitUntilTableExists({ client, maxWaitTime: 30, minDelay: 0.2, maxDelay: 1 }, { TableName: name });
  if (definition.timeToLiveAttribute) {
    await client.send(
      new UpdateTimeToLiveCommand({ TableName: name, TimeToLiveSpecification: { Enabled: true, AttributeName: definition.timeToLiveAttribute } }),
    );
  }
}

export async function createTables(client: DynamoDBClient, names: TableNames): Promise<void> {
  await Promise.all(tableDefinitions.map((definition) => createTable(client, definition, names[definition.id])));
}

export async function deleteTables(client: DynamoDBClient, names: TableNames): Promise<void> {
  const deleteTable = async (TableName: string): Promise<void> => {
    try {
      await client.send(new DeleteTableCommand({ TableName }));
    } catch {
      // already gone: nothing to delete
    }
  };
  await Promise.all(Object.values(names).map(deleteTable));
}
