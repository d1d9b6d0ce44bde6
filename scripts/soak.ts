import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

/**
 * `npm run soak -- --minutes N [--seed S [--path P]]`: the fault histories
 * (test/faults/histories.int.test.ts) on a new seed for N minutes, through vitest. It prints a
 * summary (histories, calls, faults by kind, breaks) and, on a break, fast-check's counterexample
 * with its seed and path: `--seed S --path P` replays that case alone, with the same faults.
 */
/** A wrong argument stops the soak before it starts, with what to give instead. */
function usage(message: string): never {
  console.error(`npm run soak: ${message}`);
  process.exit(2);
}
// fast-check prints negative seeds too (`--seed -1811027723`), which parseArgs would take for an
// option: a value that is a negative number is joined to its option (`--seed=-1811027723`).
const args = process.argv.slice(2).flatMap((arg, i, all) => {
  if (/^-\d/.test(arg) && /^--(minutes|seed|path)$/.test(all[i - 1] ?? '')) return [];
  const next = all[i + 1];
  return /^--(minutes|seed|path)$/.test(arg) && next !== undefined && /^-\d/.test(next) ? [`${arg}=${next}`] : [arg];
});
let values: { minutes: string; seed?: string; path?: string };
try {
  ({ values } = parseArgs({ args, options: { minutes: { type: 'string', default: '10' }, seed: { type: 'string' }, path: { type: 'string' } } }));
} catch (err) {
  usage(`${(err as Error).message.split('\n')[0]} (it takes --minutes N, and --seed S [--path P] to replay a failure)`);
}
// Decimal minutes only (`0x10` and `1e-9` are numbers to Number(), not what a person means), at least a second's worth.
const minutes = /^\d{1,4}(\.\d{1,3})?$/.test(values.minutes) ? Number(values.minutes) : NaN;
if (!(minutes >= 1 / 60) || minutes > 24 * 60) usage('--minutes must be a number of minutes (0.5, 30), at most a day');
// fast-check's seeds are 32-bit integers (it prints them signed); a path is run indexes joined by ':'.
if (values.seed !== undefined && !(/^-?\d{1,10}$/.test(values.seed) && Number(values.seed) >= -(2 ** 31) && Number(values.seed) < 2 ** 32)) {
  usage('--seed must be the integer a failed run printed (32 bits)');
}
if (values.path !== undefined && !/^\d{1,9}(:\d{1,9}){0,99}$/.test(values.path)) usage('--path must be the path a failed run printed, as 3 or 3:0:1');
if (values.path !== undefined && values.seed === undefined) usage('--path replays a case of one seed: give --seed too');
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
