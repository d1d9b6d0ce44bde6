/**
 * Business metrics as CloudWatch Embedded Metric Format: one JSON line on stdout that CloudWatch
 * turns into metrics, no SDK call and no extra latency. Dimensions are fixed, low-cardinality
 * names (never a client id, order number or anything personal).
 */
const NAMESPACE = 'OrderProtection';

export type MetricName = 'OrdersOptedOut' | 'OrdersOptedIn' | 'PolicyChanges' | 'Errors';

export function emitMetric(name: MetricName, value: number, dimensions: Record<string, string> = {}): void {
  if (process.env.POWERTOOLS_METRICS_DISABLED === 'true') return;
  const dimensionNames = Object.keys(dimensions);
  const line = {
    _aws: {
      Timestamp: Date.now(),
      CloudWatchMetrics: [{ Namespace: NAMESPACE, Dimensions: [['service', ...dimensionNames]], Metrics: [{ Name: name, Unit: 'Count' }] }],
    },
    service: 'order-protection',
    ...dimensions,
    [name]: value,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}
