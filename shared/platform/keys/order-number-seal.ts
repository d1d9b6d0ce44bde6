import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, type KeyObject } from 'node:crypto';
import { randomBytesPooled } from '../random.js';
import { keySet } from './signing-keys.js';

/**
 * An opt-out's order number, sealed for its one reader: the `order.opted_out` webhook must name
 * the order number, and an opt-out leaves nothing but its checkout record in the metrics table,
 * which never holds the number itself (merchants put e-mails there). So the record carries it
 * sealed: AES-256-GCM under a key derived (HKDF-SHA256) from the `order-number` secret, the client
 * id bound as associated data; only the webhook dispatcher opens it. `v1.` + base64url(iv, text,
 * tag).
 */
let derived: { secret: string; key: KeyObject } | undefined;

/**
 * Derived once per order-number secret (an opt-out seals on the checkout path), not per call, and
 * kept as a KeyObject so that no cipher imports the raw bytes again.
 */
async function sealKey(): Promise<KeyObject> {
  const { secret } = await keySet('order-number');
  if (derived?.secret !== secret) derived = { secret, key: createSecretKey(Buffer.from(hkdfSync('sha256', secret, 'order-number-seal', 'aes-256-gcm', 32))) };
  return derived.key;
}

export async function sealOrderNumber(clientId: string, orderNumber: string): Promise<string> {
  const iv = randomBytesPooled(12);
  const cipher = createCipheriv('aes-256-gcm', await sealKey(), iv);
  cipher.setAAD(Buffer.from(clientId));
  const text = Buffer.concat([cipher.update(orderNumber, 'utf8'), cipher.final()]);
  return `v1.${Buffer.concat([iv, text, cipher.getAuthTag()]).toString('base64url')}`;
}

/** The order number a seal holds, if it was sealed for this client under this key; undefined otherwise. */
export async function openOrderNumber(clientId: string, sealed: string): Promise<string | undefined> {
  if (!sealed.startsWith('v1.')) return undefined;
  const bytes = Buffer.from(sealed.slice(3), 'base64url');
  if (bytes.length < 12 + 16) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', await sealKey(), bytes.subarray(0, 12));
    decipher.setAAD(Buffer.from(clientId));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    return Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
