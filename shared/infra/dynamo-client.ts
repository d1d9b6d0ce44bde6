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
