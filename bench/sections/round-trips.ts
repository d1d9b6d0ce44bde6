import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createClient } from '#shared/clients/manage-clients.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { countRoundTrips } from '../meters/round-trips.js';
import { placeOrder, type Fixtures } from '../fixtures.js';
import type { Recorder } from '../report.js';

/** 3 · DynamoDB round trips per operation, counted on the functions' shared client. */
export async function countOperationRoundTrips(record: Recorder, fixtures: Fixtures): Promise<void> {
  const { call, requests, tokenFor, orderId, client } = fixtures;
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
    // The merchant's check before charging: an opt-in token reads whether its quote sold an order already.
    const decode = (order: { body?: unknown }) =>
      call('quotes-decode', {
        method: 'GET',
        path: '/api/v2/quotes/decode',
        query: { token: (order.body as { token: string }).token },
        clientId: client.client_id,
      });
    await trips('decode (opt-in token: its redemption)', 1, () => decode(requests.optIn()));
    await trips('decode (opt-out token)', 0, () => decode(requests.optOut()));
    await trips('opt-out order', 1, () => call('orders-create', requests.optOut()));
    // An order with a quote token reads the terms version its quote sealed, kept per container
    // (versions never change): the first order of a client's version in a container reads it, the
    // on-sale after it does not. Without a token it reads the client (its version in force), kept a minute.
    await trips('opt-in order (quote token, first of its client: terms read)', 2, () => call('orders-create', requests.optIn()));
    await trips('opt-in order (quote token, terms cached)', 1, () => call('orders-create', requests.optIn()));
    await trips('opt-in order (no token: client read)', 2, () => call('orders-create', requests.optInWithoutToken()));
    await trips('GET order', 1, () => call('orders-read', requests.readOrder(orderId)));
    // A change prices under the replaced policy's terms version, read once per container too.
    await trips('PATCH order (first of its terms version: read)', 3, () => call('orders-change', requests.changeOrder(orderId, 'b-1')));
    await trips('PATCH order (terms version cached)', 2, () => call('orders-change', requests.changeOrder(orderId, 'b-2', 'vip-2')));

    // Claims (issue 19): the customer's session, filing, and the operator's decision and payout.
    const withCustomer = requests.optInWithoutToken();
    const orderNumber = (withCustomer.body as { order_number: string }).order_number;
    withCustomer.body = { ...withCustomer.body, customer: { email: 'bench.claimant@example.org' } } as typeof withCustomer.body;
    await placeOrder(call, withCustomer);
    let session: { claim_token: string; policies: { policy_number: string }[] } | undefined;
    await trips('claim session (key, reserve attempts, order number, order, give back)', 5, async () => {
      const answer = await call('claims-session', {
        method: 'POST',
        path: '/api/v2/claims/sessions',
        body: { order_number: orderNumber, email: 'bench.claimant@example.org', public_key: client.public_key },
      });
      session = JSON.parse(answer.body!) as typeof session;
    });
    let claimId = '';
    // The order (Query), the customer's claims at other merchants in the last days (Query: the
    // signals staff see, by the keyed e-mail the order gives, so after it), then the claim (TransactWriteItems).
    await trips('file a claim', 3, async () => {
      const answer = await call('claims-customer', {
        method: 'POST',
        path: '/api/v2/claims',
        headers: { authorization: `Bearer ${session!.claim_token}` },
        body: { policy_numbers: session!.policies.map((p) => p.policy_number), reason: 'illness', description: 'Bench claim.' },
      });
      claimId = (JSON.parse(answer.body!) as { claim_id: string }).claim_id;
    });
    const operator = (path: string, body: unknown) => call('claims-admin', { method: 'POST', path, operator: 'bench-operator', body });
    await trips('claim decision (approve)', 2, () => operator(`/api/v2/admin/claims/${claimId}/decision`, { decision: 'approve' }));
    await trips('claim payout', 2, () => operator(`/api/v2/admin/claims/${claimId}/paid`, { payout_reference: 'BENCH-1' }));
  } finally {
    counter.detach();
  }
}
