import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createClient } from '../../shared/auth/clients.js';
import { DynamoClientStore } from '../../shared/infra/client-store.js';
import { sharedDocumentClient } from '../../shared/infra/dynamo-client.js';
import { countRoundTrips } from '../../shared/infra/round-trips.js';
import type { Fixtures } from '../fixtures.js';
import type { Recorder } from '../report.js';

/** 3 · DynamoDB round trips per operation, counted on the functions' shared client. */
export async function countOperationRoundTrips(record: Recorder, fixtures: Fixtures): Promise<void> {
  const { call, requests, tokenFor, orderId } = fixtures;
  const doc = sharedDocumentClient();
  // The cold-import section leaves the shared client's pooled sockets idle for a minute, and
  // DynamoDB Local may have reset them; one uncounted read first, so that a transport retry on a
  // dead socket is not charged to the first operation measured.
  await doc.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { PK: 'BENCH#PING', SK: 'PING' } }));
  const counter = countRoundTrips(doc);
  const trips = async (subject: string, goal: number, run: () => Promise<unknown>) => {
    counter.reset();
    await run();
    record({
      subject,
      figure: counter.count > goal ? `${counter.count} (${counter.commands.join(', ')})` : String(counter.count),
      goal: `≤ ${goal}`,
      ok: counter.count <= goal,
    });
  };
  try {
    // A client whose status this process has not read yet, then the same token again: a cache hit.
    const unseen = await tokenFor(await createClient(new DynamoClientStore(doc, process.env.TABLE_NAME!), { name: 'Bench Shop, unseen' }));
    const authorize = () => call('authorizer', { method: 'GET', path: '/', headers: { authorization: `JWT ${unseen}` } });
    await trips('authorizer (status cache miss)', 1, authorize);
    await trips('authorizer (warm, cached status)', 0, authorize);
    await trips('auth token', 1, () => call('auth-token', requests.authToken()));
    await trips('quote', 1, () => call('quotes-create', requests.quote()));
    await trips('opt-out order', 1, () => call('orders-create', requests.optOut()));
    await trips('opt-in order (quote token)', 1, () => call('orders-create', requests.optIn()));
    await trips('opt-in order (no token: client read)', 2, () => call('orders-create', requests.optInWithoutToken()));
    await trips('GET order', 1, () => call('orders-read', requests.readOrder(orderId)));
    await trips('PATCH order', 2, () => call('orders-change', requests.changeOrder(orderId, 'b-1')));
  } finally {
    counter.detach();
  }
}
