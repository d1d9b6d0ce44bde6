import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { countRoundTrips } from './round-trips.js';

/** A client whose "network" answers every request with an empty JSON object, and counts them. */
function offlineDocumentClient(failFirst = 0) {
  let sent = 0;
  const client = new DynamoDBClient({
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    requestHandler: {
      handle: async () => {
        sent += 1;
        if (sent <= failFirst) {
          const body = JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'try again' });
          return { response: { statusCode: 500, headers: { 'content-type': 'application/x-amz-json-1.0' }, body: Readable.from([Buffer.from(body)]) } };
        }
        return { response: { statusCode: 200, headers: { 'content-type': 'application/x-amz-json-1.0' }, body: Readable.from([Buffer.from('{}')]) } };
      },
    },
  });
  return { doc: DynamoDBDocumentClient.from(client), sent: () => sent };
}

describe('countRoundTrips', () => {
  it('counts one round trip per request the SDK sends, with the command names', async () => {
    const { doc, sent } = offlineDocumentClient();
    const counter = countRoundTrips(doc);

    await doc.send(new GetCommand({ TableName: 't', Key: { PK: 'a', SK: 'b' } }));
    await doc.send(new PutCommand({ TableName: 't', Item: { PK: 'a', SK: 'b' } }));

    expect(counter.count).toBe(2);
    expect(counter.count).toBe(sent());
    expect(counter.commands).toEqual(['GetItemCommand', 'PutItemCommand']);
  });

  it('counts every attempt of a retried request and names the failed ones', async () => {
    const { doc, sent } = offlineDocumentClient(1);
    const counter = countRoundTrips(doc);

    await doc.send(new GetCommand({ TableName: 't', Key: { PK: 'a', SK: 'b' } }));

    expect(sent()).toBe(2);
    expect(counter.count).toBe(2);
    expect(counter.commands).toEqual(['GetItemCommand (failed: InternalServerError)', 'GetItemCommand']);
  });

  it('starts again from zero after reset and stops counting once detached', async () => {
    const { doc } = offlineDocumentClient();
    const counter = countRoundTrips(doc);
    await doc.send(new GetCommand({ TableName: 't', Key: { PK: 'a', SK: 'b' } }));

    counter.reset();
    expect(counter.count).toBe(0);
    counter.detach();
    await doc.send(new GetCommand({ TableName: 't', Key: { PK: 'a', SK: 'b' } }));

    expect(counter.count).toBe(0);
  });
});
