import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { apiEvent } from '../../scripts/local/api-events.js';
import { placeOrder, type Fixtures } from '../fixtures.js';
import type { Recorder } from '../report.js';
import { interquartileRange, median } from '../stats.js';
import { bundleFile } from './bundle.js';

/**
 * 2 · Cold import: fresh node processes import a bundle of section 1 and call it once. Each goal
 * call is a request that succeeds with exactly one DynamoDB round trip, like the baseline's one
 * Put after its one jwtVerify, so the ratio is the cost of our code and its first run, not of a
 * bigger database operation (section 3 budgets those). A PATCH that applies costs two round trips
 * (read, then transaction): it is measured too, on a fresh order each round, and reported. An
 * opt-out's one round trip is a conditional PutItem, the baseline's own kind of write (it was a
 * two-item transaction until the day counts moved to the metrics stream).
 *
 * Every goal is judged on the median of paired ratios: in each round the subject's time over the
 * baseline's time in the same round, so that a slow stretch of the machine moves both sides of a
 * pair alike; the middle half of the pairs (IQR) is printed beside it.
 */
const COLD_ROUNDS = 41;
const COLD_GOAL = 1.15;

interface ColdSubject {
  name: string;
  bundle: string;
  /** What its one call does, for the figure. */
  call: string;
  event(round: number): unknown;
  /** The status code (or the authorizer's verdict) the call must answer, else the bench stops. */
  answers: number | boolean;
  goal?: number;
}

interface ColdSamples {
  imported: number[];
  called: number[];
}

export async function measureColdImports(record: Recorder, fixtures: Fixtures, work: string): Promise<void> {
  const { call, requests, token, orderId, baselineToken } = fixtures;
  const changeTargets = await Promise.all(Array.from({ length: COLD_ROUNDS }, () => placeOrder(call, requests.optIn())));
  const putBaseline: ColdSubject = {
    name: 'baseline',
    bundle: 'baseline',
    call: 'jwtVerify, one PutCommand',
    event: () => ({ token: baselineToken }),
    answers: 204,
  };
  const subjects: ColdSubject[] = [
    putBaseline,
    // A cold authorizer reads the client's status (revocation): one GetItem, like the others.
    {
      name: 'authorizer',
      bundle: 'authorizer',
      call: 'valid token, status read',
      event: () => ({ headers: { authorization: `JWT ${token}` } }),
      answers: true,
      goal: COLD_GOAL,
    },
    { name: 'auth-token', bundle: 'auth-token', call: 'token issued', event: () => apiEvent(requests.authToken()), answers: 200, goal: COLD_GOAL },
    { name: 'quotes-create', bundle: 'quotes-create', call: 'quote', event: () => apiEvent(requests.quote()), answers: 201, goal: COLD_GOAL },
    {
      name: 'orders-create',
      bundle: 'orders-create',
      call: 'opt-out 204',
      event: () => apiEvent(requests.optOut()),
      answers: 204,
      goal: COLD_GOAL,
    },
    { name: 'orders-read', bundle: 'orders-read', call: 'GET 200', event: () => apiEvent(requests.readOrder(orderId)), answers: 200, goal: COLD_GOAL },
    {
      name: 'orders-change',
      bundle: 'orders-change',
      call: 'PATCH refused after its read, 404',
      event: () => apiEvent(requests.changeOrder(orderId, 'no-such-item')),
      answers: 404,
      goal: COLD_GOAL,
    },
    {
      name: 'orders-change (applied)',
      bundle: 'orders-change',
      call: 'PATCH 200, 2 round trips',
      event: (round) => apiEvent(requests.changeOrder(changeTargets[round]!, 'b-1')),
      answers: 200,
    },
    { name: 'metrics-conversion', bundle: 'metrics-conversion', call: 'GET 200', event: () => apiEvent(requests.conversion()), answers: 200, goal: COLD_GOAL },
  ];

  // Every subject once per round, so that drift in the machine's load hits all alike; each round
  // starts one subject further on, so that none always runs right after the same neighbour.
  const samples = new Map<ColdSubject, ColdSamples>(subjects.map((subject) => [subject, { imported: [], called: [] }]));
  for (let round = 0; round < COLD_ROUNDS; round++) {
    for (let i = 0; i < subjects.length; i++) {
      const subject = subjects[(round + i) % subjects.length]!;
      const [imported, called] = coldStartOnce(work, subject, round);
      samples.get(subject)!.imported.push(imported);
      samples.get(subject)!.called.push(called);
    }
  }

  const timesOf = (subject: ColdSubject) => samples.get(subject)!;
  const pairedRatios = (subject: ColdSubject, yardstick: ColdSubject) => timesOf(subject).called.map((ms, round) => ms / timesOf(yardstick).called[round]!);
  const figureOf = (subject: ColdSubject) =>
    `${median(timesOf(subject).called).toFixed(1)} ms (import ${median(timesOf(subject).imported).toFixed(0)}; ${subject.call})`;
  for (const subject of subjects.filter((s) => s !== putBaseline)) {
    const ratios = pairedRatios(subject, putBaseline);
    const ratio = median(ratios);
    record({
      subject: subject.name,
      figure: `${figureOf(subject)}; pairs ${interquartileRange(ratios)}`,
      baseline: figureOf(putBaseline),
      ratio,
      goal: subject.goal ? `≤ ${subject.goal}×` : 'reported',
      ok: subject.goal ? ratio <= subject.goal : true,
    });
  }
}

/** One fresh process: [import ms, import + first call ms]; throws unless the call answered as expected. */
function coldStartOnce(work: string, subject: ColdSubject, round: number): [number, number] {
  const bundle = bundleFile(work, subject.bundle);
  const eventFile = join(dirname(bundle), `event-${subject.name.replace(/\W+/g, '-')}-${round}.json`);
  writeFileSync(eventFile, JSON.stringify(subject.event(round)));
  const script = `const t=performance.now();const m=await import(${JSON.stringify(bundle)});const i=performance.now()-t;const r=await m.handler(JSON.parse(require('fs').readFileSync(${JSON.stringify(eventFile)},'utf8')),{awsRequestId:'b',getRemainingTimeInMillis:()=>9e3});process.stdout.write(i+' '+(performance.now()-t)+' '+(r.statusCode??r.isAuthorized));`;
  const [imported, called, answered] = execFileSync(
    process.execPath,
    ['--input-type=module', '-e', `import{createRequire}from'module';const require=createRequire(import.meta.url);${script}`],
    { env: process.env, encoding: 'utf8' },
  ).split(' ');
  if (answered !== String(subject.answers)) throw new Error(`cold call of ${subject.name} answered ${answered}, expected ${subject.answers}`);
  return [Number(imported), Number(called)];
}
