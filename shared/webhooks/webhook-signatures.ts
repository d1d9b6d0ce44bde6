import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * Standard Webhooks signing with the `standardwebhooks` package: `webhook-id`,
 * `webhook-timestamp`, and `webhook-signature` with one `v1,<base64 HMAC-SHA256>` per secret
 * that signs (two, space-separated, while a rotated secret overlaps). Secrets are `whsec_` and
 * 24 random bytes in base64, as the package reads them.
 */
export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

export function signDelivery(
  secrets: readonly string[],
  id: string,
  at: Date,
  payload: string,
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  if (secrets.length === 0) throw new Error('an endpoint with no signing secret');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(id, at, payload)).join(' '),
  };
}
