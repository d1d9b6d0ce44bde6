import { cartItems, uniqueOrderNumber, type HandlerResult, type Service } from './service.js';

/**
 * The claim flow's steps over the in-process service: a protected order with a customer, the
 * customer's session, filing, and the operator's calls.
 */
export interface ClaimShop {
  clientId: string;
  publicKey: string;
}

export async function claimShop(service: Service, name = 'Claim Shop'): Promise<ClaimShop> {
  const client = await service.newClient(name);
  return { clientId: client.client_id, publicKey: client.public_key };
}

export async function protectedOrder(service: Service, shop: ClaimShop, costs: string[], email = 'claire.mant@example.org') {
  const order_number = uniqueOrderNumber('clm');
  const res = await service.call('orders-create', {
    method: 'POST',
    path: '/api/v2/orders',
    clientId: shop.clientId,
    body: {
      order_number,
      currency: 'USD',
      items: cartItems(...costs),
      customer: { first_name: 'Claire', last_name: 'Mant', email, phone: '+44 20 7946 0958' },
    },
  });
  if (res.status !== 201) throw new Error(`order failed: ${res.status} ${res.body}`);
  return {
    order_number,
    email,
    service_order_id: res.json.service_order_id as string,
    policies: res.json.policies as { policy_number: string; coverage_amount: string; item: { reference_number: string } }[],
  };
}

/** The shop by its public key (the widget's) or its client id (the merchant's claim link). */
export const openSession = (service: Service, body: { order_number: string; email: string; public_key?: string; client_id?: string }): Promise<HandlerResult> =>
  service.call('claims-session', { method: 'POST', path: '/api/v2/claims/sessions', body });

export async function sessionToken(service: Service, shop: ClaimShop, order: { order_number: string; email: string }): Promise<string> {
  const res = await openSession(service, { order_number: order.order_number, email: order.email, public_key: shop.publicKey });
  if (res.status !== 201) throw new Error(`session failed: ${res.status} ${res.body}`);
  return res.json.claim_token as string;
}

export const asCustomer = (service: Service, token: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<HandlerResult> =>
  service.call('claims-customer', { method, path, headers: { authorization: `Bearer ${token}` }, ...(body === undefined ? {} : { body }) });

export const fileClaim = (service: Service, token: string, body: { policy_numbers: string[]; reason?: string; description?: string }) =>
  asCustomer(service, token, 'POST', '/api/v2/claims', { reason: 'illness', description: 'Fever the night before the concert.', ...body });

export const asOperator = (service: Service, method: 'GET' | 'POST', path: string, body?: unknown, query?: Record<string, string>): Promise<HandlerResult> =>
  service.call('claims-admin', { method, path, operator: 'test-operator', ...(body === undefined ? {} : { body }), ...(query ? { query } : {}) });

export const decide = (service: Service, claimId: string, body: { decision: string; amount?: string; note?: string }) =>
  asOperator(service, 'POST', `/api/v2/admin/claims/${claimId}/decision`, body);
