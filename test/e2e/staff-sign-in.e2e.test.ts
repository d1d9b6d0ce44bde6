import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffRole } from '#shared/platform/staff.js';
import { createClient } from '#shared/clients/manage-clients.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { createDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { testEndpoint } from '../support/dynamo.js';
import { accessToken, http } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { scratchFolder } from '../support/scratch.js';
import { signInOverHttp } from '../support/sign-in.js';
import { readStaffFile } from '#shared/identity/staff-file.js';
import { join } from 'node:path';

/**
 * Issue 37: the staff sign-in over plain HTTP. Each demo user signs in through npm start's OpenID
 * Provider (its login form posted without a browser, the authorization code exchanged with PKCE),
 * and the admin routes take the token by role, as API Gateway's JWT authorizer and the handlers'
 * role check do deployed.
 */
let server: TestServer;
const tokens = {} as Record<StaffRole, string>;

const staffFile = join(scratchFolder('staff-sign-in'), 'staff.json');

beforeAll(async () => {
  server = await startTestServer({ staffFile });
  for (const user of server.staff.users) tokens[user.groups[0]!] = await signInOverHttp(server.staff, user);
});
afterAll(() => server.stop());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const get = (path: string, token?: string) => http('GET', `${server.baseUrl}${path}`, { headers: token ? bearer(token) : {} });

describe('the local OpenID Provider', () => {
  it('issues JWT access tokens with the claims a Cognito access token carries (and the pre-token trigger adds)', () => {
    const claims = decodeJwt(tokens.merchant);
    expect(claims).toMatchObject({
      iss: server.staff.issuer,
      client_id: server.staff.client_id,
      token_use: 'access',
      email: 'merchant@demo-shop.example',
      'cognito:groups': ['merchant'],
      merchant_client_id: server.demo.client_id,
    });
    expect(claims.exp! - claims.iat!).toBe(3600);
  });

  it('refuses a wrong password with the same page as an unknown e-mail, and gives no code', async () => {
    const [claims] = server.staff.users;
    await expect(signInOverHttp(server.staff, { email: claims!.email, password: 'not-the-password' })).rejects.toThrow('the login form answered 401');
    await expect(signInOverHttp(server.staff, { email: 'nobody@insurer.example', password: claims!.password })).rejects.toThrow('the login form answered 401');
  });

  it('redirects only to the registered pages (another redirect URI is refused before any form)', async () => {
    const user = server.staff.users[0]!;
    await expect(signInOverHttp(server.staff, user, 'http://evil.example/admin/')).rejects.toThrow();
  });
});

describe('the admin routes, by role', () => {
  it('take each role on its own routes and answer 403 forbidden_role on the others', async () => {
    const routes: [string, StaffRole][] = [
      ['/api/v2/admin/claims', 'claims'],
      ['/api/v2/admin/audit', 'admin'],
      ['/api/v2/admin/bordereaux/bx_000000000000000000000000', 'finance'],
    ];
    for (const [path, role] of routes) {
      for (const [who, token] of Object.entries(tokens)) {
        const res = await get(path, token);
        if (who === role) {
          // The finance route reads an export that does not exist: past the role check, the handler answers 404.
          expect(res.status, `${who} on ${path}`).toBe(path.includes('bordereaux') ? 404 : 200);
        } else {
          expect(res.status, `${who} on ${path}`).toBe(403);
          expect(res.json.error).toMatchObject({ type: 'invalid_request_error', code: 'forbidden_role' });
        }
      }
    }
  });

  it('answer 401 without a token, with a token of another signer, or with a merchant access token', async () => {
    expect((await get('/api/v2/admin/claims')).status).toBe(401);
    // Claims copied from a genuine token, signed with a key of our own (HS256 and the pages' client id).
    const forged = await new SignJWT({ ...decodeJwt(tokens.claims) }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('x'.repeat(32)));
    const refused = await get('/api/v2/admin/claims', forged);
    expect(refused.status).toBe(401);
    expect(refused.json.error.code).toBe('operator_credentials_required');
    const merchantApiToken = await accessToken(server.baseUrl, server.demo);
    expect((await get('/api/v2/admin/claims', merchantApiToken)).status).toBe(401);
  });

  it('still take the operator key, the scripts’ stand-in, for every staff role', async () => {
    const operator = { authorization: `Operator ${server.operatorKey}` };
    expect((await http('GET', `${server.baseUrl}/api/v2/admin/claims`, { headers: operator })).status).toBe(200);
    expect((await http('GET', `${server.baseUrl}/api/v2/admin/audit`, { headers: operator })).status).toBe(200);
  });
});

describe('a merchant user', () => {
  it('reads every portal route for its own client only, the client taken from the token', async () => {
    // Another merchant with data on every portal route: an order (ledger, statement, events) and a webhook endpoint.
    const doc = createDocumentClient(testEndpoint(), 'us-east-1');
    const other = await createClient(new DynamoClientStore(doc, process.env.TABLE_NAME!), { name: 'Other Venue' });
    doc.destroy();
    const otherAuth = { authorization: `JWT ${await accessToken(server.baseUrl, other)}` };
    const demoAuth = { authorization: `JWT ${await accessToken(server.baseUrl, server.demo)}` };
    const hook = (auth: Record<string, string>, url: string) => http('POST', `${server.baseUrl}/api/v2/webhook_endpoints`, { headers: auth, body: { url } });
    const otherHook = await hook(otherAuth, 'http://localhost:9999/other');
    expect(otherHook.status, JSON.stringify(otherHook.json)).toBe(201);
    expect((await hook(demoAuth, 'http://localhost:9999/demo')).status).toBe(201);
    const order = await http('POST', `${server.baseUrl}/api/v2/orders`, {
      headers: otherAuth,
      body: {
        order_number: 'OTHER-1',
        currency: 'USD',
        customer: { email: 'c@example.org' },
        items: [{ name: 'Seat', reference_number: 's1', cost: '50.00' }],
      },
    });
    expect(order.status, JSON.stringify(order.json)).toBe(201);
    const period = new Date().toISOString().slice(0, 7);
    const portalGets = ['/api/v2/metrics/conversion', '/api/v2/ledger', `/api/v2/statements/${period}`, '/api/v2/webhook_endpoints', '/api/v2/events'];
    for (const path of portalGets) {
      const res = await get(path, tokens.merchant);
      expect(res.status, path).toBe(200);
      const body = JSON.stringify(res.json);
      expect(body, path).not.toContain(other.client_id);
      expect(body, path).not.toContain(String(otherHook.json.id));
      expect(body, path).not.toContain('OTHER-1');
    }
    const endpoints = await get('/api/v2/webhook_endpoints', tokens.merchant);
    expect((endpoints.json.data as { url: string }[]).map((e) => e.url)).toEqual(['http://localhost:9999/demo']);
    // Another client's endpoint by id: not found, as for any other client's record.
    expect((await get(`/api/v2/webhook_endpoints/${String(otherHook.json.id)}`, tokens.merchant)).status).toBe(404);
    // A client named in the request is not a parameter of any route: refused, never followed.
    expect((await get(`/api/v2/ledger?client_id=${other.client_id}`, tokens.merchant)).status).toBe(422);
  });

  it('is refused on the merchant back-end’s other routes (orders, policies): 403 forbidden_role', async () => {
    const orders = await get('/api/v2/orders', tokens.merchant);
    expect(orders.status).toBe(403);
    expect(orders.json.error.code).toBe('forbidden_role');
  });

  it('of a shop disabled since is told so (403 client_disabled), not sent round to sign in again (401)', async () => {
    const doc = createDocumentClient(testEndpoint(), 'us-east-1');
    const store = new DynamoClientStore(doc, process.env.TABLE_NAME!);
    const shop = await createClient(store, { name: 'Closing Venue' });
    const added = await http('POST', `${server.baseUrl}/api/v2/admin/staff`, {
      headers: bearer(tokens.admin),
      body: { email: 'sam@closing-venue.example', groups: ['merchant'], client_id: shop.client_id },
    });
    expect(added.status).toBe(201);
    const person = (await readStaffFile(staffFile)).users.find((user) => user.email === 'sam@closing-venue.example')!;
    const token = await signInOverHttp(server.staff, person);
    // Disabled before the portal's first call (the authorizer keeps a client's status a minute).
    await store.disable(shop.client_id);
    doc.destroy();
    const refused = await get('/api/v2/metrics/conversion', token);
    expect([refused.status, refused.json.error.code]).toEqual([403, 'client_disabled']);
    expect(refused.json.error.message).toContain('disabled');
  });

  it('whose token is a staff token of another group reaches no merchant route', async () => {
    const res = await get('/api/v2/metrics/conversion', tokens.claims);
    expect(res.status).toBe(403);
  });
});
