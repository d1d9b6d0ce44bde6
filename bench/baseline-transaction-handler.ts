import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { jwtVerify } from 'jose';

/**
 * A second yardstick, reported beside the goals: the baseline handler (same client, same jose
 * `jwtVerify` first, same bundling) sending the shape of write an opt-out order sends, one
 * TransactWrite of a conditional Put and a counter Update, instead of one Put. It shows how much
 * of orders-create's cold ratio is the database's answer to a transaction rather than our code.
 */
const endpoint = process.env.DYNAMODB_ENDPOINT;
const doc = DynamoDBDocumentClient.from(
  new DynamoDBClient(endpoint ? { endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
);
const secret = new TextEncoder().encode(process.env.BASELINE_JWT_SECRET);

export const handler = async (event: { token: string }): Promise<{ statusCode: number }> => {
  await jwtVerify(event.token, secret, { algorithms: ['HS256'] });
  const table = process.env.METRICS_TABLE_NAME;
  const key = `BASELINE#${Date.now()}#${Math.random()}`;
  await doc.send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: table, Item: { PK: key, SK: 'CHECKOUT' }, ConditionExpression: 'attribute_not_exists(PK)' } },
        {
          Update: {
            TableName: table,
            Key: { PK: 'BASELINE#COUNT', SK: 'DAY' },
            UpdateExpression: 'ADD opted_out :one',
            ExpressionAttributeValues: { ':one': 1 },
          },
        },
      ],
    }),
  );
  return { statusCode: 204 };
};
