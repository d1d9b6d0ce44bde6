import { DEFAULT_LOOK_PERIOD_DAYS, type Client, type ClientStatusStore, type ClientStore, type FailedSignIns } from './client.js';
import { prefixedId } from '../platform/ids.js';
import { DEFAULT_RATE_PPM, type RatePpm } from '../platform/money/index.js';
import type { Clock } from '../platform/clock.js';
import { AuthenticationError, RateLimitError } from '../platform/errors.js';
import { signAccessToken } from './access-tokens.js';
import { hashSecretKey, newPublicKey, newSecretKey, secretMatches, UNKNOWN_CLIENT_HASH, type KeyMode } from './client-keys.js';
import { lockedUntil, recordFailure } from './sign-in-lockout.js';
import { keyModeOf } from './test-mode.js';
import { auditRecordOf } from '../identity/index.js';
import { firstVersionOf } from '../terms/index.js';
import type { StaffIdentity } from '../platform/staff.js';

export interface NewClientKeys {
  client_id: string;
  public_key: string;
  secret_key: string;
}

/**
 * Who did a staff action on clients, for its audit record (shared/identity/audit.ts), written in
 * the change's own transaction. Staff create and disable clients only through `npm run client`,
 * which always passes one; set-up code (tests, `npm start`'s demo client, the bench) passes none.
 */
export interface ClientAuditing {
  actor: StaffIdentity;
  newAuditId: () => string;
}

/** Operator use case: a new client and its keys. The secret key is returned this once only. */
export async function createClient(
  store: ClientStore,
  input: { name: string; ratePpm?: RatePpm; lookPeriodDays?: number; mode?: KeyMode },
  now = new Date(),
  auditing?: ClientAuditing,
): Promise<NewClientKeys> {
  const mode = input.mode ?? 'test';
  const client: Client = {
    client_id: prefixedId('cl'),
    name: input.name,
    public_key: newPublicKey(mode),
    secret_hash: '',
    rate_ppm: input.ratePpm ?? DEFAULT_RATE_PPM,
    look_period_days: input.lookPeriodDays ?? DEFAULT_LOOK_PERIOD_DAYS,
    created: now.toISOString(),
  };
  const secretKey = newSecretKey(mode);
  const audit = auditing && auditRecordOf(auditing.actor, 'client.created', { type: 'client', id: client.client_id }, now, auditing.newAuditId);
  const firstTerms = firstVersionOf(client, auditing ? { sub: auditing.actor.sub, email: auditing.actor.email ?? null } : { sub: 'set-up', email: null }, now);
  await store.create({ ...client, secret_hash: hashSecretKey(secretKey) }, firstTerms, audit);
  return { client_id: client.client_id, public_key: client.public_key, secret_key: secretKey };
}

/** Operator use case: replaces the secret key; the old one stops working at once, and its access tokens within a minute. */
export async function rotateClientSecret(store: ClientStore, clientId: string): Promise<NewClientKeys> {
  const client = await store.get(clientId);
  if (!client) throw new Error(`no client ${clientId}`);
  const secretKey = newSecretKey(keyModeOf(client.public_key));
  await store.replaceSecretHash(clientId, hashSecretKey(secretKey));
  return { client_id: clientId, public_key: client.public_key, secret_key: secretKey };
}

/** Operator use case: the client's access tokens stop within a minute; it gets no new tokens or quotes. */
export async function disableClient(
  store: ClientStatusStore,
  clientId: string,
  auditing?: ClientAuditing,
  now = new Date(),
): Promise<{ client_id: string; disabled: true }> {
  await store.disable(clientId, auditing && auditRecordOf(auditing.actor, 'client.disabled', { type: 'client', id: clientId }, now, auditing.newAuditId));
  return { client_id: clientId, disabled: true };
}

export interface AccessToken {
  token: string;
  token_type: 'JWT';
  expires_in: number;
}

export interface IssueAccessTokenDeps {
  clients: Pick<ClientStore, 'findByPublicKey'> & FailedSignIns;
  clock: Clock;
  ttlSeconds: number;
}

const invalidCredentials = () => new AuthenticationError('invalid_credentials', 'The public key or secret key is not valid.');

function tooManyFailures(until: number, now: number): RateLimitError {
  const seconds = Math.ceil((until - now) / 1000);
  return new RateLimitError(
    'too_many_failed_attempts',
    `Too many wrong secret keys for this public key; retry after ${new Date(until).toISOString()} (in ${seconds} s).`,
    seconds,
  );
}

/**
 * POST /auth/token: an unknown key, a disabled client's key and a wrong secret get the same 401
 * (the secret is compared either way); a key locked after repeated wrong secrets answers 429
 * (shared/clients/sign-in-lockout.ts).
 */
export async function issueAccessToken(deps: IssueAccessTokenDeps, publicKey: string, secretKey: string): Promise<AccessToken> {
  const now = deps.clock.now();
  const found = await deps.clients.findByPublicKey(publicKey);
  const credentials = found && !found.disabled ? found : undefined;
  const matches = secretMatches(secretKey, credentials?.secret_hash ?? UNKNOWN_CLIENT_HASH);
  if (!credentials) throw invalidCredentials();
  const locked = lockedUntil(credentials, now.getTime());
  if (locked !== undefined) throw tooManyFailures(locked, now.getTime());
  if (!matches) {
    const refusedUntil = await recordFailure(deps.clients, publicKey, now.getTime());
    throw refusedUntil === undefined ? invalidCredentials() : tooManyFailures(refusedUntil, now.getTime());
  }
  const token = await signAccessToken(credentials.client_id, credentials.key_generation, deps.ttlSeconds, now);
  return { token, token_type: 'JWT', expires_in: deps.ttlSeconds };
}
