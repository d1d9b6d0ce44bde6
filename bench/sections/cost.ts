import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FUNCTION_MEMORY_MB } from '#shared/platform/functions.js';
import type { OperationProbe } from '../cost-probe.js';
import type { Recorder } from '../report.js';

/**
 * 7 · Cost: what a million requests of each kind cost on AWS (US East), from what the bench
 * measures — request units (DynamoDB Local's ConsumedCapacity), round trips, CPU time, log bytes
 * — and the prices and assumptions in bench/prices-us-east-1.json, nothing else. The measuring
 * runs in a process of its own with INFO logging and metrics on, as deployed (bench/cost-probe.ts).
 *
 * Per request: HTTP API; Lambda requests (the handler, the authorizer on merchant routes, and a
 * share of the metrics stream consumer's batch on checkouts); Lambda duration, the CPU time
 * measured here stretched by the function's share of a vCPU, plus each DynamoDB round trip's
 * latency, rounded up to the millisecond; DynamoDB request units; CloudWatch Logs ingestion of
 * the function's stdout, the authorizer's and the API's access-log line. Goal: ≤ $3.00 per million
 * opt-outs. Beside it, the naive design the issue names — the same stack with Lambda's platform
 * log lines on and every event logged in full — and what each choice saved.
 */
const GOAL_OPT_OUT = 3.0;

interface PriceFile {
  date: string;
  prices: Record<
    | 'http_api_per_million_requests'
    | 'lambda_per_million_requests'
    | 'lambda_arm64_per_gb_second'
    | 'dynamodb_per_million_write_request_units'
    | 'dynamodb_per_million_read_request_units'
    | 'cloudwatch_logs_ingestion_per_gb',
    number
  >;
  assumptions: {
    lambda_full_vcpu_mb: number;
    dynamodb_round_trip_ms: Record<string, number>;
    log_event_overhead_bytes: number;
    stream_batching_window_seconds: number;
    stream_checkouts_per_second_per_shard: number;
    day_count_update_wru: number;
  };
}

/** Lambda's own lines per invocation when platform logs are on (text format; request ids and figures of typical length). */
const PLATFORM_LINES = [
  'START RequestId: 6f6f1a4e-3c1b-4f8e-9a51-0c5d7f3f2b9e Version: $LATEST\n',
  'END RequestId: 6f6f1a4e-3c1b-4f8e-9a51-0c5d7f3f2b9e\n',
  'REPORT RequestId: 6f6f1a4e-3c1b-4f8e-9a51-0c5d7f3f2b9e\tDuration: 12.34 ms\tBilled Duration: 13 ms\tMemory Size: 512 MB\tMax Memory Used: 98 MB\t\n',
];
/** The stage's access-log line (lib/api-stack.ts), filled with values of typical length. */
const ACCESS_LOG_LINE = JSON.stringify({
  requestId: 'Xk3vPj1OIAMEVxg=',
  ip: '203.0.113.24',
  requestTime: '23/Nov/2026:22:15:30 +0000',
  httpMethod: 'POST',
  routeKey: 'POST /api/v2/orders',
  status: '204',
  responseLength: '0',
  latency: '18',
  integrationError: '-',
  authorizerError: '-',
});
/** What a logger adds around a logged event (level, time, service, request id, message). */
const LOGGED_EVENT_FIELDS = 220;

type Operation = 'opt-out' | 'opt-in' | 'PATCH' | 'GET' | 'quote';
const OPERATIONS: { name: Operation; authorized: boolean; checkout: boolean }[] = [
  { name: 'opt-out', authorized: true, checkout: true },
  { name: 'opt-in', authorized: true, checkout: true },
  { name: 'PATCH', authorized: true, checkout: false },
  { name: 'GET', authorized: true, checkout: false },
  { name: 'quote', authorized: false, checkout: false },
];

interface Design {
  memoryMb: number;
  /** Lambda platform lines and every event logged in full (the naive design). */
  verboseLogs: boolean;
  /** Authorizer invocations per request (1 uncached; HTTP API result caching would make it about 0). */
  authorizerCalls: number;
}

export async function measureCost(record: Recorder): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'op-cost-'));
  let probes: Record<Operation | 'authorizer', OperationProbe>;
  try {
    const out = join(work, 'probe.json');
    const env = { ...process.env, POWERTOOLS_LOG_LEVEL: 'INFO', POWERTOOLS_METRICS_DISABLED: 'false', POWERTOOLS_SERVICE_NAME: 'order-protection' };
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'bench/cost-probe.ts', out], { env, maxBuffer: 64 * 1024 * 1024 });
    probes = JSON.parse(readFileSync(out, 'utf8')) as typeof probes;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const file = JSON.parse(readFileSync('bench/prices-us-east-1.json', 'utf8')) as PriceFile;
  const { prices, assumptions } = file;
  const perGb = prices.cloudwatch_logs_ingestion_per_gb / 1024 ** 3;
  const overhead = assumptions.log_event_overhead_bytes;
  const platformBytes = PLATFORM_LINES.reduce((sum, line) => sum + Buffer.byteLength(line) + overhead, 0);

  /** Billed milliseconds of one invocation: CPU stretched by the memory's vCPU share, plus round-trip latency, rounded up. */
  const billedMs = (probe: OperationProbe, memoryMb: number) => {
    const stretch = Math.max(1, assumptions.lambda_full_vcpu_mb / memoryMb);
    const waiting = Object.entries(probe.commands).reduce(
      (sum, [command, count]) => sum + count * (assumptions.dynamodb_round_trip_ms[command.split(' ')[0]!] ?? 5),
      0,
    );
    return Math.max(1, Math.ceil(probe.cpuMs * stretch + waiting));
  };
  const durationDollars = (ms: number, memoryMb: number) => (ms / 1000) * (memoryMb / 1024) * prices.lambda_arm64_per_gb_second * 1e6;
  const logDollars = (probe: OperationProbe, design: Design) =>
    (probe.logBytes + probe.logLines * overhead + (design.verboseLogs ? platformBytes + probe.eventBytes + LOGGED_EVENT_FIELDS + overhead : 0)) * perGb * 1e6;

  /** Dollars per million requests of `operation` under `design`, by part. */
  const costOf = (operation: (typeof OPERATIONS)[number], design: Design) => {
    const probe = probes[operation.name];
    const authorizer = probes.authorizer;
    const authorizerCalls = operation.authorized ? design.authorizerCalls : 0;
    // A checkout's record reaches the day counts through the stream: a share of one consumer batch (one UpdateItem per batch).
    const batchRecords = Math.min(1000, Math.max(1, assumptions.stream_batching_window_seconds * assumptions.stream_checkouts_per_second_per_shard));
    const streamShare = operation.checkout ? 1 / batchRecords : 0;
    const streamMs = (assumptions.dynamodb_round_trip_ms.UpdateItemCommand ?? 5) + 1;
    const parts = {
      'HTTP API': prices.http_api_per_million_requests,
      'Lambda requests': (1 + authorizerCalls + streamShare) * prices.lambda_per_million_requests,
      'Lambda duration':
        durationDollars(billedMs(probe, design.memoryMb), design.memoryMb) +
        authorizerCalls * durationDollars(billedMs(authorizer, design.memoryMb), design.memoryMb) +
        streamShare * durationDollars(streamMs, design.memoryMb),
      'DynamoDB writes':
        (probe.writeUnits + authorizerCalls * authorizer.writeUnits + streamShare * assumptions.day_count_update_wru) *
        prices.dynamodb_per_million_write_request_units,
      'DynamoDB reads': (probe.readUnits + authorizerCalls * authorizer.readUnits) * prices.dynamodb_per_million_read_request_units,
      'CloudWatch Logs':
        logDollars(probe, design) + authorizerCalls * logDollars(authorizer, design) + (Buffer.byteLength(ACCESS_LOG_LINE) + overhead) * perGb * 1e6,
    };
    const total = Object.values(parts).reduce((sum, dollars) => sum + dollars, 0);
    const [dominant, most] = Object.entries(parts).sort((a, b) => b[1] - a[1])[0]!;
    return { parts, total, dominant: `${dominant} ${Math.round((100 * most) / total)}%` };
  };
  const money = (dollars: number) => `$${dollars.toFixed(dollars < 0.1 ? 3 : 2)}`;
  const ours: Design = { memoryMb: FUNCTION_MEMORY_MB, verboseLogs: false, authorizerCalls: 1 };
  const naive: Design = { ...ours, verboseLogs: true };

  record({ subject: 'prices', figure: `bench/prices-us-east-1.json of ${file.date}`, goal: 'reported', ok: true });
  for (const operation of OPERATIONS) {
    const { parts, total, dominant } = costOf(operation, ours);
    const probe = probes[operation.name];
    const naiveTotal = costOf(operation, naive).total;
    const goal = operation.name === 'opt-out' ? GOAL_OPT_OUT : undefined;
    record({
      subject: `per million ${operation.name}s`,
      figure:
        `${money(total)} — ${Object.entries(parts)
          .map(([part, dollars]) => `${part} ${money(dollars)}`)
          .join(', ')}; most: ${dominant}` +
        ` (measured: ${probe.writeUnits.toFixed(1)} WRU, ${probe.readUnits.toFixed(1)} RRU, ${probe.roundTrips.toFixed(0)} round trips, ${probe.cpuMs.toFixed(2)} ms CPU, ${probe.logBytes.toFixed(0)} log bytes)`,
      baseline: `naive ${money(naiveTotal)}`,
      ratio: total / naiveTotal,
      goal: goal ? `≤ ${money(goal)}` : 'reported',
      ok: goal ? total <= goal : true,
    });
  }

  // The ledger's share of an opt-in (issue 28): an entry per policy, written by the ledger's stream consumer
  // (two conditional PutItems each since issue 35, its id record and itself, each under 1 KB: 2 WRU), and a share
  // of its batch (one invocation and one statement UpdateItem per statement per batch, batched over the same window as the day counts).
  {
    const policiesPerOptIn = 2; // bench/fixtures.ts: the opt-in cart holds two tickets
    const wruPerEntry = 2;
    const batchRecords = Math.min(1000, Math.max(1, assumptions.stream_batching_window_seconds * assumptions.stream_checkouts_per_second_per_shard));
    const share = 1 / batchRecords;
    const writes = (policiesPerOptIn * wruPerEntry + share * assumptions.day_count_update_wru) * prices.dynamodb_per_million_write_request_units;
    const streamMs =
      policiesPerOptIn * wruPerEntry * ((assumptions.dynamodb_round_trip_ms.PutItemCommand ?? 5) + 1) +
      (assumptions.dynamodb_round_trip_ms.UpdateItemCommand ?? 5) * share;
    const lambda = share * prices.lambda_per_million_requests + durationDollars(streamMs, FUNCTION_MEMORY_MB);
    const optIn = costOf(
      OPERATIONS.find((operation) => operation.name === 'opt-in')!,
      ours,
    ).total;
    record({
      subject: "the ledger's share per million opt-ins",
      figure: `${money(writes + lambda)} (${policiesPerOptIn} entries at ${wruPerEntry} WRU ${money(policiesPerOptIn * wruPerEntry * prices.dynamodb_per_million_write_request_units)}, statements and the consumer's Lambda ${money(writes + lambda - policiesPerOptIn * wruPerEntry * prices.dynamodb_per_million_write_request_units)}): ${((100 * (writes + lambda)) / optIn).toFixed(0)}% on top of an opt-in's ${money(optIn)}`,
      goal: 'reported',
      ok: true,
    });
  }

  // What each choice saved (or would), per million opt-outs.
  const optOut = OPERATIONS[0]!;
  const base = costOf(optOut, ours).total;
  const recordWru = probes['opt-out'].writeUnits;
  // Before the day counts came from the stream, an opt-out was a transaction of its record and the day's counter: both at 2 WRU a KB.
  const counterDesign = base + (2 * recordWru + 2 - recordWru) * prices.dynamodb_per_million_write_request_units;
  record({
    subject: 'choice: day counts from the stream',
    figure: `opt-out ${money(base)} instead of ${money(counterDesign)} with a counter in its transaction (1 PutItem, ${recordWru.toFixed(0)} WRU, instead of a 2-item transaction, ${(2 * recordWru + 2).toFixed(0)} WRU)`,
    goal: 'reported',
    ok: true,
  });
  record({
    subject: 'choice: no platform lines, no event logs',
    figure: `opt-out ${money(base)} instead of ${money(costOf(optOut, naive).total)} (Lambda JSON logs at system level WARN; one INFO line a request, never the event)`,
    goal: 'reported',
    ok: true,
  });
  record({
    subject: 'choice: authorizer result cache (not taken)',
    figure: `would save ${money(base - costOf(optOut, { ...ours, authorizerCalls: 0 }).total)} per million; costs the error envelope of a request without Authorization (API Gateway answers it itself) — docs/performance.md "Scale and cost"`,
    goal: 'reported',
    ok: true,
  });
  record({
    subject: 'choice: memory',
    figure:
      [256, 512, 1024].map((mb) => `${mb} MB ${money(costOf(optOut, { ...ours, memoryMb: mb }).total)} (${billedMs(probes['opt-out'], mb)} ms)`).join(', ') +
      ` per million opt-outs; ${FUNCTION_MEMORY_MB} MB kept`,
    goal: 'reported',
    ok: true,
  });
}
