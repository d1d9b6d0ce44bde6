import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NewClientKeys } from '#shared/clients/manage-clients.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { publicKeyKey } from '#shared/platform/dynamo/keys.js';
import { countRoundTrips, type RoundTripCounter } from '../../bench/meters/round-trips.js';
import { startService, type Service } from '../support/service.js';

/**
 * Issue 15, defect 8: after 10 wrong secrets for one public key in 5 minutes, POST /auth/token
 * answers 429 for that key, from the 11th attempt on, right secret or not, for 5 minutes; the
 * success path still costs one GetItem. Time is moved with vitest's Date (no sleeping).
 */
let service: Service;
let counter: RoundTripCounter;

beforeAll(async () => {
  service = await startService();
  counter = countRoundTrips(sharedDocumentClient());
});
afterAll(async () => {
  counter.detach();
  await service.stop();
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date());
});
afterEach(() => {
  vi.useRealTimers();
});

const later = (ms: number) => vi.setSystemTime(Date.now() + ms);
const signIn = (publicKey: string, secretKey: string) =>
  service.call('auth-token', { method: 'POST', path: '/api/v2/auth/token', body: { public_key: publicKey, secret_key: secretKey } });
const wrong = (client: NewClientKeys) => signIn(client.public_key, `${client.secret_key}x`);
const right = (client: NewClientKeys) => signIn(client.public_key, client.secret_key);

describe('POST /auth/token lockout', () => {
  it('answers 401 to 10 wrong secrets, then 429 to the 11th and to the right secret, for 5 minutes', async () => {
    const client = await service.newClient('Guessed Shop');
    for (let attempt = 1; attempt <= 10; attempt++) {
      const res = await wrong(client);
      expect(res.status, `attempt ${attempt}`).toBe(401);
      expect(res.json.error.code).toBe('invalid_credentials');
    }

    const eleventh = await wrong(client);
    expect(eleventh.status).toBe(429);
    expect(eleventh.json.error).toMatchObject({ type: 'rate_limit_error', code: 'too_many_failed_attempts', message: expect.stringContaining('retry after') });
    expect(eleventh.headers['retry-after']).toBe('300');
    expect((await right(client)).status).toBe(429);

    later(5 * 60_000 - 1);
    expect((await right(client)).status).toBe(429);
    later(1);
    expect((await right(client)).status).toBe(200);
  });

  it('lets a concurrent burst of 30 wrong secrets get at most 10 answers of 401, the rest 429, and keeps the list short', async () => {
    const client = await service.newClient('Burst Shop');

    const statuses = (await Promise.all(Array.from({ length: 30 }, () => wrong(client)))).map((res) => res.status);

    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((status) => status !== 401).every((status) => status === 429)).toBe(true);
    expect((await right(client)).status).toBe(429);
    const { Item } = await service.tables.doc.send(new GetCommand({ TableName: service.tables.main, Key: publicKeyKey(client.public_key) }));
    expect(Item?.failed_sign_ins.length).toBeLessThanOrEqual(20);
  });

  it('counts only the last 5 minutes: 9 wrong, 5 minutes later 9 more, and the right secret still works', async () => {
    const client = await service.newClient('Forgetful Shop');
    for (let attempt = 0; attempt < 9; attempt++) await wrong(client);
    later(5 * 60_000);
    for (let attempt = 0; attempt < 9; attempt++) expect((await wrong(client)).status).toBe(401);
    expect((await right(client)).status).toBe(200);
  });

  it('writes nothing for an unknown public key (public keys are public: nothing to protect)', async () => {
    const rows = await service.rowCount();
    for (let attempt = 0; attempt < 12; attempt++) expect((await signIn('pk_test_unknown', 'sk_test_guess')).status).toBe(401);
    expect(await service.rowCount()).toBe(rows);
  });

  it('costs the success path exactly one DynamoDB call', async () => {
    const client = await service.newClient('Honest Shop');
    await wrong(client); // a failure on record does not make success dearer

    counter.reset();
    expect((await right(client)).status).toBe(200);
    expect(counter.commands).toEqual(['GetItemCommand']);
  });
});
