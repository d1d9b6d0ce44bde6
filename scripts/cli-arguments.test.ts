import { describe, expect, it } from 'vitest';
import { deployedTables, UsageError } from './cli-arguments.js';

describe('deployedTables (the CLIs with --aws)', () => {
  const env = { TABLE_NAME: 'Data-Main', METRICS_TABLE_NAME: 'Data-Metrics', AWS_REGION: 'eu-west-1' };

  it('takes the table, the metrics table when asked, and the region from the environment', () => {
    expect(deployedTables({}, env)).toEqual({ tableName: 'Data-Main', region: 'eu-west-1' });
    expect(deployedTables({ metrics: true }, env)).toEqual({ tableName: 'Data-Main', metricsTableName: 'Data-Metrics', region: 'eu-west-1' });
    expect(deployedTables({}, { TABLE_NAME: 'Data-Main', AWS_DEFAULT_REGION: 'ap-south-1' }).region).toBe('ap-south-1');
  });

  it('refuses, naming every missing one and the stack output that holds it, rather than default to npm start’s names', () => {
    expect(() => deployedTables({ metrics: true }, {})).toThrow(
      new UsageError(
        '--aws needs TABLE_NAME (the OrderProtectionData output MainTableName), METRICS_TABLE_NAME (its output MetricsTableName), AWS_REGION (the region it is deployed in) set: see docs/operations.md, "After the first deploy"',
      ),
    );
    expect(() => deployedTables({}, { ...env, AWS_REGION: '' })).toThrow(/AWS_REGION \(the region it is deployed in\)/);
    expect(() => deployedTables({}, { AWS_REGION: 'eu-west-1', METRICS_TABLE_NAME: 'x' })).toThrow(/^--aws needs TABLE_NAME \(/);
  });
});
