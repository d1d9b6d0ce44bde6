import { dispatchChanges } from '#shared/webhooks/dispatch-webhooks.js';
import { metrics } from '#shared/platform/http/metrics.js';
import { recordChanges, type StreamWindowEvent, type StreamWindowResponse } from '#shared/platform/dynamo/stream-events.js';
import { webhookDeps } from '#shared/webhooks/webhook-deps.js';

const deps = webhookDeps();

/**
 * The metrics table's stream → `order.opted_out` webhooks: an opt-out leaves only its checkout
 * record, which carries the order number sealed for this function. Otherwise as webhooks-dispatch.
 */
export const handler = async (event: StreamWindowEvent): Promise<StreamWindowResponse> => {
  try {
    await dispatchChanges(deps, recordChanges(event.Records), 'checkouts');
  } finally {
    metrics.publishStoredMetrics();
  }
  return { state: {} };
};
