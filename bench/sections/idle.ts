import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { demoSiteRoutes } from '../../scripts/local/demo-site.js';
import { startLocalServer } from '../../scripts/local/local-server.js';
import type { Recorder } from '../report.js';

/** The idle CPU of npm start before its stream consumers went quiet (issue 29's reading, and this bench's before the change). */
const BEFORE = '≈ 31 % (measured on this machine before the change: six consumers polling every 250 ms)';
const GOAL_PERCENT = 2;
const SETTLE_MS = 15_000; // past the 10 s of fast polling after the start's own writes
const MEASURE_MS = 30_000;

/** CPU ticks (user + system) of a process, from /proc; 0 once it is gone. */
function ticks(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** This process's children (DynamoDB Local's java, tsx's esbuild service), except the bench's own DynamoDB Local. */
function children(parent: number, except: number | undefined): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name) && Number(name) !== except)
    .filter((name) => {
      try {
        return Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) === parent;
      } catch {
        return false;
      }
    })
    .map(Number);
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.once('error', reject);
  });

/**
 * An idle `npm start`: the same server (startLocalServer with the demo pages) and its own DynamoDB
 * Local, left alone for 30 s after it settled; the CPU of its process and its children over that
 * time, in % of one core. The bench process is the server's process here and does nothing else
 * meanwhile; the bench's own DynamoDB Local is not counted.
 */
export async function measureIdle(record: Recorder, benchDynamoPid: number | undefined): Promise<void> {
  // The server points the environment at its own DynamoDB and S3: the sections after this one must find the bench's again.
  const environment = { DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT, S3_ENDPOINT: process.env.S3_ENDPOINT };
  const local = await startLocalServer({ port: 0, dynamoPort: await freePort(), staticRoutes: demoSiteRoutes });
  try {
    await sleep(SETTLE_MS);
    const pids = () => [process.pid, ...children(process.pid, benchDynamoPid)];
    const start = new Map(pids().map((pid) => [pid, ticks(pid)]));
    await sleep(MEASURE_MS);
    const used = pids().reduce((sum, pid) => sum + ticks(pid) - (start.get(pid) ?? 0), 0);
    const percent = (100 * used) / 100 / (MEASURE_MS / 1000); // ticks are 1/100 s on Linux
    record({
      subject: 'idle npm start (server and its DynamoDB Local)',
      figure: `${percent.toFixed(1)} % of one core over ${MEASURE_MS / 1000} s (${used} ticks); before: ${BEFORE}`,
      goal: `≤ ${GOAL_PERCENT} % of one core`,
      ok: percent <= GOAL_PERCENT,
    });
  } finally {
    await local.stop();
    for (const [name, value] of Object.entries(environment)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
