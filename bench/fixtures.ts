import type { Context } from 'aws-lambda';
import { SignJWT } from 'jose';
import { createHmac } from 'node:crypto';
import { apiEvent, type ApiEventInput } from '../scripts/local/api-events.js';
import { createClient, type NewClientKeys } from '#shared/clients/manage-clients.js';
import { functionNames, type FunctionName } from '#shared/platform/functions.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { keySet } from '#shared/platform/keys/signing-keys.js';

/**
 * What every section works on: the service's handlers imported in this process, a client with an
 * access token and a quote, an order to read and change, the requests the sections send, and the
 * token the baselines verify.
 */
export interface HandlerAnswer {
  statusCode?: number;
  body?: string;
  isAuthorized?: boolean;
}
type Handler = (event: unknown, context: Context) => Promise<HandlerAnswer>;

/** Lambda hands each invocation its own context object; so does the bench (middleware keeps per-request state there). */
export const lambdaContext = (): Context => ({ awsRequestId: 'bench', functionName: 'bench', getRemainingTimeInMillis: () => 10_000 }) as unknown as Context;

export const items = [
  { name: 'Seat A1', reference_number: 'b-1', cost: '120.00' },
  { name: 'Seat A2', reference_number: 'b-2', cost: '35.50' },
];

export interface OrderRequest extends ApiEventInput {
  body: { token?: string; order_number: string; currency: string; items: typeof items };
}

export interface Fixtures {
  handlers: Record<FunctionName, Handler>;
  /** A handler called as API Gateway would: the authorizer with the request's headers, the others with an HTTP event. */
  call: (name: FunctionName, input: ApiEventInput) => Promise<HandlerAnswer>;
  client: NewClientKeys;
  /** An access token of `client`. */
  token: string;
  /** An access token for a client's keys, issued by the auth-token handler. */
  tokenFor: (keys: NewClientKeys) => Promise<string>;
  /** An order of `client`'s to read and to PATCH. */
  orderId: string;
  requests: {
    authToken: () => ApiEventInput;
    quote: () => ApiEventInput;
    /** Each call a fresh order number, since a repeat takes the duplicate path, and a quote of its own (a quote sells one order). */
    optIn: () => OrderRequest;
    optOut: () => OrderRequest;
    /** An opt-in without a quote token: the handler reads the client's rate. */
    optInWithoutToken: () => OrderRequest;
    readOrder: (id: string) => ApiEventInput;
    /** Replaces the item `from` with a VIP seat: a 404 when `from` is not in the order. */
    changeOrder: (id: string, from: string, to?: string) => ApiEventInput;
    conversion: () => ApiEventInput;
  };
  /** An HS256 JWT signed with BASELINE_JWT_SECRET, for the baselines' `jwtVerify`. */
  baselineToken: string;
}

/** Places an order through the handler; its id. */
export const placeOrder = async (call: Fixtures['call'], request: OrderRequest): Promise<string> =>
  (JSON.parse((await call('orders-create', request)).body!) as { service_order_id: string }).service_order_id;

export async function createFixtures(): Promise<Fixtures> {
  const handlers = Object.fromEntries(
    await Promise.all(functionNames.map(async (name) => [name, ((await import(`../functions/${name}/handler.ts`)) as { handler: Handler }).handler] as const)),
  ) as Record<FunctionName, Handler>;
  const call = (name: FunctionName, input: ApiEventInput) =>
    handlers[name](name === 'authorizer' ? { headers: input.headers } : apiEvent(input), lambdaContext());
  const tokenFor = async ({ public_key, secret_key }: NewClientKeys) =>
    (JSON.parse((await call('auth-token', { method: 'POST', path: '/api/v2/auth/token', body: { public_key, secret_key } })).body!) as { token: string }).token;

  const client = await createClient(new DynamoClientStore(sharedDocumentClient(), process.env.TABLE_NAME!), { name: 'Bench Shop' });
  const quoteRequest = (): ApiEventInput => ({
    method: 'POST',
    path: '/api/v2/quotes',
    headers: { 'x-public-key': client.public_key },
    body: { currency: 'USD', items },
  });
  const quote = JSON.parse((await call('quotes-create', quoteRequest())).body!) as { tokens: { opt_in: string; opt_out: string } };
  const optInToken = await quoteOfItsOwn(quote.tokens.opt_in);
  let serial = 0;
  const order = (prefix: string, token: string | undefined): OrderRequest => ({
    method: 'POST',
    path: '/api/v2/orders',
    clientId: client.client_id,
    body: { ...(token ? { token } : {}), order_number: `${prefix}-${serial++}`, currency: 'USD', items },
  });
  const requests: Fixtures['requests'] = {
    authToken: () => ({ method: 'POST', path: '/api/v2/auth/token', body: { public_key: client.public_key, secret_key: client.secret_key } }),
    quote: quoteRequest,
    optIn: () => order('IN', optInToken()),
    optOut: () => order('OUT', quote.tokens.opt_out),
    optInWithoutToken: () => order('NT', undefined),
    readOrder: (id) => ({ method: 'GET', path: `/api/v2/orders/${id}`, clientId: client.client_id }),
    changeOrder: (id, from, to = 'vip-1') => ({
      method: 'PATCH',
      path: `/api/v2/orders/${id}`,
      clientId: client.client_id,
      body: { items: [{ name: 'VIP', old_reference_number: from, reference_number: to, cost: '200.00' }] },
    }),
    conversion: () => ({ method: 'GET', path: '/api/v2/metrics/conversion', clientId: client.client_id }),
  };
  const orderId = await placeOrder(call, requests.optIn());
  const baselineToken = await new SignJWT({ sub: 'bench' })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(process.env.BASELINE_JWT_SECRET));
  return { handlers, call, client, token: await tokenFor(client), tokenFor, orderId, requests, baselineToken };
}

/**
 * A quote sells one order: its opt-in token is spent once redeemed. So each opt-in gets a token of
 * its own, made the way the service signs one (HS256 under the current quote key, jose's header
 * as it is), with the quote's claims and a quote id of its own: the price of one quote request
 * per order is the quotes handler's, not the checkout's.
 */
async function quoteOfItsOwn(token: string): Promise<() => string> {
  const { secret } = await keySet('quote');
  const header = token.split('.')[0]!;
  const claims = quoteClaimsOf(token);
  let made = 0;
  return () => {
    const body = Buffer.from(JSON.stringify({ ...claims, qid: `${claims.qid}_${made++}` })).toString('base64url');
    return `${header}.${body}.${createHmac('sha256', secret).update(`${header}.${body}`).digest('base64url')}`;
  };
}

/** The claims a quote token carries (its payload, unverified: the bench made it). */
export const quoteClaimsOf = (token: string): { qid: string } => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { qid: string };
