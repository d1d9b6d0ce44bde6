import { lookup } from 'node:dns/promises';
import { createHash, randomInt } from 'node:crypto';
import { signDelivery } from './webhook-signatures.js';
import { openOrderNumber } from '../platform/keys/order-number-seal.js';
import { loadConfig } from '../platform/config.js';
import { SWEEP_BUDGET_MS, type DispatchDeps } from './dispatch-webhooks.js';
import { webhookUrlPolicy } from './webhook-url-policy.js';
import { systemClock } from '../platform/clock.js';
import { sharedDocumentClient } from '../platform/dynamo/dynamo-client.js';
import { DynamoDeliveryQueue } from './dynamo-delivery-queue.js';
import { DynamoEventLog, orderNumberOf } from './dynamo-event-log.js';
import { sendWebhook } from './webhook-sender.js';
import { DynamoWebhookEndpoints } from './dynamo-webhook-endpoints.js';
import { countMetric, gaugeMetric } from '../platform/http/metrics.js';

/**
 * What the webhook functions (the dispatcher, the retry sweep, the events routes) are made of.
 * WEBHOOK_URLS=local (npm start) lets http://localhost receivers in; WEBHOOK_RETRY_SCALE shortens
 * the retry schedule (tests and npm start, never deployed).
 */
export function webhookDeps(): DispatchDeps {
  const config = loadConfig();
  const doc = sharedDocumentClient();
  const scale = Number(process.env.WEBHOOK_RETRY_SCALE ?? 1);
  return {
    eventLog: new DynamoEventLog(doc, config.tableName),
    deliveries: new DynamoDeliveryQueue(doc, config.tableName),
    endpoints: new DynamoWebhookEndpoints(doc, config.tableName),
    orderNumber: (clientId, orderId) => orderNumberOf(doc, config.tableName, clientId, orderId),
    openOrderNumber,
    send: sendWebhook,
    sign: signDelivery,
    // The stream record's id, hashed: the same change gives the same event id however often it comes.
    eventId: (changeId) => `evt_${createHash('sha256').update(changeId).digest('base64url').slice(0, 24)}`,
    clock: systemClock,
    random: () => randomInt(0, 1_000_000) / 1_000_000,
    get urlPolicy() {
      return webhookUrlPolicy();
    },
    resolve: async (host) => (await lookup(host, { all: true, verbatim: true })).map((answer) => answer.address),
    retryScale: Number.isFinite(scale) && scale > 0 ? scale : 1,
    budgetMs: SWEEP_BUDGET_MS,
    // EMF lines (the functions publish them at the end of each run): the stack alarms on them.
    observe: (figure, value) => {
      if (figure === 'oldest_due_seconds') gaugeMetric('OldestDueDeliverySeconds', value);
      else countMetric(figure === 'delivered' ? 'WebhookDeliveries' : 'WebhookDeliveriesFailed', value);
    },
  };
}
