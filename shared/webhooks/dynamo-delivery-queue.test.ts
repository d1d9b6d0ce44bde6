import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { recordEvent } from './dispatch-webhooks.js';
import { BATCH_WRITE_ATTEMPTS, DynamoDeliveryQueue } from './dynamo-delivery-queue.js';
import { DynamoEventLog } from './dynamo-event-log.js';
import { BATCH_WRITE_MAX_ITEMS, MAX_ENDPOINTS } from './webhook-endpoints.js';

/**
 * The deliveries' BatchWrite (issue 36.4): what DynamoDB leaves unprocessed is written again, a
 * bounded number of times; then the write throws, so the stream gives the batch again and nothing
 * is lost silently. A document client that answers as DynamoDB does under throttling stands in
 * for the table: the loop is the adapter's own, not DynamoDB's.
 */
const TABLE = 'main';
const event = {
  id: 'evt_aaaaaaaaaaaaaaaaaaaaaaaa',
  type: 'order.created' as const,
  created: '2026-11-27T10:00:00.000Z',
  client_id: 'cl_1',
  order_id: 'ord_1',
  data: { service_order_id: 'ord_1' },
};
const endpoints = Array.from({ length: 3 }, (_, n) => ({ id: `we_${n}`, url: `https://hooks.example.com/${n}` }));
const dueBy = new Date('2026-11-27T10:01:00.000Z');

/** A document client whose BatchWrites leave `unprocessed(call)` of their requests unprocessed; other commands answer empty (no event kept yet). */
function throttled(unprocessed: (call: number, requests: unknown[]) => unknown[]) {
  const batchWrites: unknown[][] = [];
  const send = vi.fn((command: unknown) => {
    if (command instanceof BatchWriteCommand) {
      const requests = command.input.RequestItems![TABLE]!;
      batchWrites.push(requests);
      // A loop with no bound would go on for ever: stop it here, well past any sane bound.
      if (batchWrites.length > 100) throw new Error('still retrying after 100 BatchWrites');
      const left = unprocessed(batchWrites.length, requests);
      return Promise.resolve(left.length ? { UnprocessedItems: { [TABLE]: left } } : {});
    }
    return Promise.resolve({ Items: [] });
  });
  return { doc: { send } as unknown as DynamoDBDocumentClient, batchWrites, send };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('queuing an event’s deliveries', () => {
  it('writes again what DynamoDB left unprocessed until all is written', async () => {
    const { doc, batchWrites } = throttled((call, requests) => (call < 3 ? requests.slice(1) : []));
    const queued = new DynamoDeliveryQueue(doc, TABLE).enqueue(event, endpoints, dueBy);
    await vi.runAllTimersAsync();
    expect((await queued).map((d) => d.endpoint_id)).toEqual(['we_0', 'we_1', 'we_2']);
    expect(batchWrites.map((requests) => requests.length)).toEqual([3, 2, 1]);
  });

  it('gives up after BATCH_WRITE_ATTEMPTS with an error naming what is left, and the event is not kept (the stream gives the batch again)', async () => {
    const { doc, batchWrites, send } = throttled((_call, requests) => requests);
    const stores = { eventLog: new DynamoEventLog(doc, TABLE), deliveries: new DynamoDeliveryQueue(doc, TABLE) };
    const recorded = recordEvent(stores, event, endpoints, dueBy);
    const outcome = expect(recorded).rejects.toThrow(`3 of 3 deliveries of event ${event.id} still unprocessed after ${BATCH_WRITE_ATTEMPTS} BatchWrites`);
    await vi.runAllTimersAsync();
    await outcome;
    expect(batchWrites).toHaveLength(BATCH_WRITE_ATTEMPTS);
    // Deliveries first, the event last: with deliveries missing, the event record is not written.
    const commands = send.mock.calls.map(([command]) => (command as object).constructor.name);
    expect(commands.filter((name) => name === 'UpdateCommand')).toEqual([]);
  });

  it('one BatchWrite holds a delivery for each of MAX_ENDPOINTS endpoints: MAX_ENDPOINTS stays within BatchWriteItem’s 25', () => {
    expect(BATCH_WRITE_MAX_ITEMS).toBe(25);
    expect(MAX_ENDPOINTS).toBeLessThanOrEqual(BATCH_WRITE_MAX_ITEMS);
  });
});
