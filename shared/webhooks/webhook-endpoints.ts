import { ConflictError, NotFoundError, RateLimitError, ValidationError } from '../platform/errors.js';
import type { Clock } from '../platform/clock.js';
import { checkWebhookUrl, type ResolveHost, type WebhookUrlPolicy } from './webhook-url.js';
import { EVENT_TYPES, TEST_EVENT_TYPE, type EventType } from './webhook-events.js';

/**
 * A merchant's webhook endpoints (api.md "Webhooks"): at most MAX_ENDPOINTS per client, each with
 * the events it wants (all by default) and its signing secrets. A rotation keeps the old secret
 * signing beside the new one for SECRET_OVERLAP_MS, so a receiver can switch without a gap; the
 * next rotation waits until that overlap ends (409 `rotation_in_progress` saying when).
 */
export const MAX_ENDPOINTS = 16;
/** DynamoDB's BatchWriteItem takes at most this many items: an event's deliveries, one per endpoint, are written in one. */
export const BATCH_WRITE_MAX_ITEMS = 25;
if (MAX_ENDPOINTS > BATCH_WRITE_MAX_ITEMS) throw new Error('webhook limits: an event’s deliveries (one per endpoint) fit one BatchWrite');
/** Test events one endpoint may be sent per TEST_EVENT_WINDOW_MS (a fixed window): more is 429 `too_many_test_events` with Retry-After. */
export const TEST_EVENTS_PER_ENDPOINT = 5;
/**
 * Test events one client may be sent per TEST_EVENT_WINDOW_MS across all its endpoints, those
 * deleted meanwhile included (so creating and deleting endpoints gains no tests): more is the same
 * 429. At least one endpoint's full allowance, and well below what MAX_ENDPOINTS endpoints would get.
 */
export const TEST_EVENTS_PER_CLIENT = 20;
export const TEST_EVENT_WINDOW_MS = 60_000;
if (TEST_EVENTS_PER_CLIENT < TEST_EVENTS_PER_ENDPOINT || TEST_EVENTS_PER_CLIENT >= MAX_ENDPOINTS * TEST_EVENTS_PER_ENDPOINT) {
  throw new Error('webhook limits: a client may test one endpoint fully, and fewer times than all its endpoints could be tested');
}
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

export interface SigningSecret {
  secret: string;
  created: string;
  /** Set on a rotated-out secret: it signs beside the new one until then. */
  expires?: string;
}

export interface WebhookEndpoint {
  id: string;
  client_id: string;
  url: string;
  events: EventType[];
  description: string | null;
  status: 'enabled' | 'disabled';
  created: string;
  /** Newest first; the first is the one a rotation replaces. */
  secrets: SigningSecret[];
  /** Since when its deliveries have been failing (five days of it disable it); absent while they succeed. */
  failing_since?: string;
  /** Its last failure was a timeout (a slow or hanging receiver): the dispatcher leaves its deliveries to the sweep until one succeeds. */
  timed_out?: boolean;
}

export interface WebhookEndpointStore {
  /** Refused with `too_many_endpoints` when the client has MAX_ENDPOINTS already (checked atomically). */
  create(endpoint: WebhookEndpoint): Promise<void>;
  list(clientId: string): Promise<WebhookEndpoint[]>;
  get(clientId: string, id: string): Promise<WebhookEndpoint | undefined>;
  /** False when there was none. */
  delete(clientId: string, id: string): Promise<boolean>;
  /**
   * Keeps a test request for the dispatcher (the main table's stream carries it there), only while
   * the endpoint exists and is enabled, has had fewer than `limits.endpoint` tests in the window
   * `window` and its client fewer than `limits.client` (both counted in the same transaction):
   * `kept`, `refused` (gone or disabled), `endpoint_limited` or `client_limited`.
   */
  requestTest(
    test: TestRequest,
    limits: { endpoint: number; client: number },
    window: { index: number; endsAt: number },
  ): Promise<'kept' | 'refused' | 'endpoint_limited' | 'client_limited'>;
  /** Replaces the secrets only if they are still `before` (two rotations never both win); false when the endpoint is gone or moved. */
  replaceSecrets(clientId: string, id: string, before: readonly SigningSecret[], after: readonly SigningSecret[]): Promise<boolean>;
}

/** A test event asked for: the dispatcher derives the `webhook_endpoint.test` event from it and sends it to this endpoint alone. */
export interface TestRequest {
  event_id: string;
  client_id: string;
  endpoint_id: string;
  created: string;
}

export interface EndpointDeps {
  endpoints: WebhookEndpointStore;
  /** Ends the endpoint's pending deliveries (status `canceled`); how many. */
  cancelPending(clientId: string, endpointId: string): Promise<number>;
  clock: Clock;
  newId(): string;
  newEventId(): string;
  newSecret(): string;
  urlPolicy: WebhookUrlPolicy;
  resolve: ResolveHost;
}

export const endpointNotFound = () => new NotFoundError('webhook_endpoint_not_found', 'No webhook endpoint with this id.', 'id');
const endpointDisabled = () =>
  new ConflictError('webhook_endpoint_disabled', 'The endpoint is disabled and is sent nothing; enable it (POST …/enable), then send the test again.', 'id');

/** The secrets that sign a delivery at `now`: the current one and any rotated-out one still in its overlap. */
export const signingSecrets = (endpoint: Pick<WebhookEndpoint, 'secrets'>, now: Date): string[] =>
  endpoint.secrets.filter((s) => !s.expires || Date.parse(s.expires) > now.getTime()).map((s) => s.secret);

export async function createEndpoint(
  deps: EndpointDeps,
  clientId: string,
  input: { url: string; events?: EventType[]; description?: string },
): Promise<WebhookEndpoint> {
  const verdict = await checkWebhookUrl(input.url, deps.urlPolicy, deps.resolve);
  if (!verdict.ok) throw new ValidationError(`The webhook URL ${verdict.reason}.`, 'url', 'invalid_url');
  const now = deps.clock.now().toISOString();
  const endpoint: WebhookEndpoint = {
    id: deps.newId(),
    client_id: clientId,
    url: verdict.url,
    events: input.events?.length ? [...new Set(input.events)] : [...EVENT_TYPES],
    description: input.description || null,
    status: 'enabled',
    created: now,
    secrets: [{ secret: deps.newSecret(), created: now }],
  };
  await deps.endpoints.create(endpoint);
  return endpoint;
}

/** Tries of a rotation whose endpoint changes under it before it answers 409 `conflict`. */
const ROTATION_ATTEMPTS = 5;

export async function rotateSecret(deps: EndpointDeps, clientId: string, id: string): Promise<WebhookEndpoint> {
  for (let attempt = 0; attempt < ROTATION_ATTEMPTS; attempt++) {
    const endpoint = await deps.endpoints.get(clientId, id);
    if (!endpoint) throw endpointNotFound();
    const now = deps.clock.now();
    // One overlap at a time: every replaced secret signs for its full SECRET_OVERLAP_MS, and a
    // delivery carries at most two signatures. A rotation while one still overlaps is refused.
    const overlapping = endpoint.secrets.find((s) => s.expires !== undefined && Date.parse(s.expires) > now.getTime());
    if (overlapping) {
      throw new ConflictError(
        'rotation_in_progress',
        `The previous secret still signs beside the current one until ${overlapping.expires}; the secret can be rotated again from then.`,
        'id',
      );
    }
    const [current] = endpoint.secrets;
    const kept = current ? [{ ...current, expires: new Date(now.getTime() + SECRET_OVERLAP_MS).toISOString() }] : [];
    const secrets = [{ secret: deps.newSecret(), created: now.toISOString() }, ...kept];
    if (await deps.endpoints.replaceSecrets(clientId, id, endpoint.secrets, secrets)) return { ...endpoint, secrets };
  }
  throw new ConflictError('conflict', 'The endpoint changed while its secret was rotated; nothing was changed. Retry it.');
}

/**
 * POST /webhook_endpoints/{id}/test: a `webhook_endpoint.test` for this endpoint alone, recorded
 * and sent by the dispatcher like any event; at most TEST_EVENTS_PER_ENDPOINT a window to the
 * endpoint and TEST_EVENTS_PER_CLIENT to all the client's (429). A disabled endpoint is refused (409) rather than
 * tested: nothing would be sent to it, and a test that silently fails would tell the merchant
 * nothing (docs/decisions.md).
 */
export async function sendTestEvent(
  deps: EndpointDeps,
  clientId: string,
  id: string,
): Promise<{ id: string; type: typeof TEST_EVENT_TYPE; created: string; endpoint_id: string }> {
  const now = deps.clock.now();
  const test = { event_id: deps.newEventId(), client_id: clientId, endpoint_id: id, created: now.toISOString() };
  const index = Math.floor(now.getTime() / TEST_EVENT_WINDOW_MS);
  const endsAt = (index + 1) * TEST_EVENT_WINDOW_MS;
  const answer = await deps.endpoints.requestTest(test, { endpoint: TEST_EVENTS_PER_ENDPOINT, client: TEST_EVENTS_PER_CLIENT }, { index, endsAt });
  if (answer === 'kept') return { id: test.event_id, type: TEST_EVENT_TYPE, created: test.created, endpoint_id: id };
  if (answer === 'endpoint_limited' || answer === 'client_limited') {
    throw new RateLimitError(
      'too_many_test_events',
      answer === 'endpoint_limited'
        ? `An endpoint is sent at most ${TEST_EVENTS_PER_ENDPOINT} test events a minute; try again later.`
        : `A client is sent at most ${TEST_EVENTS_PER_CLIENT} test events a minute across its endpoints (deleted ones included); try again later.`,
      Math.max(1, Math.ceil((endsAt - now.getTime()) / 1000)),
    );
  }
  // Refused: tell a missing endpoint from a disabled one (a read only on this path).
  if (!(await deps.endpoints.get(clientId, id))) throw endpointNotFound();
  throw endpointDisabled();
}

/** DELETE /webhook_endpoints/{id}: the endpoint, then its pending deliveries canceled (the sweep cancels any this misses, before sending). */
export async function deleteEndpoint(deps: Pick<EndpointDeps, 'endpoints' | 'cancelPending'>, clientId: string, id: string): Promise<void> {
  if (!(await deps.endpoints.delete(clientId, id))) throw endpointNotFound();
  await deps.cancelPending(clientId, id);
}
