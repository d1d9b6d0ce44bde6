import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEXT_KEPT_MS } from '#shared/claims/claim.js';
import { readClaim } from '#shared/claims/claims.js';
import { DynamoClaimStore } from '#shared/claims/dynamo-claim-store.js';
import { captureLogs } from '../support/logs.js';
import { startReceiver, type Delivery, type Receiver } from '../support/receiver.js';
import type { Service } from '../support/service.js';

/**
 * Claims and privacy (issue 19): a claim's description, the operator's notes and the customer's
 * answers may hold health data. A whole claim life runs with markers in every free-text field —
 * filed, documents asked for and given, approved and paid; another denied, another withdrawn, and
 * refused requests carrying the text — through the real handlers, DynamoDB Local's stream, the
 * webhook dispatcher and a real receiver, with every log line captured at DEBUG. Then: the merchant
 * got claim.submitted, claim.approved, claim.paid, claim.denied and claim.withdrawn, signed, with ids, statuses and
 * amounts only; the text is in no log line, no event, no delivery record, not in the metrics table,
 * and in the main table only in the claims' own text records — which the clock, moved past the
 * erase time, no longer shows.
 */
process.env.WEBHOOK_URLS = 'local';

let service: Service;
let receiver: Receiver;
let receiverUrl: string;
let logs: string[] = [];
let received: Delivery[];

const DESCRIPTION = 'Diagnosed with Zyxomatosis (marker-desc-8731) by Dr Quill on the morning of the concert.';
const NOTE = 'Please send the Zyxomatosis discharge letter (marker-note-4410).';
const ANSWER = 'Discharge letter reference marker-answer-2286 from St Quill hospital.';
const REFUSED = 'Refused request text marker-refused-9902.';
const markers = ['Zyxomatosis', 'marker-desc-8731', 'marker-note-4410', 'marker-answer-2286', 'marker-refused-9902', 'Dr Quill', 'St Quill'];

beforeAll(async () => {
  logs = captureLogs();
  const { startService } = await import('../support/service.js');
  service = await startService();
  receiver = await startReceiver();
  ({ url: receiverUrl, received } = receiver);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await service.stop();
  await receiver.stop();
});

describe('a claim’s text', () => {
  it('reaches the operator and the customer only: never a log line, an event, a delivery, the metrics table; erased 90 days after closing', async () => {
    const support = await import('../support/claims.js');
    const shop = await support.claimShop(service, 'Private Claims Shop');
    const endpoint = await service.call('webhook-endpoints', {
      method: 'POST',
      path: '/api/v2/webhook_endpoints',
      clientId: shop.clientId,
      body: { url: receiverUrl, events: ['claim.submitted', 'claim.approved', 'claim.denied', 'claim.paid', 'claim.withdrawn'] },
    });
    expect(endpoint.status).toBe(201);

    // One claim through its whole life.
    const order = await support.protectedOrder(service, shop, ['80.00', '20.00']);
    const token = await support.sessionToken(service, shop, order);
    const filed = await support.fileClaim(service, token, { policy_numbers: [order.policies[0]!.policy_number], description: DESCRIPTION });
    expect(filed.status).toBe(201);
    const id = filed.json.claim_id as string;
    expect((await support.decide(service, id, { decision: 'request_documents', note: NOTE })).status).toBe(200);
    expect((await support.asCustomer(service, token, 'POST', `/api/v2/claims/${id}/respond`, { message: ANSWER })).status).toBe(200);
    expect((await support.asOperator(service, 'GET', `/api/v2/admin/claims/${id}`)).json.description).toBe(DESCRIPTION);
    expect((await support.decide(service, id, { decision: 'approve', amount: '75.00', note: NOTE })).json.status).toBe('Approved');
    const paid = await support.asOperator(service, 'POST', `/api/v2/admin/claims/${id}/paid`, { payout_reference: 'PAYOUT-77' });
    expect(paid.json.status).toBe('Paid');
    expect((await support.asCustomer(service, token, 'GET', `/api/v2/claims/${id}`)).json.messages.map((m: { text: string }) => m.text)).toEqual([
      NOTE,
      ANSWER,
      NOTE,
    ]);

    // Another denied, another withdrawn; refused requests that carry text.
    const second = await support.fileClaim(service, token, { policy_numbers: [order.policies[1]!.policy_number], description: DESCRIPTION });
    expect((await support.decide(service, second.json.claim_id, { decision: 'deny', note: NOTE })).json.status).toBe('Denied');
    const third = await support.fileClaim(service, token, { policy_numbers: [order.policies[1]!.policy_number], description: DESCRIPTION });
    expect((await support.asCustomer(service, token, 'POST', `/api/v2/claims/${third.json.claim_id}/withdraw`)).json.status).toBe('Withdrawn');
    expect(
      (await support.fileClaim(service, token, { policy_numbers: [order.policies[0]!.policy_number], reason: 'boredom', description: REFUSED })).status,
    ).toBe(422);
    expect((await support.fileClaim(service, token, { policy_numbers: [order.policies[0]!.policy_number], description: REFUSED })).status).toBe(409);
    expect((await support.decide(service, id, { decision: 'deny', note: REFUSED })).status).toBe(409);
    expect((await support.asCustomer(service, 'not-a-token', 'POST', '/api/v2/claims', { description: REFUSED })).status).toBe(401);

    // The merchant hears of each step, signed, with facts only.
    await service.drainStreams();
    await expect.poll(() => received.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(7);
    const hook = new Webhook(endpoint.json.secret as string);
    const events = received.map(
      (delivery) => hook.verify(delivery.body, delivery.headers as Record<string, string>) as { type: string; data: Record<string, any> },
    );
    expect(events.map((event) => event.type).sort()).toEqual(
      ['claim.approved', 'claim.denied', 'claim.paid', 'claim.submitted', 'claim.submitted', 'claim.submitted', 'claim.withdrawn'].sort(),
    );
    const approved = events.find((event) => event.type === 'claim.approved')!;
    expect(approved.data).toEqual({
      order_number: order.order_number,
      service_order_id: order.service_order_id,
      claim: {
        claim_id: id,
        status: 'Approved',
        currency: 'USD',
        amount_claimed: '80.00',
        amount_approved: '75.00',
        payout_reference: null,
        policy_numbers: [order.policies[0]!.policy_number],
      },
    });
    expect(events.find((event) => event.type === 'claim.paid')!.data.claim).toMatchObject({ status: 'Paid', payout_reference: 'PAYOUT-77' });

    // Nowhere but the claims' own text records.
    const bodies = received.map((delivery) => delivery.body).join('\n');
    const main = (await service.tables.doc.send(new ScanCommand({ TableName: service.tables.main }))).Items ?? [];
    const metrics = (await service.tables.doc.send(new ScanCommand({ TableName: service.tables.metrics }))).Items ?? [];
    const outsideText = JSON.stringify(main.filter((record) => record.SK !== 'TEXT'));
    const textRecords = main.filter((record) => record.SK === 'TEXT');
    expect(textRecords).toHaveLength(3);
    for (const marker of markers) {
      expect(bodies).not.toContain(marker);
      expect(outsideText).not.toContain(marker);
      expect(JSON.stringify(metrics)).not.toContain(marker);
      expect(logs.join('')).not.toContain(marker);
    }
    const eventRecords = JSON.stringify(main.filter((record) => String(record.entity).startsWith('webhook_')));
    expect(eventRecords).toContain('claim.approved');
    for (const text of [bodies, eventRecords, JSON.stringify(metrics), logs.join('')]) {
      expect(text).not.toContain(order.email);
      expect(text).not.toContain('illness'); // the reason, with the order, would tell the merchant about a customer's health
    }
    expect(logs.join('')).toContain('"route":"POST /api/v2/claims"'); // the log lines were captured

    // Closed claims' text carries its erase time; past it the claim is shown without it.
    const store = new DynamoClaimStore(service.tables.doc, service.tables.main);
    const closedAt = Date.parse(paid.json.closed_at);
    const later = await readClaim({ claims: store, clock: { now: () => new Date(closedAt + TEXT_KEPT_MS) } }, id);
    expect(later.text).toBeUndefined();
    expect(later.claim).toMatchObject({ status: 'Paid', amount_approved: 7500 });
    expect(textRecords.every((record) => typeof record.expires_at === 'number')).toBe(true);
  });
});
