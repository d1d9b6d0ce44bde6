import { dispatchChanges } from '#shared/webhooks/dispatch-webhooks.js';
import { recordChanges, type StreamWindowEvent, type StreamWindowResponse } from '#shared/platform/dynamo/stream-events.js';
import { metrics } from '#shared/platform/http/metrics.js';
import { webhookDeps } from '#shared/webhooks/webhook-deps.js';

const deps = webhookDeps();

/**
 * The main table's stream → webhooks. Each batch's changes of orders become events (order.created,
 * policy.*, order.canceled), recorded with a delivery per subscribed endpoint and sent at once;
 * a failed delivery waits for the retry sweep (functions/webhooks-retry). A throw makes Lambda
 * (or npm start's pump) give the batch again: what was recorded is found, nothing is lost, and a
 * delivery sent twice carries the same webhook-id.
 */
export const handler = async (event: StreamWindowEvent): Promise<StreamWindowResponse> => {
  try {
    await dispatchChanges(deps, recordChanges(event.Records));
  } finally {
    metrics.publishStoredMetrics();
  }
  return { state: {} };
};
