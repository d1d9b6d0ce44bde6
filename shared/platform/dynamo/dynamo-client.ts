import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { loadConfig } from '../config.js';

/**
 * Builds the document client. Functions call `sharedDocumentClient()` so one client lives per
 * cold start; tests and scripts may build their own.
 */
export function createDocumentClient(endpoint = loadConfig().dynamodbEndpoint, region = loadConfig().region): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    region,
    // A list page queries all 64 list shards at once (shared/platform/dynamo/keys.ts LIST_SHARDS); the SDK's
    // default of 50 sockets would queue some of them.
    requestHandler: { httpAgent: { keepAlive: true, maxSockets: 128 }, httpsAgent: { keepAlive: true, maxSockets: 128 } },
    ...(endpoint ? { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
}

let shared: DynamoDBDocumentClient | undefined;

export function sharedDocumentClient(): DynamoDBDocumentClient {
  shared ??= createDocumentClient();
  return shared;
}
