import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as MetricsModule from './metrics.js';

/** The EMF lines CloudWatch turns into the dashboard's metrics: namespace, names, dimensions. */
const lines: string[] = [];
let metricsModule: typeof MetricsModule;

beforeAll(async () => {
  vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  vi.resetModules(); // its own copy, made with metrics on, whatever this worker imported before
  metricsModule = await import('./metrics.js');
});
afterAll(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

const emf = () =>
  lines
    .flatMap((line) => line.split('\n'))
    .filter((line) => line.includes('"_aws"'))
    .map(
      (line) =>
        JSON.parse(line) as Record<string, unknown> & {
          _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] };
        },
    );

describe('countMetric', () => {
  it('writes counts under OrderProtection, with the service dimension and any given one', () => {
    const { countMetric, metrics } = metricsModule;

    countMetric('OrdersOptedIn', 1);
    countMetric('PolicyChanges', 2, { change_type: 'upgrade' });
    metrics.publishStoredMetrics();

    const [changes, optedIn] = emf();
    expect(changes?._aws.CloudWatchMetrics[0]).toMatchObject({
      Namespace: 'OrderProtection',
      Dimensions: [['service', 'change_type']],
      Metrics: [{ Name: 'PolicyChanges', Unit: 'Count' }],
    });
    expect(changes).toMatchObject({ service: 'order-protection', change_type: 'upgrade', PolicyChanges: 2 });
    expect(optedIn?._aws.CloudWatchMetrics[0]).toMatchObject({
      Namespace: 'OrderProtection',
      Dimensions: [['service']],
      Metrics: [{ Name: 'OrdersOptedIn', Unit: 'Count' }],
    });
    expect(optedIn).toMatchObject({ OrdersOptedIn: 1 });
  });
});
