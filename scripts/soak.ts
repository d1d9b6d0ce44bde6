import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

/**
 * `npm run soak -- --minutes N [--seed S [--path P]]`: the fault histories
 * (test/faults/histories.int.test.ts) on a new seed for N minutes, through vitest. It prints a
 * summary (histories, calls, faults by kind, breaks) and, on a break, fast-check's counterexample
 * with its seed and path: `--seed S --path P` replays that case alone, with the same faults.
 */
const { values } = parseArgs({ options: { minutes: { type: 'string', default: '10' }, seed: { type: 'string' }, path: { type: 'string' } } });
const minutes = Number(values.minutes);
if (!Number.isFinite(minutes) || minutes <= 0 || minutes > 24 * 60) throw new Error('--minutes must be a number of minutes, at most a day');
const run = spawnSync('npx', ['vitest', 'run', '--project', 'integration', 'test/faults/'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    FAULT_SOAK_MINUTES: String(minutes),
    ...(values.seed ? { FAULT_SEED: values.seed } : {}),
    ...(values.path ? { FAULT_PATH: values.path } : {}),
  },
});
process.exitCode = run.status ?? 1;
