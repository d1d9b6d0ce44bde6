import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { loadConfig } from '../config.js';

/**
 * The credentials of a client of DynamoDB Local (npm start, the tests, the bench; never deployed).
 * DynamoDB Local keeps a database per access key unless it runs with -sharedDb: the tests give
 * each file one of its own (DYNAMODB_LOCAL_DATABASE, test/support/dynamo.ts), every client of
 * that file naming it. An access key holds letters and digits only.
 */
export const localDynamoCredentials = () => ({ accessKeyId: process.env.DYNAMODB_LOCAL_DATABASE || 'local', secretAccessKey: 'local' });

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
    ...(endpoint ? { endpoint, credentials: localDynamoCredentials() } : {}),
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
