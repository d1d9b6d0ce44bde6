import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { jwtVerify } from 'jose';

/**
 * The bench's yardstick: the least handler this stack allows, one jose `jwtVerify` of the event's
 * HS256 token (as every request of the service carries one) and then one PutCommand through the
 * document client. Bundled with the same settings as the service's functions, in the same run.
 */
const endpoint = process.env.DYNAMODB_ENDPOINT;
const doc = DynamoDBDocumentClient.from(
  new DynamoDBClient(endpoint ? { endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
);
const secret = new TextEncoder().encode(process.env.BASELINE_JWT_SECRET);

export const handler = async (event: { token: string }): Promise<{ statusCode: number }> => {
  await jwtVerify(event.token, secret, { algorithms: ['HS256'] });
  await doc.send(new PutCommand({ TableName: process.env.TABLE_NAME, Item: { PK: `BASELINE#${Date.now()}`, SK: 'BASELINE' } }));
  return { statusCode: 204 };
};
