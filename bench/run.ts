import autocannon from 'autocannon';
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { BUNDLING } from '../lib/service-function.js';
import { apiEvent, type ApiEventInput } from '../scripts/api-events.js';
import { startLocalServer } from '../scripts/local-server.js';
import { startLocalStack } from '../scripts/local-stack.js';
import { createClient } from '../shared/auth/clients.js';
import { generateKeySet } from '../shared/auth/signing-keys.js';
import { signToken } from '../shared/auth/tokens.js';
import { DynamoClientStore } from '../shared/infra/client-store.js';
import { sharedDocumentClient } from '../shared/infra/dynamo-client.js';
import { checkoutKey, dayCounterKey } from '../shared/infra/keys.js';
import { countRoundTrips } from '../shared/infra/round-trips.js';
import { retryOnConflict } from '../shared/infra/transactions.js';

/**
 * `npm run bench`: bundle sizes, cold imports, DynamoDB round trips, in-process throughput and
 * HTTP latency, each beside a baseline measured in the same run, on DynamoDB Local. Prints one
 * table, writes bench/results.json, and exits 1 when a goal does not hold. Never part of npm test.
 */
type Row = { section: string; subject: string; figure: string; baseline: string; ratio: string; goal: string; ok: boolean };
const rows: Row[] = [];
const record = (row: Omit<Row, 'ratio'> & { ratio?: number }) => rows.push({ ...row, ratio: row.ratio === undefined ? '' : row.ratio.toFixed(2) });
const FUNCTIONS = ['authorizer', 'auth-token', 'quotes-create', 'orders-create', 'orders-read', 'orders-change', 'metrics-conversion'] as const;
type FunctionName = (typeof FUNCTIONS)[number];
const COLD_RUNS = 21;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const freePort = () => new Promise<number>((resolve) => { const s = createServer().listen(0, '127.0.0.1', () => { const p = (s.address() as { port: number }).port; s.close(() => resolve(p)); }); });
const lambdaContext = { awsRequestId: 'bench', functionName: 'bench', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED = 'true';
process.env.SIGNING_KEYS = JSON.stringify({ access: generateKeySet('access'), quote: generateKeySet('quote') });
process.env.TABLE_NAME = 'bench-main';
process.env.METRICS_TABLE_NAME = 'bench-metrics';

const work = mkdtempSync(join(tmpdir(), 'op-bench-'));
const dynamo = await startLocalStack({ port: await freePort(), tables: { main: 'bench-main', metrics: 'bench-metrics' } });
process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;

try {
  // Fixtures: a client, an access token, a quote, an order to read and change.
  const client = await createClient(new DynamoClientStore(sharedDocumentClient(), 'bench-main'), { name: 'Bench Shop' });
  const token = await signToken('access', client.client_id, {}, 3600);
  const handlers = Object.fromEntries(await Promise.all(FUNCTIONS.map(async (name) => [name, (await import(`../functions/${name}/handler.ts`)).handler]))) as Record<FunctionName, (event: unknown, context: Context) => Promise<{ statusCode?: number; body?: string; isAuthorized?: boolean }>>;
  const call = async (name: FunctionName, input: ApiEventInput) => handlers[name](name === 'authorizer' ? { headers: input.headers } : apiEvent(input), lambdaContext);
  const items = [{ name: 'Seat A1', reference_number: 'b-1', cost: '120.00' }, { name: 'Seat A2', reference_number: 'b-2', cost: '35.50' }];
  const quote = JSON.parse((await call('quotes-create', { method: 'POST', path: '/api/v2/quotes', headers: { 'x-public-key': client.public_key }, body: { currency: 'USD', items } })).body!);
  let serial = 0;
  const optIn = () => ({ method: 'POST', path: '/api/v2/orders', clientId: client.client_id, body: { token: quote.tokens.opt_in, order_number: `IN-${serial++}`, currency: 'USD', items } });
  const optOut = () => ({ method: 'POST', path: '/api/v2/orders', clientId: client.client_id, body: { token: quote.tokens.opt_out, order_number: `OUT-${serial++}`, currency: 'USD', items } });
  const orderId = JSON.parse((await call('orders-create', optIn())).body!).service_order_id as string;

  // 1 · Bundle sizes, as the CDK construct bundles them, beside the baseline.
  const bundle = async (entry: string, name: string) => {
    const result = await build({
      entryPoints: [entry], bundle: true, platform: 'node', write: false, outfile: join(work, name, 'index.mjs'),
      minify: BUNDLING.minify, format: 'esm', target: BUNDLING.target, mainFields: BUNDLING.mainFields, banner: { js: BUNDLING.banner }, external: BUNDLING.externalModules,
    });
    const code = result.outputFiles[0]!.text;
    mkdirSync(join(work, name), { recursive: true });
    writeFileSync(join(work, name, 'index.mjs'), code);
    return Buffer.byteLength(code);
  };
  const baselineBytes = await bundle('bench/baseline-handler.ts', 'baseline');
  const sizes: Record<string, number> = {};
  for (const name of FUNCTIONS) {
    sizes[name] = await bundle(`functions/${name}/handler.ts`, name);
    const ratio = sizes[name]! / baselineBytes;
    record(name === 'authorizer'
      ? { section: '1 bundle', subject: name, figure: `${(sizes[name]! / 1024).toFixed(1)} KB`, baseline: `${(baselineBytes / 1024).toFixed(1)} KB`, ratio, goal: '≤ 50 KB', ok: sizes[name]! <= 50 * 1024 }
      : { section: '1 bundle', subject: name, figure: `${(sizes[name]! / 1024).toFixed(1)} KB`, baseline: `${(baselineBytes / 1024).toFixed(1)} KB`, ratio, goal: '≤ 1.10×', ok: ratio <= 1.1 });
  }

  // 2 · Cold import: fresh node processes import the bundle and call it once.
  const events: Record<string, unknown> = {
    baseline: {},
    authorizer: { headers: { authorization: `JWT ${token}` } },
    'auth-token': apiEvent({ method: 'POST', path: '/api/v2/auth/token', body: { public_key: client.public_key, secret_key: client.secret_key } }),
    'quotes-create': apiEvent({ method: 'POST', path: '/api/v2/quotes', headers: { 'x-public-key': client.public_key }, body: { currency: 'USD', items } }),
    'orders-create': apiEvent(optOut()),
    'orders-read': apiEvent({ method: 'GET', path: `/api/v2/orders/${orderId}`, clientId: client.client_id }),
    'orders-change': apiEvent({ method: 'PATCH', path: `/api/v2/orders/${orderId}`, clientId: client.client_id, body: { items: [{ name: 'x', old_reference_number: 'nope', reference_number: 'x', cost: '1' }] } }),
    'metrics-conversion': apiEvent({ method: 'GET', path: '/api/v2/metrics/conversion', clientId: client.client_id }),
  };
  const coldStartOnce = (name: string): number => {
    const script = `const t=performance.now();const m=await import(${JSON.stringify(join(work, name, 'index.mjs'))});await m.handler(JSON.parse(require('fs').readFileSync(${JSON.stringify(join(work, name, 'event.json'))},'utf8')),{awsRequestId:'b',getRemainingTimeInMillis:()=>9e3});process.stdout.write(String(performance.now()-t));`;
    return Number(execFileSync(process.execPath, ['--input-type=module', '-e', `import{createRequire}from'module';const require=createRequire(import.meta.url);${script}`], { env: process.env, encoding: 'utf8' }));
  };
  // Interleaved (baseline, f1, f2, … per round) so that drift in the machine's load hits all alike.
  const subjects = ['baseline', ...FUNCTIONS];
  for (const name of subjects) writeFileSync(join(work, name, 'event.json'), JSON.stringify(events[name]));
  const samples = Object.fromEntries(subjects.map((name) => [name, [] as number[]]));
  for (let round = 0; round < COLD_RUNS; round++) for (const name of subjects) samples[name]!.push(coldStartOnce(name));
  const baselineCold = median(samples.baseline!);
  for (const name of FUNCTIONS) {
    const ms = median(samples[name]!);
    const ratio = ms / baselineCold;
    const goal = name === 'authorizer' ? 0.3 : 1.15;
    record({ section: '2 cold import', subject: name, figure: `${ms.toFixed(1)} ms`, baseline: `${baselineCold.toFixed(1)} ms`, ratio, goal: `≤ ${goal}×`, ok: ratio <= goal });
  }

  // 3 · DynamoDB round trips per operation, counted on the functions' shared client.
  const counter = countRoundTrips(sharedDocumentClient());
  const trips = async (subject: string, goal: number, run: () => Promise<unknown>) => {
    counter.reset();
    await run();
    record({ section: '3 round trips', subject, figure: String(counter.count), baseline: '', goal: `≤ ${goal}`, ok: counter.count <= goal });
  };
  await trips('authorizer', 0, () => call('authorizer', { method: 'GET', path: '/', headers: { authorization: `JWT ${token}` } }));
  await trips('auth token', 1, () => call('auth-token', { method: 'POST', path: '/api/v2/auth/token', body: { public_key: client.public_key, secret_key: client.secret_key } }));
  await trips('quote', 1, () => call('quotes-create', { method: 'POST', path: '/api/v2/quotes', headers: { 'x-public-key': client.public_key }, body: { currency: 'USD', items } }));
  await trips('opt-out order', 1, () => call('orders-create', optOut()));
  await trips('opt-in order (quote token)', 1, () => call('orders-create', optIn()));
  await trips('opt-in order (no token: client read)', 2, () => call('orders-create', { method: 'POST', path: '/api/v2/orders', clientId: client.client_id, body: { order_number: `NT-${serial++}`, currency: 'USD', items } }));
  await trips('GET order', 1, () => call('orders-read', { method: 'GET', path: `/api/v2/orders/${orderId}`, clientId: client.client_id }));
  await trips('PATCH order', 2, () => call('orders-change', { method: 'PATCH', path: `/api/v2/orders/${orderId}`, clientId: client.client_id, body: { items: [{ name: 'VIP', old_reference_number: 'b-1', reference_number: 'vip-1', cost: '200.00' }] } }));
  counter.detach();

  // 4 · Throughput: warm handlers, 16 at a time, beside a raw SDK loop sending the same writes.
  const TOTAL = 400;
  const CONCURRENCY = 16;
  const pool = async (run: (i: number) => Promise<unknown>) => {
    let next = 0;
    const started = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => { while (next < TOTAL) await run(next++); }));
    return TOTAL / ((performance.now() - started) / 1000);
  };
  const doc = sharedDocumentClient();
  // The raw loop sends the very transaction the handler sends (same actions, same sizes, same
  // retry on conflicts with concurrent transactions), without anything else the handler does.
  const day = new Date().toISOString().slice(0, 10);
  const rawWrite = (n: number, kind: 'out' | 'in') => {
    const checkout = { ...checkoutKey(client.client_id, `RAW-${kind}-${serial}-${n}`), entity: 'checkout', opt_in: kind === 'in', currency: 'USD', item_count: 2, subtotal: '155.50', premium_total: '13.22', day };
    const actions: object[] = [
      { Put: { TableName: 'bench-metrics', Item: checkout, ConditionExpression: 'attribute_not_exists(PK)' } },
      { Update: { TableName: 'bench-metrics', Key: dayCounterKey(client.client_id, day), UpdateExpression: 'ADD #c :one', ExpressionAttributeNames: { '#c': kind === 'in' ? 'opt_in' : 'opt_out' }, ExpressionAttributeValues: { ':one': 1 } } },
    ];
    if (kind === 'in') {
      const pk = `CLIENT#${client.client_id}#ORDER#raw-${serial}-${n}`;
      actions.push({ Put: { TableName: 'bench-main', Item: { PK: pk, SK: 'ORDER', entity: 'order', order_number: `RAW-${n}`, currency: 'USD', subtotal: 15550, rate_ppm: 85000, version: 1, customer: null, created: day, updated: day }, ConditionExpression: 'attribute_not_exists(PK)' } });
      for (const item of items) actions.push({ Put: { TableName: 'bench-main', Item: { PK: pk, SK: `ITEM#${item.reference_number}`, entity: 'item', ...item, policy: { policy_number: 'OP-RAW', premium: 1020, coverage_amount: 12000, status: 'Issued' } }, ConditionExpression: 'attribute_not_exists(PK)' } });
    }
    return retryOnConflict(() => doc.send(new TransactWriteCommand({ TransactItems: actions as never })));
  };
  for (const [subject, kind, makeEvent] of [['opt-out handler', 'out', optOut], ['opt-in handler', 'in', optIn]] as const) {
    await pool((n) => rawWrite(n, kind)); // warm-up of both paths (JIT, sockets) before anything is timed
    await pool(() => call('orders-create', makeEvent()));
    const rawRate = await pool((n) => rawWrite(n, kind));
    const rate = await pool(() => call('orders-create', makeEvent()));
    record({ section: '4 throughput', subject, figure: `${rate.toFixed(0)} req/s`, baseline: `${rawRate.toFixed(0)} req/s raw`, ratio: rate / rawRate, goal: '≥ 0.85×', ok: rate / rawRate >= 0.85 });
  }

  // 5 · HTTP latency of opt-out orders through the local server (loopback, 5 s).
  const local = await startLocalServer({ port: 0, dynamoEndpoint: dynamo.endpoint });
  const localToken = await signToken('access', local.demo.client_id, {}, 3600);
  const localQuote = await (await fetch(`${local.baseUrl}/api/v2/quotes`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-public-key': local.demo.public_key }, body: JSON.stringify({ currency: 'USD', items }) })).json() as { tokens: { opt_out: string } };
  const result = await autocannon({
    url: `${local.baseUrl}/api/v2/orders`, method: 'POST', connections: 16, duration: 5,
    headers: { 'content-type': 'application/json', authorization: `JWT ${localToken}` },
    body: JSON.stringify({ token: localQuote.tokens.opt_out, order_number: 'HTTP-1', currency: 'USD', items }),
  });
  await local.stop();
  const http204 = result['2xx'] === result.requests.total && result.non2xx === 0;
  record({ section: '5 HTTP', subject: 'opt-out p50 / p99', figure: `${result.latency.p50} / ${result.latency.p99} ms`, baseline: '', goal: 'reported', ok: http204 });
  record({ section: '5 HTTP', subject: 'opt-out throughput', figure: `${result.requests.average.toFixed(0)} req/s`, baseline: '', goal: 'all 2xx', ok: http204 });
} finally {
  await dynamo.stop();
  rmSync(work, { recursive: true, force: true });
}

const widths = ['section', 'subject', 'figure', 'baseline', 'ratio', 'goal'].map((k) => Math.max(k.length, ...rows.map((r) => String(r[k as keyof Row]).length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
console.log(line(['section', 'subject', 'figure', 'baseline', 'ratio', 'goal']) + ' ok');
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|---`);
for (const r of rows) console.log(`${line([r.section, r.subject, r.figure, r.baseline, r.ratio, r.goal])} ${r.ok ? 'yes' : 'NO'}`);
writeFileSync('bench/results.json', `${JSON.stringify({ measured_at: new Date().toISOString(), node: process.version, rows }, null, 2)}\n`);
const failed = rows.filter((r) => !r.ok);
console.log(failed.length ? `\n${failed.length} goal(s) missed: ${failed.map((r) => `${r.section} ${r.subject}`).join(', ')}` : '\nevery goal holds');
process.exit(failed.length ? 1 : 0);
