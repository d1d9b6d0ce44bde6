export { createOrderProtectionClient, type ClientOptions, type OrderProtectionClient, type WriteOptions } from './client.js';
export { OrderProtectionError, type ErrorType } from './errors.js';
export { paginate, type Page } from './pages.js';
export type { components, operations, paths } from './schema.generated.js';
export { verifyWebhook, WebhookVerificationError, type WebhookEvent, type WebhookEventType, type WebhookHeaders } from './webhooks.js';

import type { components } from './schema.generated.js';
export type Order = components['schemas']['Order'];
export type Policy = components['schemas']['Policy'];
export type Quote = components['schemas']['Quote'];
