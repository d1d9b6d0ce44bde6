import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { rotateClientSecret, type NewClientKeys } from '#shared/clients/manage-clients.js';
import { signToken } from '#shared/platform/keys/tokens.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { countRoundTrips, type RoundTripCounter } from '../../bench/meters/round-trips.js';
import { startService, type Service } from '../support/service.js';

/**
 * Issue 15, defect 7: access tokens never outlive their client. A rotated secret or a disabled
 * client stops every earlier token within 60 s; a token for a client that does not exist, or
 * with a lifetime out of bounds, is refused; the authorizer reads a client's status at most once
 * a minute per container, and not at all on a warm path or for a bad token.
 * Time is moved with vitest's Date (no sleeping); the authorizer's cache reads the same clock.
 */
let service: Service;
let counter: RoundTripCounter;
let authorizer: (event: { headers: Record<string, string> }) => Promise<{ context: { client_id?: string; auth_error?: string } }>;
const run = promisify(execFile);

beforeAll(async () => {
  service = await startService();
  authorizer = (await import('../../functions/authorizer/handler.js')).handler;
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
const authorize = async (token: string) => (await authorizer({ headers: { authorization: `JWT ${token}` } })).context;

async function issue(keys: Pick<NewClientKeys, 'public_key' | 'secret_key'>) {
  return service.call('auth-token', { method: 'POST', path: '/api/v2/auth/token', body: { public_key: keys.public_key, secret_key: keys.secret_key } });
}
async function tokenOf(keys: NewClientKeys): Promise<string> {
  const res = await issue(keys);
  expect(res.status).toBe(200);
  return res.json.token;
}

/** A merchant route as API Gateway runs it: the authorizer, then the handler with its answer. */
async function readOrder(token: string) {
  const answer = await authorize(token);
  return service.call('orders-read', {
    method: 'GET',
    path: '/api/v2/orders/00000000-0000-4000-8000-000000000000',
    clientId: answer.client_id,
    authError: answer.auth_error,
  });
}

describe('a rotated secret', () => {
  it('stops an earlier token once the status cache (60 s) has expired; a new token works', async () => {
    const client = await service.newClient('Rotating Shop');
    const before = await tokenOf(client);
    expect(await authorize(before)).toEqual({ client_id: client.client_id });

    const rotated = await rotateClientSecret(new DynamoClientStore(service.tables.doc, service.tables.main), client.client_id);
    later(59_000);
    expect(await authorize(before)).toEqual({ client_id: client.client_id }); // still within the minute
    later(1_000);

    const refused = await readOrder(before);
    expect(refused.status).toBe(401);
    expect(refused.json.error).toMatchObject({ type: 'authentication_error', code: 'token_revoked' });
    expect((await readOrder(await tokenOf(rotated))).status).toBe(404); // past auth: the order is simply not there
  });

  it("takes the new secret's tokens at once, though the old status is still cached: a newer generation reads the status again", async () => {
    const client = await service.newClient('Rotated Now Shop');
    expect(await authorize(await tokenOf(client))).toEqual({ client_id: client.client_id }); // status cached at generation 1

    const rotated = await rotateClientSecret(new DynamoClientStore(service.tables.doc, service.tables.main), client.client_id);
    const fresh = await tokenOf(rotated);
    counter.reset();

    expect(await authorize(fresh)).toEqual({ client_id: client.client_id });
    expect(counter.count).toBe(1); // the one refreshing read
    expect(await authorize(fresh)).toEqual({ client_id: client.client_id });
    expect(counter.count).toBe(1); // and the refreshed status is cached
  });
});

describe('a disabled client (npm run client -- disable)', () => {
  it('loses its earlier tokens within 60 s and gets no new token or quote: the 401 of an unknown key', async () => {
    const client = await service.newClient('Disabled Shop');
    const before = await tokenOf(client);
    expect(await authorize(before)).toEqual({ client_id: client.client_id });
    const quote = (publicKey: string) =>
      service.call('quotes-create', {
        method: 'POST',
        path: '/api/v2/quotes',
        headers: { 'x-public-key': publicKey },
        body: { currency: 'USD', items: [{ reference_number: 'r-1', cost: '10.00' }] },
      });
    expect((await quote(client.public_key)).status).toBe(201); // the quote path now holds the client for up to a minute

    const { stdout } = await run('npm', ['run', '-s', 'client', '--', 'disable', client.client_id, '--json'], { env: process.env });
    expect(JSON.parse(stdout)).toEqual({ client_id: client.client_id, disabled: true });
    later(60_000);

    expect(await authorize(before)).toEqual({ auth_error: 'revoked' });
    expect((await readOrder(before)).json.error.code).toBe('token_revoked');
    const [token, unknownToken] = [await issue(client), await issue({ public_key: 'pk_test_nobody', secret_key: client.secret_key })];
    expect(token.status).toBe(401);
    expect(token.json.error).toEqual({ ...unknownToken.json.error, request_id: expect.any(String) });
    const [theirs, unknown] = [await quote(client.public_key), await quote('pk_test_nobody')];
    expect(theirs.status).toBe(401);
    expect(theirs.json.error).toEqual({ ...unknown.json.error, request_id: expect.any(String) });
  }, 60_000);

  it('takes the client id as --client-id too, and fails (exit 1) for an unknown client', async () => {
    const client = await service.newClient('Disabled by flag');
    const { stdout } = await run('npm', ['run', '-s', 'client', '--', 'disable', '--client-id', client.client_id], { env: process.env });
    expect(stdout).toContain(`client ${client.client_id} disabled`);
    expect((await issue(client)).status).toBe(401);

    const failure = await run('npm', ['run', '-s', 'client', '--', 'disable', 'cl_nobody'], { env: process.env }).catch(
      (err: { code: number; stderr: string }) => err,
    );
    expect(failure).toMatchObject({ code: 1, stderr: expect.stringContaining('no client cl_nobody') });
  }, 60_000);
});

describe('tokens the authorizer refuses', () => {
  it('refuses a token for a client that does not exist, though signed with the access key', async () => {
    const token = await signToken('access', 'cl_AAAAAAAAAAAAAAAAAAAAAAAA', { gen: 1 }, 900);
    expect(await authorize(token)).toEqual({ auth_error: 'revoked' });
  });

  it('refuses a lifetime over ACCESS_TOKEN_TTL_SECONDS (900) and an iat more than 60 s ahead, without a read', async () => {
    const client = await service.newClient('Bounds Shop');
    const signed = (ttl: number, now = new Date()) => signToken('access', client.client_id, { gen: 1 }, ttl, now);
    const [tooLong, fromTheFuture, withoutGeneration, longest] = [
      await signed(901),
      await signed(900, new Date(Date.now() + 61_000)),
      await signToken('access', client.client_id, {}, 900),
      await signed(900),
    ];

    counter.reset();
    for (const token of [tooLong, fromTheFuture, withoutGeneration]) expect(await authorize(token)).toEqual({ auth_error: 'invalid' });
    expect(counter.count).toBe(0);
    expect(await authorize(longest)).toEqual({ client_id: client.client_id });
  });
});

describe('the cost of revocation', () => {
  it('reads a client status once per client per 60 s, concurrent misses included; a warm call reads nothing', async () => {
    const client = await service.newClient('Busy Shop');
    const token = await tokenOf(client);

    counter.reset();
    await Promise.all(Array.from({ length: 5 }, () => authorize(token)));
    expect(counter.commands).toEqual(['GetItemCommand']);

    counter.reset();
    for (let second = 0; second < 59; second += 10) {
      expect(await authorize(token)).toEqual({ client_id: client.client_id });
      later(10_000);
    }
    expect(counter.count).toBe(0);

    later(1_000); // 60 s after the first read
    await authorize(token);
    await authorize(token);
    expect(counter.commands).toEqual(['GetItemCommand']);
  });
});
