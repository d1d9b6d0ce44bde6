import createFetchClient from 'openapi-fetch';
import { OrderProtectionError } from './errors.js';
import { paginate } from './pages.js';
import type { components, operations, paths } from './schema.generated.js';

export interface ClientOptions {
  /** The API's root, e.g. `http://localhost:3000` under npm start, or the stack's ApiUrl. */
  baseUrl: string;
  /** The client's public key (`pk_test_…` / `pk_live_…`): quotes and claim sessions. */
  publicKey: string;
  /** The client's secret key: exchanged for access tokens, never sent anywhere else. */
  secretKey: string;
  /** Another fetch (a proxy, a recorder); the global one by default. */
  fetch?: (request: Request) => Promise<Response>;
  /** Milliseconds since the epoch, the clock a token's expiry is read against (Date.now by default). */
  now?: () => number;
}

/** Options of a call the API makes idempotent (create, change and cancel an order; cancel and void a policy; advance a test order). */
export interface WriteOptions {
  /**
   * The `Idempotency-Key` (1–255 visible ASCII characters). The client makes a random one per call
   * when none is given and reuses it on its own retry after a 401; to retry a call yourself (a lost
   * answer, a timeout), pass the same key again and you get the first answer, not a second write.
   */
  idempotencyKey?: string;
}

type JsonBody<O extends keyof operations> = operations[O] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type Query<O extends keyof operations> = NonNullable<operations[O]['parameters']['query']>;
/** A yes-or-no filter (`delivery_success`): a boolean, as the API's bodies write it, or its query-string spelling. */
type Flag<T> = [Exclude<T, undefined>] extends ['true' | 'false'] ? boolean | T : T;
/** A list's filters, with `limit` (a page's size, 1–100) as a number and yes-or-no filters as booleans: the API reads them from the query string. */
type ListQuery<O extends keyof operations> = { [K in Exclude<keyof Query<O>, 'cursor' | 'limit'>]?: Flag<Query<O>[K]> } & { limit?: number };

/** What openapi-fetch answers: the success body, or the error, and the response. */
type Outcome = { data?: unknown; error?: unknown; response: Response };
type Data<R extends Outcome> = Exclude<R['data'], undefined>;
type Auth = { authorization: string };
type Order = components['schemas']['Order'];
type PolicyDetail = components['schemas']['PolicyDetail'];
type Cancellation = components['schemas']['Cancellation'];
/** A cancel's or void's body without `preview` (the preview methods set it). */
type SettleBody<O extends keyof operations> = Omit<JsonBody<O>, 'preview'>;

/** The 401 codes of an access token that a fresh one cures. */
const TOKEN_REFUSED = new Set(['invalid_token', 'token_expired', 'token_revoked']);
/** Refresh this long before the token's stated expiry (at most a tenth of its life). */
const REFRESH_MARGIN_MS = 60_000;

/** The success body (undefined only for a 204), or the OrderProtectionError of the answer. */
function unwrap<R extends Outcome>(outcome: R): Data<R> {
  if (outcome.error !== undefined || !outcome.response.ok) throw OrderProtectionError.from(outcome.response, outcome.error);
  return outcome.data as Data<R>;
}

export type OrderProtectionClient = ReturnType<typeof createOrderProtectionClient>;

/**
 * A merchant back-end's client of the Order Protection API. It signs in with the keys, holds the
 * access token and takes a new one before it expires (and once more on a 401 for the token),
 * answers typed bodies, throws OrderProtectionError for every non-2xx answer, and walks cursor
 * lists as async iterators.
 */
export function createOrderProtectionClient(options: ClientOptions) {
  const http = createFetchClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ''), ...(options.fetch && { fetch: options.fetch }) });
  const now = options.now ?? Date.now;
  const publicKey = { 'x-public-key': options.publicKey };

  let held: { token: string; refreshAt: number } | undefined;
  let signingIn: Promise<string> | undefined;

  /** One sign-in at a time: concurrent calls that need a token wait for the same one. */
  const signIn = () =>
    (signingIn ??= (async () => {
      try {
        const asked = now();
        const answer = unwrap(await http.POST('/api/v2/auth/token', { body: { public_key: options.publicKey, secret_key: options.secretKey } }));
        const lifeMs = answer.expires_in * 1000;
        held = { token: answer.token, refreshAt: asked + lifeMs - Math.min(REFRESH_MARGIN_MS, lifeMs / 10) };
        return answer.token;
      } finally {
        signingIn = undefined;
      }
    })());

  /** The access token, a new one when none is held or the held one is about to expire. */
  const accessToken = async (): Promise<string> => (held && now() < held.refreshAt ? held.token : signIn());

  /** A call with the access token; refused for the token (expired, revoked), it signs in again once and repeats the call. */
  async function authed<R extends Outcome>(call: (auth: Auth) => Promise<R>): Promise<Data<R>> {
    const token = await accessToken();
    const first = await call({ authorization: `JWT ${token}` });
    if (first.response.status !== 401 || !refusesToken(first.error)) return unwrap(first);
    if (held?.token === token) held = undefined; // unless a concurrent call already has a new one
    return unwrap(await call({ authorization: `JWT ${await accessToken()}` }));
  }

  /** An authenticated write with one Idempotency-Key for all its attempts. */
  const keyed = <R extends Outcome>(write: WriteOptions | undefined, call: (header: { 'Idempotency-Key': string }, auth: Auth) => Promise<R>) => {
    const header = { 'Idempotency-Key': write?.idempotencyKey ?? crypto.randomUUID() };
    return authed((auth) => call(header, auth));
  };

  return {
    accessToken,

    quotes: {
      /** Prices a cart, as the widget does (with the public key): the premiums and the opt-in / opt-out tokens. */
      create: async (body: JsonBody<'createQuote'>) => unwrap(await http.POST('/api/v2/quotes', { body, headers: publicKey })),
      /** What a quote token vouches for; with `items`, checked against the seal and priced. */
      decode: (body: JsonBody<'checkQuote'>) => authed((auth) => http.POST('/api/v2/quotes/decode', { body, headers: auth })),
    },

    orders: {
      /** A checkout: the protected Order (201), or `undefined` for a declined one (204, logged for the conversion figures only). */
      create: (body: JsonBody<'createOrder'>, write?: WriteOptions): Promise<Order | undefined> =>
        keyed(write, (header, auth) => http.POST('/api/v2/orders', { params: { header }, body, headers: auth })),
      retrieve: (id: string) => authed((auth) => http.GET('/api/v2/orders/{id}', { params: { path: { id } }, headers: auth })),
      /** Upgrade, downgrade or exchange items: the Order with only the new items and policies. */
      change: (id: string, body: JsonBody<'changeOrder'>, write?: WriteOptions) =>
        keyed(write, (header, auth) => http.PATCH('/api/v2/orders/{id}', { params: { path: { id }, header }, body, headers: auth })),
      /** Cancels (`mode: 'cancel'`) or voids (`'void'`) every Issued policy of the order. */
      cancel: (id: string, body: SettleBody<'cancelOrder'>, write?: WriteOptions) =>
        keyed(write, (header, auth) => http.POST('/api/v2/orders/{id}/cancel', { params: { path: { id }, header }, body, headers: auth })) as Promise<Order>,
      /** What `cancel` would do, changing nothing: a Cancellation to confirm with `cancellations.confirm` before its `confirm_before`. */
      previewCancel: (id: string, body: SettleBody<'cancelOrder'>, write?: WriteOptions) =>
        keyed(write, (header, auth) =>
          http.POST('/api/v2/orders/{id}/cancel', { params: { path: { id }, header }, body: { ...body, preview: true }, headers: auth }),
        ) as Promise<Cancellation>,
      /** Every order, newest first, page after page. */
      list: (query: ListQuery<'listOrders'> = {}) =>
        paginate((cursor) => authed((auth) => http.GET('/api/v2/orders', { params: { query: pageQuery(query, cursor) }, headers: auth }))),
    },

    policies: {
      list: (query: ListQuery<'listPolicies'> = {}) =>
        paginate((cursor) => authed((auth) => http.GET('/api/v2/policies', { params: { query: pageQuery(query, cursor) }, headers: auth }))),
      cancel: (policyNumber: string, body: SettleBody<'cancelPolicyByPost'> = {}, write?: WriteOptions) =>
        keyed(write, (header, auth) =>
          http.POST('/api/v2/policies/{policy_number}/cancel', { params: { path: { policy_number: policyNumber }, header }, body, headers: auth }),
        ) as Promise<PolicyDetail>,
      void: (policyNumber: string, body: SettleBody<'voidPolicy'> = {}, write?: WriteOptions) =>
        keyed(write, (header, auth) =>
          http.POST('/api/v2/policies/{policy_number}/void', { params: { path: { policy_number: policyNumber }, header }, body, headers: auth }),
        ) as Promise<PolicyDetail>,
      /** What `cancel` or `void` would do to this policy, changing nothing: a Cancellation to confirm. */
      preview: (policyNumber: string, action: 'cancel' | 'void', body: SettleBody<'voidPolicy'> = {}, write?: WriteOptions) =>
        keyed(write, (header, auth) =>
          http.POST(`/api/v2/policies/{policy_number}/${action}`, {
            params: { path: { policy_number: policyNumber }, header },
            body: { ...body, preview: true },
            headers: auth,
          }),
        ) as Promise<Cancellation>,
    },

    cancellations: {
      /**
       * Applies a preview exactly, answering as the direct call does: the Order for an order's
       * preview, the PolicyDetail for a policy's. Throws `cancellation_expired` after its
       * `confirm_before` and `cancellation_stale` when its policies moved since; a repeat answers the same.
       */
      confirm: (id: string, write?: WriteOptions) =>
        keyed(write, (header, auth) =>
          http.POST('/api/v2/cancellations/{id}/confirm', { params: { path: { id }, header }, body: {}, headers: auth }),
        ) as Promise<Order | PolicyDetail>,
    },

    webhookEndpoints: {
      /** Registers an endpoint; the answer holds its `whsec_…` secret this once. */
      create: (body: JsonBody<'createWebhookEndpoint'>) => authed((auth) => http.POST('/api/v2/webhook_endpoints', { body, headers: auth })),
      list: () => authed((auth) => http.GET('/api/v2/webhook_endpoints', { headers: auth })),
      retrieve: (id: string) => authed((auth) => http.GET('/api/v2/webhook_endpoints/{id}', { params: { path: { id } }, headers: auth })),
      /** Deletes it (204): its pending deliveries end, nothing more is sent to it. */
      delete: async (id: string): Promise<void> => {
        await authed((auth) => http.DELETE('/api/v2/webhook_endpoints/{id}', { params: { path: { id } }, headers: auth }));
      },
      rotateSecret: (id: string) => authed((auth) => http.POST('/api/v2/webhook_endpoints/{id}/rotate_secret', { params: { path: { id } }, headers: auth })),
      enable: (id: string) => authed((auth) => http.POST('/api/v2/webhook_endpoints/{id}/enable', { params: { path: { id } }, headers: auth })),
      /** Sends this endpoint alone a signed `webhook_endpoint.test` event (202: the event's id, for the delivery log). */
      test: (id: string) => authed((auth) => http.POST('/api/v2/webhook_endpoints/{id}/test', { params: { path: { id } }, headers: auth })),
    },

    events: {
      list: (query: ListQuery<'listEvents'> = {}) =>
        paginate((cursor) => authed((auth) => http.GET('/api/v2/events', { params: { query: pageQuery(query, cursor) }, headers: auth }))),
      retrieve: (id: string) => authed((auth) => http.GET('/api/v2/events/{id}', { params: { path: { id } }, headers: auth })),
      redeliver: (id: string) => authed((auth) => http.POST('/api/v2/events/{id}/redeliver', { params: { path: { id } }, headers: auth })),
    },

    ledger: {
      /** A month's entries (the current UTC month by default), newest first, page after page. */
      list: (query: ListQuery<'listLedger'> = {}) =>
        paginate((cursor) => authed((auth) => http.GET('/api/v2/ledger', { params: { query: pageQuery(query, cursor) }, headers: auth }))),
      /** The month's statement (`YYYY-MM`). */
      statement: (period: string) => authed((auth) => http.GET('/api/v2/statements/{period}', { params: { path: { period } }, headers: auth })),
    },

    metrics: {
      conversion: (query: Query<'getConversion'>) => authed((auth) => http.GET('/api/v2/metrics/conversion', { params: { query }, headers: auth })),
    },

    claims: {
      /**
       * A customer's claim session (order number and e-mail, with this client's public key), for a
       * back-end that files claims for its customers: the session and the calls its claim token opens.
       */
      openSession: async (body: Omit<JsonBody<'openClaimSession'>, 'public_key'>) => {
        const session = unwrap(await http.POST('/api/v2/claims/sessions', { body: { ...body, public_key: options.publicKey } }));
        const headers = { authorization: `Bearer ${session.claim_token}` };
        return {
          session,
          file: async (claim: JsonBody<'fileClaim'>) => unwrap(await http.POST('/api/v2/claims', { body: claim, headers })),
          retrieve: async (id: string) => unwrap(await http.GET('/api/v2/claims/{id}', { params: { path: { id } }, headers })),
          withdraw: async (id: string) => unwrap(await http.POST('/api/v2/claims/{id}/withdraw', { params: { path: { id } }, headers })),
          respond: async (id: string, answer: JsonBody<'respondToClaim'>) =>
            unwrap(await http.POST('/api/v2/claims/{id}/respond', { params: { path: { id } }, body: answer, headers })),
        };
      },
    },

    /** Test clients only (a live client's token: 403 `test_mode_only`). */
    testHelpers: {
      /** Makes the order and its policies `days` older (at most 400 in all): the look period and claim rules can be tried now. */
      advanceOrder: (id: string, days: number, write?: WriteOptions) =>
        keyed(write, (header, auth) =>
          http.POST('/api/v2/test_helpers/orders/{id}/advance', { params: { path: { id }, header }, body: { days }, headers: auth }),
        ),
      /** The operator's decision on a claim of this client's orders. */
      decideClaim: (id: string, body: JsonBody<'decideTestClaim'>) =>
        authed((auth) => http.POST('/api/v2/test_helpers/claims/{id}/decision', { params: { path: { id } }, body, headers: auth })),
    },
  };
}

/** A page's query: the filters, `limit` as the query string spells it, and the cursor of the page. */
function pageQuery<Q extends { limit?: number }>({ limit, ...filters }: Q, cursor: string | undefined) {
  // Booleans as the query string spells them ('true', 'false'); openapi-fetch writes strings as they are.
  const spelled = Object.fromEntries(Object.entries(filters).map(([name, value]) => [name, typeof value === 'boolean' ? String(value) : value]));
  return { ...spelled, ...(limit !== undefined && { limit: String(limit) }), cursor } as { [K in Exclude<keyof Q, 'limit'>]: Spelled<Q[K]> } & {
    limit?: string;
    cursor?: string;
  };
}
type Spelled<V> = V extends boolean ? 'true' | 'false' : V;

function refusesToken(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || !('error' in body)) return false;
  const { error } = body;
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' && TOKEN_REFUSED.has(error.code);
}
