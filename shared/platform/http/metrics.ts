import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { logger } from './logger.js';

/**
 * Business metrics with Powertools Metrics: CloudWatch Embedded Metric Format lines on stdout,
 * flushed after each request by its Middy middleware (`logMetrics` in shared/platform/http/middleware.ts),
 * no SDK call and no extra latency. Dimensions are fixed, low-cardinality names (never a client id,
 * order number or anything personal). Locally POWERTOOLS_METRICS_DISABLED turns them off.
 */
export type MetricName =
  'OrdersOptedOut' | 'OrdersOptedIn' | 'PolicyChanges' | 'Errors' | 'WebhookDeliveries' | 'WebhookDeliveriesFailed' | 'OldestDueDeliverySeconds';

// Its own notices ("No application metrics to publish" after every request that counts nothing)
// are not worth a log line each in production: they go to the service's logger at debug level.
const notices = { debug: logger.debug.bind(logger), info: logger.debug.bind(logger), warn: logger.debug.bind(logger), error: logger.error.bind(logger) };

export const metrics = new Metrics({ namespace: 'OrderProtection', serviceName: 'order-protection', logger: notices });

/** Counts `value` of `name`; with dimensions, as a metric of its own (flushed at once). */
export function countMetric(name: MetricName, value: number, dimensions: Record<string, string> = {}): void {
  const entries = Object.entries(dimensions);
  if (entries.length === 0) {
    metrics.addMetric(name, MetricUnit.Count, value);
    return;
  }
  const single = metrics.singleMetric();
  for (const [dimension, dimensionValue] of entries) single.addDimension(dimension, dimensionValue);
  single.addMetric(name, MetricUnit.Count, value);
}

/** A value that is not a count (a maximum age, in seconds). */
export function gaugeMetric(name: MetricName, seconds: number): void {
  metrics.addMetric(name, MetricUnit.Seconds, seconds);
}
