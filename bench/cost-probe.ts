import { apiEvent } from '../scripts/local/api-events.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { meterCapacity } from './meters/capacity-meter.js';
import { countRoundTrips } from './meters/round-trips.js';
import { createFixtures, lambdaContext, placeOrder, type Fixtures } from './fixtures.js';
import { writeFileSync } from 'node:fs';

/**
 * The cost section's measurements, in a process of its own that runs as a deployed function
 * does: INFO logging and Powertools metrics on (the bench process keeps both off). For each
 * operation, CALLS warm calls one after another: CPU time, bytes written to stdout (what Lambda
 * ships to CloudWatch Logs), DynamoDB round trips and their commands, request units (measured by
 * DynamoDB Local), and the size of the event API Gateway hands the function. Writes them as JSON
 * to the file named on the command line.
 */
const CALLS = 200;
const WARM_UP = 20;

let stdoutBytes = 0;
let stdoutLines = 0;
process.stdout.write = (chunk: string | Uint8Array) => {
  stdoutBytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
  stdoutLines += (typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString()).split('\n').length - 1;
  return true;
};

export interface OperationProbe {
  cpuMs: number;
  logBytes: number;
  logLines: number;
  roundTrips: number;
  /** Round trips per call, by command. */
  commands: Record<string, number>;
  readUnits: number;
  writeUnits: number;
  eventBytes: number;
}

const fixtures: Fixtures = await createFixtures();
const doc = sharedDocumentClient();

async function probe(
  name: string,
  makeCall: (n: number) => { fn: keyof Fixtures['handlers']; event: unknown; status: number | boolean },
): Promise<OperationProbe> {
  const run = async (n: number) => {
    const { fn, event, status } = makeCall(n);
    const answer = await fixtures.handlers[fn](event, lambdaContext());
    const got = typeof status === 'boolean' ? answer.isAuthorized : answer.statusCode;
    if (got !== status) throw new Error(`cost probe ${name}: ${String(got)} ${answer.body ?? ''}`);
    return JSON.stringify(event).length;
  };
  for (let n = 0; n < WARM_UP; n++) await run(CALLS + n);
  const trips = countRoundTrips(doc);
  const meter = meterCapacity(doc);
  stdoutBytes = 0;
  stdoutLines = 0;
  let eventBytes = 0;
  const cpu = process.cpuUsage();
  for (let n = 0; n < CALLS; n++) eventBytes += await run(n);
  const used = process.cpuUsage(cpu);
  trips.detach();
  meter.detach();
  return {
    cpuMs: (used.user + used.system) / 1000 / CALLS,
    logBytes: stdoutBytes / CALLS,
    logLines: stdoutLines / CALLS,
    roundTrips: trips.count / CALLS,
    commands: Object.fromEntries([...new Set(trips.commands)].map((command) => [command, trips.commands.filter((c) => c === command).length / CALLS])),
    readUnits: meter.readUnits / CALLS,
    writeUnits: meter.writeUnits / CALLS,
    eventBytes: eventBytes / CALLS,
  };
}

const { requests, token } = fixtures;
// Fresh orders to change: a PATCH replaces b-1 once per order.
const targets = await Promise.all(Array.from({ length: CALLS + WARM_UP }, () => placeOrder(fixtures.call, requests.optIn())));
const results: Record<string, OperationProbe> = {
  'opt-out': await probe('opt-out', () => ({ fn: 'orders-create', event: apiEvent(requests.optOut()), status: 204 })),
  'opt-in': await probe('opt-in', () => ({ fn: 'orders-create', event: apiEvent(requests.optIn()), status: 201 })),
  PATCH: await probe('PATCH', (n) => ({ fn: 'orders-change', event: apiEvent(requests.changeOrder(targets[n]!, 'b-1')), status: 200 })),
  GET: await probe('GET', (n) => ({ fn: 'orders-read', event: apiEvent(requests.readOrder(targets[n]!)), status: 200 })),
  quote: await probe('quote', () => ({ fn: 'quotes-create', event: apiEvent(requests.quote()), status: 201 })),
  authorizer: await probe('authorizer', () => ({ fn: 'authorizer', event: { headers: { authorization: `JWT ${token}` } }, status: true })),
};
writeFileSync(process.argv[2]!, JSON.stringify(results, null, 2));
process.exit(0);
