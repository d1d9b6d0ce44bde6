import { ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DynamoOrderStore } from '#shared/orders/dynamo-order-store.js';
import { startService, type Service } from '../support/service.js';

/** A failure below the handler answers 500 with a fixed message: no stack, no DynamoDB text, no table name. */
let service: Service;
let clientId: string;

beforeAll(async () => {
  service = await startService();
  clientId = (await service.newClient('Errors Shop')).client_id;
});
afterAll(() => service.stop());
afterEach(() => vi.restoreAllMocks());

describe('internal errors', () => {
  it('never leak stack traces, DynamoDB messages or table names', async () => {
    const leak = `Requested resource not found: Table: ${service.tables.main} not found`;
    vi.spyOn(DynamoOrderStore.prototype, 'get').mockRejectedValueOnce(new ResourceNotFoundException({ message: leak, $metadata: {} }));

    const res = await service.call('orders-read', { method: 'GET', path: '/api/v2/orders/00000000-0000-4000-8000-000000000000', clientId });

    expect(res.status).toBe(500);
    expect(res.json).toEqual({ error: { type: 'api_error', code: 'internal_error', message: expect.any(String), request_id: expect.any(String) } });
    for (const secret of [service.tables.main, 'Requested resource', 'ResourceNotFoundException', ' at ', '.ts:']) expect(res.body).not.toContain(secret);
  });
});
