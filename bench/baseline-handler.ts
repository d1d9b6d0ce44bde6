import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

/**
 * The bench's yardstick: the smallest useful DynamoDB Lambda, one PutCommand through the document
 * client. Bundled with the same settings as the service's functions, in the same run.
 */
const endpoint = process.env.DYNAMODB_ENDPOINT;
const doc = DynamoDBDocumentClient.from(new DynamoDBClient(endpoint ? { endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}));

export const handler = async (): Promise<{ statusCode: number }> => {
  await doc.send(new PutCommand({ TableName: process.env.TABLE_NAME, Item: { PK: `BASELINE#${Date.now()}`, SK: 'BASELINE' } }));
  return { statusCode: 204 };
};
