import { randomBytes } from 'node:crypto';

/**
 * HMAC keys: one for each token kind and one for hashing order numbers. No two kinds share a key,
 * and on AWS each kind lives in its own Secrets Manager secret, readable only by the functions
 * that use it.
 *
 * A key set is `{kid, secret, previous?: [{kid, secret}]}`: `kid`/`secret` signs; it and every
 * `previous` key verify, so a rotated-out key keeps verifying during its grace period.
 * `secret` is at least 32 characters of random text, used as its UTF-8 bytes.
 */
export interface SigningKey {
  kid: string;
  secret: string;
}
export interface KeySet extends SigningKey {
  previous?: SigningKey[];
}
export type TokenKind = 'access' | 'quote' | 'claim';
/**
 * `order-number` keys the hash that stands for an order number in the metrics table, where it also
 * keys the checkout record that guards order-number uniqueness: this key is never rotated (a new
 * key would let every order number already used be used once more), and `previous` is not read.
 */
export type KeyKind = TokenKind | 'order-number';

export function generateKeySet(kind: KeyKind): KeySet {
  return { kid: `${kind}-${randomBytes(4).toString('hex')}`, secret: randomBytes(32).toString('base64url') };
}

function parseKeySet(json: string): KeySet {
  const parsed = JSON.parse(json) as KeySet;
  for (const key of [parsed, ...(parsed.previous ?? [])]) {
    if (typeof key.kid !== 'string' || typeof key.secret !== 'string' || key.secret.length < 32) {
      throw new Error('malformed signing key set');
    }
  }
  return parsed;
}

/** Every key that verifies, the signing key first. */
export const verificationKeys = (set: KeySet): SigningKey[] => [set, ...(set.previous ?? [])];

export const SECRET_ID_VARIABLE: Record<KeyKind, string> = {
  access: 'ACCESS_TOKEN_KEYS_SECRET_ID',
  quote: 'QUOTE_TOKEN_KEYS_SECRET_ID',
  claim: 'CLAIM_TOKEN_KEYS_SECRET_ID',
  'order-number': 'ORDER_NUMBER_KEYS_SECRET_ID',
};

/**
 * Where keys come from:
 * - `SIGNING_KEYS` = `{"access": KeySet, "quote": KeySet, "claim": KeySet, "order-number": KeySet}`: the local
 *   server generates one on every start; tests set their own.
 * - `ACCESS_TOKEN_KEYS_SECRET_ID` / `QUOTE_TOKEN_KEYS_SECRET_ID` / `CLAIM_TOKEN_KEYS_SECRET_ID` / `ORDER_NUMBER_KEYS_SECRET_ID`: on
 *   AWS, read from Secrets Manager through the Parameters and Secrets Lambda extension (a localhost
 *   call; no SDK in the bundle).
 */
async function fetchKeySet(kind: KeyKind): Promise<KeySet> {
  const inline = process.env.SIGNING_KEYS;
  if (inline) {
    const sets = JSON.parse(inline) as Partial<Record<KeyKind, KeySet>>;
    if (!sets[kind]) throw new Error(`SIGNING_KEYS has no ${kind} keys`);
    return parseKeySet(JSON.stringify(sets[kind]));
  }
  const secretId = process.env[SECRET_ID_VARIABLE[kind]];
  if (!secretId) throw new Error(`neither SIGNING_KEYS nor ${SECRET_ID_VARIABLE[kind]} is set`);
  const port = process.env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT ?? '2773';
  const response = await fetch(`http://localhost:${port}/secretsmanager/get?secretId=${encodeURIComponent(secretId)}`, {
    headers: { 'X-Aws-Parameters-Secrets-Token': process.env.AWS_SESSION_TOKEN ?? '' },
  });
  if (!response.ok) throw new Error(`${kind} signing keys could not be read (HTTP ${response.status})`);
  const { SecretString } = (await response.json()) as { SecretString?: string };
  return parseKeySet(SecretString ?? '');
}

/** How long an instance trusts the keys it read: a rotation reaches every warm instance within it. */
const KEY_CACHE_MS = 5 * 60_000;
const cache = new Map<KeyKind, { loaded: number; keys: Promise<KeySet> }>();

/**
 * What is asked before each read of a kind, cached or not: nothing deployed (IAM refuses a function
 * the secret of a kind it is not granted); under npm start and the tests, where every function shares
 * one process and one cache, the check of the function catalogue's `keys` (scripts/local/local-grants.ts).
 */
let beforeRead: ((kind: KeyKind) => void) | undefined;
export function checkKeyReads(check: (kind: KeyKind) => void): void {
  beforeRead = check;
}

/** Read once and cached (per warm instance, for KEY_CACHE_MS); a failed read is retried on the next call. */
export function keySet(kind: KeyKind): Promise<KeySet> {
  try {
    beforeRead?.(kind);
  } catch (err) {
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
  const entry = cache.get(kind);
  if (entry && Date.now() - entry.loaded < KEY_CACHE_MS) return entry.keys;
  const keys = fetchKeySet(kind).catch((err: unknown) => {
    cache.delete(kind);
    throw err;
  });
  cache.set(kind, { loaded: Date.now(), keys });
  return keys;
}

/** For tests and the local server, after they change SIGNING_KEYS. */
export function forgetKeySets(): void {
  cache.clear();
}
