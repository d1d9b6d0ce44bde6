import { retryDue } from '#shared/webhooks/dispatch-webhooks.js';
import { metrics } from '#shared/platform/http/metrics.js';
import { webhookDeps } from '#shared/webhooks/webhook-deps.js';

const deps = webhookDeps();

/** Every minute (EventBridge; npm start: its localEverySeconds while requests come): the next attempt of each webhook delivery that is due. */
export const handler = async (): Promise<{ attempted: number }> => {
  try {
    return { attempted: await retryDue(deps) };
  } finally {
    metrics.publishStoredMetrics();
  }
};
