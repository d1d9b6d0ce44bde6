import { randomFillSync } from 'node:crypto';

/**
 * Bytes from the operating system's CSPRNG, drawn POOL_BYTES at a time and handed out once each, as
 * Node's own randomUUID does: a checkout draws a seal's nonce and several ids, and one small
 * synchronous draw each cost more CPU than the rest of the work around them (bench/README.md, the
 * CPU goal). Every byte is handed out to one caller only, never again; a request larger than
 * MAX_POOLED_BYTES draws its own.
 */
export const POOL_BYTES = 4096;
export const MAX_POOLED_BYTES = 256;
// A draw never takes more than a pool holds, so one refill always serves it.
if (MAX_POOLED_BYTES > POOL_BYTES) throw new Error('MAX_POOLED_BYTES must fit in the pool');

const pool = Buffer.alloc(POOL_BYTES);
let next = POOL_BYTES;

/** `size` fresh random bytes, the caller's own (a copy: the pool's bytes are never shared). */
export function randomBytesPooled(size: number): Buffer {
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`not a byte count: ${size}`);
  if (size > MAX_POOLED_BYTES) return randomFillSync(Buffer.alloc(size));
  if (next + size > POOL_BYTES) {
    randomFillSync(pool);
    next = 0;
  }
  const bytes = Buffer.from(pool.subarray(next, next + size));
  pool.fill(0, next, next + size); // a handed-out byte does not stay in the pool
  next += size;
  return bytes;
}
