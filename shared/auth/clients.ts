import type { Client, ClientStore } from '../domain/client.js';
import { prefixedId } from '../domain/ids.js';
import { DEFAULT_RATE_PPM, type RatePpm } from '../domain/money.js';
import { AuthenticationError } from '../errors.js';
import { hashSecretKey, newPublicKey, newSecretKey, secretMatches, UNKNOWN_CLIENT_HASH, type KeyMode } from './client-keys.js';
import { signToken } from './tokens.js';

export interface NewClientKeys { client_id: string; public_key: string; secret_key: string }

/** Operator use case: a new client and its keys. The secret key is returned this once only. */
export async function createClient(store: ClientStore, input: { name: string; ratePpm?: RatePpm; mode?: KeyMode }, now = new Date()): Promise<NewClientKeys> {
  const mode = input.mode ?? 'test';
  const client: Client = {
    client_id: prefixedId('cl'),
    name: input.name,
    public_key: newPublicKey(mode),
    secret_hash: '',
    rate_ppm: input.ratePpm ?? DEFAULT_RATE_PPM,
    created: now.toISOString(),
  };
  const secretKey = newSecretKey(mode);
  await store.create({ ...client, secret_hash: hashSecretKey(secretKey) });
  return { client_id: client.client_id, public_key: client.public_key, secret_key: secretKey };
}

/** Operator use case: replaces the secret key; the old one stops working at once. */
export async function rotateClientSecret(store: ClientStore, clientId: string): Promise<NewClientKeys> {
  const client = await store.get(clientId);
  if (!client) throw new Error(`no client ${clientId}`);
  const secretKey = newSecretKey(client.public_key.startsWith('pk_live_') ? 'live' : 'test');
  await store.replaceSecretHash(clientId, hashSecretKey(secretKey));
  return { client_id: clientId, public_key: client.public_key, secret_key: secretKey };
}

export interface AccessToken { token: string; token_type: 'JWT'; expires_in: number }

/** POST /auth/token: unknown key and wrong secret fail alike, in the same time. */
export async function issueAccessToken(store: ClientStore, publicKey: string, secretKey: string, ttlSeconds: number): Promise<AccessToken> {
  const credentials = await store.findByPublicKey(publicKey);
  const matches = secretMatches(secretKey, credentials?.secret_hash ?? UNKNOWN_CLIENT_HASH);
  if (!credentials || !matches) throw new AuthenticationError('invalid_credentials', 'The public key or secret key is not valid.');
  const token = await signToken('access', credentials.client_id, {}, ttlSeconds);
  return { token, token_type: 'JWT', expires_in: ttlSeconds };
}
