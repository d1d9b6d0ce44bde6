import { setTimeout as sleep } from 'node:timers/promises';
import { processTree, startNpmStart, ticks } from '../npm-start.js';
import type { Recorder } from '../report.js';

/** The idle CPU of npm start before its stream consumers went quiet (issue 29's reading, and this bench's before the change). */
const BEFORE = '≈ 20–31 % (six consumers polling every 250 ms)';
const GOAL_PERCENT = 2;
const SETTLE_MS = 15_000; // past the 10 s of fast polling after the start's own writes
const MEASURE_MS = 30_000;

/**
 * An idle `npm start`, as a newcomer runs it (its own process, DynamoDB Local and S3, the demo
 * pages), left alone for 30 s after it settled: the CPU of its whole process tree over that time,
 * from /proc, in % of one core.
 */
export async function measureIdle(record: Recorder): Promise<void> {
  const local = await startNpmStart();
  try {
    await sleep(SETTLE_MS);
    const pids = processTree(local.pid);
    const start = new Map(pids.map((pid) => [pid, ticks(pid)]));
    await sleep(MEASURE_MS);
    const used = processTree(local.pid).reduce((sum, pid) => sum + ticks(pid) - (start.get(pid) ?? 0), 0);
    const percent = used / (MEASURE_MS / 1000); // ticks are 1/100 s on Linux: ticks per second = % of one core
    record({
      subject: `idle npm start (${pids.length} processes)`,
      figure: `${percent.toFixed(1)} % of one core over ${MEASURE_MS / 1000} s (${used} ticks); before: ${BEFORE}`,
      goal: `≤ ${GOAL_PERCENT} % of one core`,
      ok: percent <= GOAL_PERCENT,
    });
  } finally {
    await local.stop();
  }
}
