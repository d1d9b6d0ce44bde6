import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFixtures } from './fixtures.js';
import { Report } from './report.js';
import { measureBundles } from './sections/bundle.js';
import { measureColdImports } from './sections/cold-import.js';
import { measureHttp } from './sections/http.js';
import { countOperationRoundTrips } from './sections/round-trips.js';
import { measureThroughput } from './sections/throughput.js';
import { measureScale } from './sections/scale.js';
import { measureCost } from './sections/cost.js';
import { measureWebhookLatency } from './sections/webhooks.js';
import { measureIdle } from './sections/idle.js';
import { measureExport } from './sections/export.js';
import { measureEvidence } from './sections/evidence.js';
import { measureWidgetLocales } from './sections/widget-locales.js';
import { startBenchEnvironment } from './environment.js';

/**
 * `npm run bench`: bundle sizes, cold imports, DynamoDB round trips, in-process throughput and
 * HTTP latency, each beside a baseline measured in the same run, on DynamoDB Local. Prints the
 * machine's load per section and one table, writes bench/results.json, and exits 1 when a goal
 * does not hold. Never part of npm test. How each section measures: bench/README.md.
 */

process.env.WEBHOOK_URLS = 'local'; // the webhooks section's receiver is on 127.0.0.1
const work = mkdtempSync(join(tmpdir(), 'op-bench-'));
const dynamo = await startBenchEnvironment('bench');
const report = new Report();
// `npm run bench -- scale cost`: only the sections named (cold import needs bundle's bundles).
const only = process.argv.slice(2);
const section: Report['section'] = (name, timing, measure) =>
  only.length === 0 || only.some((word) => name.includes(word)) ? report.section(name, timing, measure) : Promise.resolve();
try {
  const fixtures = await createFixtures();
  await section('1 bundle', 'untimed', (record) => measureBundles(record, work));
  await section('2 cold import', 'timed', (record) => measureColdImports(record, fixtures, work));
  await section('3 round trips', 'untimed', (record) => countOperationRoundTrips(record, fixtures));
  await section('4 throughput', 'timed', (record) => measureThroughput(record, fixtures, dynamo.pid));
  await section('5 HTTP', 'timed', (record) => measureHttp(record));
  await section('6 scale', 'untimed', (record) => measureScale(record, fixtures, dynamo));
  await section('7 cost', 'timed', (record) => measureCost(record));
  await section('8 webhooks', 'timed', (record) => measureWebhookLatency(record, fixtures, dynamo));
  await section('9 idle', 'untimed', (record) => measureIdle(record));
  await section('10 export', 'timed', (record) => measureExport(record, dynamo.endpoint));
  await section('11 evidence', 'untimed', (record) => measureEvidence(record));
  await section('12 widget locales', 'untimed', (record) => measureWidgetLocales(record));
} finally {
  await dynamo.stop();
  rmSync(work, { recursive: true, force: true });
}
process.exit(report.finish());
