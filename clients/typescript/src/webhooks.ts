import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { components } from './schema.generated.js';

/** What a webhook delivers: `{id, type, created, data}` (the event as GET /api/v2/events lists it, without its delivery state). */
export type WebhookEvent = Omit<components['schemas']['WebhookEventSummary'], 'delivery_success'>;

/** A request's headers: a fetch `Headers`, or Node's `req.headers`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export { WebhookVerificationError };

/**
 * The event a webhook request carries, once its Standard Webhooks signature (`webhook-id`,
 * `webhook-timestamp` within 5 minutes, `webhook-signature`) is checked with the endpoint's
 * `whsec_…` secret. Pass the body exactly as received (the raw string or bytes, not re-serialized
 * JSON). Throws WebhookVerificationError when the signature, the time or the body is wrong.
 */
export function verifyWebhook(body: string | Buffer, headers: WebhookHeaders, secret: string): WebhookEvent {
  const event = new Webhook(secret).verify(body, plainHeaders(headers));
  if (!isEvent(event)) throw new WebhookVerificationError('The signed body is not an event');
  return event;
}

function plainHeaders(headers: WebhookHeaders): Record<string, string> {
  const plain: Record<string, string> = {};
  if (headers instanceof Headers) {
    headers.forEach((value, name) => (plain[name] = value));
    return plain;
  }
  for (const [name, value] of Object.entries(headers)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) plain[name.toLowerCase()] = first;
  }
  return plain;
}

function isEvent(value: unknown): value is WebhookEvent {
  if (typeof value !== 'object' || value === null) return false;
  const { id, type, created, data } = value as Record<string, unknown>;
  return typeof id === 'string' && typeof type === 'string' && typeof created === 'string' && typeof data === 'object' && data !== null;
}
