import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../errors.js';
import { keySet } from './signing-keys.js';

/**
 * List cursors: opaque to the merchant, sealed (HMAC-SHA256 under the server's order-number key,
 * with a label of their own) over the client and the filters that made the page, so another
 * client's cursor, a tampered one, or one used with other filters is refused (400 invalid_cursor).
 * `limit` is not bound: it may change between pages.
 */
const invalid = () =>
  new AppError(
    400,
    'invalid_request_error',
    'invalid_cursor',
    'cursor is not a cursor of this list: use next_cursor as given, with the same filters.',
    'cursor',
  );

const canonical = (filters: Record<string, string | undefined>) =>
  JSON.stringify(
    Object.keys(filters)
      .sort()
      .filter((name) => filters[name] !== undefined)
      .map((name) => [name, filters[name]]),
  );

async function mac(clientId: string, filters: Record<string, string | undefined>, position: string): Promise<Buffer> {
  const { secret } = await keySet('order-number');
  return createHmac('sha256', secret)
    .update(`list-cursor\n${clientId}\n${canonical(filters)}\n${position}`)
    .digest();
}

export async function sealCursor(clientId: string, filters: Record<string, string | undefined>, position: string): Promise<string> {
  return `${Buffer.from(position).toString('base64url')}.${(await mac(clientId, filters, position)).toString('base64url')}`;
}

/** The position a cursor stands for, if it was sealed for this client and these filters. */
export async function openCursor(clientId: string, filters: Record<string, string | undefined>, cursor: string): Promise<string> {
  const [encoded, signature, extra] = cursor.split('.');
  if (!encoded || !signature || extra !== undefined || cursor.length > 512) throw invalid();
  // One spelling per cursor: base64url decoding forgives padding and a last character's unused bits.
  const canonical = (segment: string) => /^[A-Za-z0-9_-]+$/.test(segment) && Buffer.from(segment, 'base64url').toString('base64url') === segment;
  if (!canonical(encoded) || !canonical(signature)) throw invalid();
  const position = Buffer.from(encoded, 'base64url').toString('utf8');
  const expected = await mac(clientId, filters, position);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  return position;
}
