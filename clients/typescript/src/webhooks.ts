import { Webhook, WebhookVerificationError as SignatureError } from 'standardwebhooks';
import type { webhooks } from './schema.generated.js';

/** The body openapi.yaml's `webhooks` says an event of type `T` is POSTed with. */
type Body<T extends keyof webhooks> = webhooks[T]['post']['requestBody']['content']['application/json'];

/**
 * What a webhook delivers: `{id, type, created, data}`, one shape of `data` per `type` (openapi.yaml's
 * `webhooks`). A union narrowed by `type`: `if (event.type === 'policy.voided') event.data.policy.refund_due`.
 */
export type WebhookEvent = { [T in keyof webhooks]: Omit<Body<T>, 'type'> & { type: T } }[keyof webhooks];
/** An event's `type`: order.*, policy.*, claim.* and webhook_endpoint.test. */
export type WebhookEventType = WebhookEvent['type'];

/** A request's headers: a fetch `Headers`, or Node's `req.headers`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/**
 * A webhook request whose signature, time or body is not what the endpoint's secret signed. The
 * package's own class (standardwebhooks' is caught and given again as this one), so that its
 * declarations name no Node.js type: a merchant on a runtime without `@types/node` type-checks too.
 */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

const utf8 = new TextDecoder();

/**
 * The event a webhook request carries, once its Standard Webhooks signature (`webhook-id`,
 * `webhook-timestamp` within 5 minutes, `webhook-signature`) is checked with the endpoint's
 * `whsec_…` secret. Pass the body exactly as received (the raw string, or its bytes: a Node.js
 * Buffer or any Uint8Array, read as UTF-8 as the signer wrote it; not re-serialized JSON). Throws
 * WebhookVerificationError when the signature, the time or the body is wrong.
 */
export function verifyWebhook(body: string | Uint8Array, headers: WebhookHeaders, secret: string): WebhookEvent {
  const text = typeof body === 'string' ? body : utf8.decode(body);
  let event: unknown;
  try {
    event = new Webhook(secret).verify(text, plainHeaders(headers));
  } catch (error) {
    throw error instanceof SignatureError ? new WebhookVerificationError(error.message, { cause: error }) : error;
  }
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
