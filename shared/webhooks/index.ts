/**
 * Webhooks: a merchant's endpoints and secrets, the events derived from the tables' streams,
 * signed deliveries with retries, and the delivery log. Nothing else imports webhooks: they only
 * read what other features write.
 */
export { EVENT_TYPES } from './webhook-events.js';
export type { EventType } from './webhook-events.js';
