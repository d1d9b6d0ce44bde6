import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { apiEvent } from '../scripts/local/api-events.js';
import { createFixtures, lambdaContext } from './fixtures.js';
import { startBenchEnvironment } from './environment.js';

/**
 * `npm run bench:profile -- [opt-in] [--no-db]`: where a warm handler's CPU goes. Sends REQUESTS
 * checkouts (opt-outs unless `opt-in`) through the orders-create handler, 16 at a time as the
 * throughput section does, under V8's sampling profiler, and prints the self time by package or
 * file and by function, so that the work around the DynamoDB write can be seen and cut. With
 * `--no-db`, every DynamoDB call after the warm-up is answered at once by the client itself, so
 * only the handler's own CPU remains. The profile is written to bench/profile.cpuprofile (open it
 * in Chrome's DevTools); the throughput section's CPU goal is the verdict, this is the map.
 */
const REQUESTS = 4_000;
const CONCURRENCY = 16;
const TOP = 30;

const kind = process.argv.includes('opt-in') ? 'optIn' : 'optOut';
const noDb = process.argv.includes('--no-db');
const dynamo = await startBenchEnvironment('profile');

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

try {
  const fixtures = await createFixtures();
  const handler = fixtures.handlers['orders-create'];
  const run = async (count: number) => {
    const events = Array.from({ length: count }, () => apiEvent(fixtures.requests[kind]()));
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < count) {
          const response = await handler(events[next++]!, lambdaContext());
          if (response.statusCode !== 201 && response.statusCode !== 204) throw new Error(`HTTP ${response.statusCode} ${response.body}`);
        }
      }),
    );
  };
  await run(1_000); // warm: JIT, pooled connections
  if (noDb) {
    const { sharedDocumentClient } = await import('#shared/platform/dynamo/dynamo-client.js');
    sharedDocumentClient().middlewareStack.add(() => () => Promise.resolve({ output: { $metadata: {} }, response: {} }), {
      step: 'initialize',
      name: 'noDb',
      priority: 'high',
    });
    await run(1_000);
  }
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  const cpu = process.cpuUsage();
  const started = performance.now();
  await run(REQUESTS);
  const used = process.cpuUsage(cpu);
  const elapsed = performance.now() - started;
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  writeFileSync(new URL('./profile.cpuprofile', import.meta.url), JSON.stringify(profile));

  const nodes = profile.nodes as ProfileNode[];
  const total = nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0);
  const cpuMs = (used.user + used.system) / 1000 / REQUESTS;
  const place = (url: string) => {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
    if (pkg) return pkg[1]!;
    if (url.startsWith('node:') || url === '') return url || '(V8 / native)';
    return url.replace(/^file:\/\/.*?\/(shared|functions|scripts|bench)\//, '$1/');
  };
  const byPlace = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const node of nodes) {
    const hits = node.hitCount ?? 0;
    const where = place(node.callFrame.url);
    byPlace.set(where, (byPlace.get(where) ?? 0) + hits);
    const name = `${node.callFrame.functionName || '(anonymous)'}  ${where}:${node.callFrame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + hits);
  }
  const share = (hits: number) => `${((hits / total) * 100).toFixed(1).padStart(5)} %  ${((hits / total) * cpuMs * 1000).toFixed(0).padStart(4)} µs/req`;
  console.log(`${kind}: ${REQUESTS} requests, ${(REQUESTS / (elapsed / 1000)).toFixed(0)} req/s, ${cpuMs.toFixed(2)} ms CPU a request (this process)\n`);
  console.log('Self time by package or file:');
  for (const [where, hits] of [...byPlace].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`  ${share(hits)}  ${where}`);
  console.log('\nSelf time by function:');
  for (const [name, hits] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`  ${share(hits)}  ${name}`);
} finally {
  await dynamo.stop();
}
process.exit(0);
