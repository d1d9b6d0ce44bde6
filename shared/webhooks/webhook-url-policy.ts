import type { WebhookUrlPolicy } from './webhook-url.js';

/**
 * The webhook URL rules in force: deployed, the strict ones; under npm start (WEBHOOK_URLS=local)
 * also http://localhost receivers, on any port but those in WEBHOOK_REFUSED_PORTS (the API's own
 * and DynamoDB Local's, which npm start sets once it listens). Read at each check.
 */
export function webhookUrlPolicy(): WebhookUrlPolicy {
  if (process.env.WEBHOOK_URLS !== 'local') return 'deployed';
  const refusedPorts = (process.env.WEBHOOK_REFUSED_PORTS ?? '')
    .split(',')
    .map(Number)
    .filter((port) => Number.isInteger(port) && port > 0);
  return { local: { refusedPorts } };
}
