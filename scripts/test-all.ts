import { spawn, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';

/**
 * `npm test`: the static checks (`npm run check`: eslint, prettier, tsc, redocly) beside every test
 * (`vitest run`), not before them. The tests keep the two cores busy only most of the time (the
 * browser files wait on Chromium, the last file runs alone), so the checks run in those gaps at a
 * lower priority instead of adding their two minutes in front (docs/performance.md, "The loop").
 * The checks' output is held and printed whole when they end, between the tests' lines; the run
 * fails when either fails. Arguments go to vitest (`npm test -- functions/orders-create`).
 */
const CHECKS_NICENESS = 19;

const started = Date.now();
const seconds = () => `${Math.round((Date.now() - started) / 1000)} s`;

function run(command: string, args: readonly string[], held: boolean): { child: ChildProcess; output: () => string; done: Promise<number> } {
  const child = spawn(command, args, { stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const done = new Promise<number>((resolve) => {
    child.once('error', (err) => {
      output += `${command} could not start: ${err.message}\n`;
      resolve(1);
    });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
  return { child, output: () => output, done };
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const checks = run(npm, ['run', '-s', 'check'], true);
// Before npm starts eslint and tsc, which inherit it: the tests go first whenever both want a core.
try {
  if (checks.child.pid !== undefined) setPriority(checks.child.pid, CHECKS_NICENESS);
} catch {
  // Not allowed here: the checks then run at the tests' priority, which is only slower.
}
const checksDone = checks.done.then((code) => {
  const verdict = code === 0 ? 'passed' : `FAILED (exit ${code})`;
  process.stdout.write(`\n── npm run check ${verdict} after ${seconds()} ──\n${checks.output()}${checks.output().endsWith('\n') ? '' : '\n'}\n`);
  return code;
});

// npm puts node_modules/.bin (and the Lambda runtime's Node, the `node` devDependency) first on the PATH.
const tests = run(process.platform === 'win32' ? 'vitest.cmd' : 'vitest', ['run', ...process.argv.slice(2)], false);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    checks.child.kill(signal);
    tests.child.kill(signal);
  });

const [checkCode, testCode] = await Promise.all([checksDone, tests.done]);
if (checkCode !== 0) console.error(`npm test: the static checks failed (their output is above, after "npm run check FAILED").`);
process.exit(checkCode !== 0 ? checkCode : testCode);
