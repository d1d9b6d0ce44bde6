import { createHmac } from 'node:crypto';
import { keySet } from './signing-keys.js';

/**
 * What the metrics table holds instead of an order number (merchants put e-mails there):
 * HMAC-SHA256 under the never-rotated `order-number` key, base64url. The client id's length goes
 * first so that no two (client id, order number) pairs hash the same input.
 */
export async function hashOrderNumber(clientId: string, orderNumber: string): Promise<string> {
  const { secret } = await keySet('order-number');
  return createHmac('sha256', secret).update(`${clientId.length}:${clientId}${orderNumber}`).digest('base64url');
}

/**
 * A customer across merchants, without their e-mail: HMAC-SHA256 of the trimmed, lower-cased address
 * under the same key, after a `customer:` prefix (an order number's input starts with a digit, so
 * the two never hash the same input).
 */
export async function hashCustomerEmail(email: string): Promise<string> {
  const { secret } = await keySet('order-number');
  return createHmac('sha256', secret).update(`customer:${email.trim().toLowerCase()}`).digest('base64url');
}
