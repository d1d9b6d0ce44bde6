import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asCustomer, asOperator, claimShop, fileClaim, openSession, protectedOrder, type ClaimShop } from '../support/claims.js';
import { startService, type HandlerResult, type Service } from '../support/service.js';

/**
 * Issue 35.7: answers that carry a credential or health data must not be kept by a browser or a
 * proxy. The claim session's bearer token, a webhook endpoint's secret (create and rotate) and the
 * operator's and the customer's claim view (the claim's text) answer `Cache-Control: no-store`, as
 * every API answer does (the response path's default), errors included.
 */
process.env.WEBHOOK_URLS = 'local';

let service: Service;
let shop: ClaimShop;
beforeAll(async () => {
  service = await startService();
  shop = await claimShop(service, 'No Store Shop');
});
afterAll(() => service.stop());

const noStore = (res: HandlerResult, what: string) => {
  expect(res.headers['cache-control'], `${what}: ${res.status} ${res.body}`).toBe('no-store');
};

describe('Cache-Control: no-store', () => {
  it('on the claim session, the claim views and a webhook endpoint’s secret', async () => {
    const order = await protectedOrder(service, shop, ['80.00']);
    const session = await openSession(service, { order_number: order.order_number, email: order.email, public_key: shop.publicKey });
    expect(session.status).toBe(201);
    expect(session.json.claim_token).toEqual(expect.any(String));
    noStore(session, 'claim session');

    const filed = await fileClaim(service, session.json.claim_token, {
      policy_numbers: [order.policies[0]!.policy_number],
      description: 'Fever the night before the concert.',
    });
    expect(filed.status).toBe(201);
    noStore(filed, 'filed claim');
    const operatorView = await asOperator(service, 'GET', `/api/v2/admin/claims/${filed.json.claim_id}`);
    expect(operatorView.json.description).toBe('Fever the night before the concert.');
    noStore(operatorView, 'operator claim view');
    noStore(await asOperator(service, 'GET', '/api/v2/admin/claims'), 'operator queue');
    noStore(await asCustomer(service, session.json.claim_token, 'GET', `/api/v2/claims/${filed.json.claim_id}`), 'customer claim view');

    const created = await service.call('webhook-endpoints', {
      method: 'POST',
      path: '/api/v2/webhook_endpoints',
      clientId: shop.clientId,
      body: { url: 'http://127.0.0.1:9999/hooks', events: ['order.created'] },
    });
    expect(created.status, created.body).toBe(201);
    expect(created.json.secret).toMatch(/^whsec_/);
    noStore(created, 'webhook endpoint create');
    const id = created.json.id as string;
    const rotated = await service.call('webhook-endpoints', {
      method: 'POST',
      path: `/api/v2/webhook_endpoints/${id}/rotate_secret`,
      pathParameters: { id },
      clientId: shop.clientId,
    });
    expect(rotated.status, rotated.body).toBe(200);
    expect(rotated.json.secret).toMatch(/^whsec_/);
    noStore(rotated, 'webhook endpoint rotate');
  });

  it('on refusals too (a wrong claim session, an operator route without credentials)', async () => {
    const refused = await openSession(service, { order_number: 'NO-SUCH-ORDER', email: 'nobody@example.org', public_key: shop.publicKey });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    noStore(refused, 'refused claim session');
    const anonymous = await service.call('claims-admin', { method: 'GET', path: '/api/v2/admin/claims' });
    expect(anonymous.status).toBe(401);
    noStore(anonymous, 'operator route without credentials');
  });
});
