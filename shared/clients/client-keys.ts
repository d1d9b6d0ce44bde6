import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { prefixedId } from '../platform/ids.js';

/**
 * Client credentials. Secret keys carry 256 random bits, so a plain SHA-256 is a sound hash for
 * them (no password stretching needed: there is nothing to guess). Only the hash is stored.
 */
export type KeyMode = 'test' | 'live';

export function newPublicKey(mode: KeyMode): string {
  return `pk_${mode}_${prefixedId('x').slice(2)}`;
}

export function newSecretKey(mode: KeyMode): string {
  return `sk_${mode}_${randomBytes(32).toString('base64url')}`;
}

export function hashSecretKey(secretKey: string): string {
  return createHash('sha256').update(secretKey, 'utf8').digest('base64url');
}

/** Constant-time comparison of a presented secret with a stored hash. */
export function secretMatches(secretKey: string, storedHash: string): boolean {
  const presented = Buffer.from(hashSecretKey(secretKey));
  const stored = Buffer.from(storedHash);
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/** A hash that no secret produces, compared against when the public key is unknown so both paths cost the same. */
export const UNKNOWN_CLIENT_HASH = hashSecretKey(randomBytes(32).toString('hex'));
