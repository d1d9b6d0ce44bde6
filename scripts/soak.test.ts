import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * `npm run soak`'s arguments: each bad one stops it at once with what it takes (exit 2), before
 * any vitest or DynamoDB Local starts. Found from outside: `--minutes 0x10` and `1e-9` were taken as
 * numbers, and a seed past fast-check's 32 bits was taken.
 */
const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');

const refusal = async (...args: string[]) => {
  const failed = await run(process.execPath, ['--import', 'tsx', 'scripts/soak.ts', ...args], { cwd: ROOT }).then(
    () => undefined,
    (err: { code?: number; stderr?: string }) => err,
  );
  return { code: failed?.code, message: failed?.stderr?.trim().split('\n')[0] };
};

describe('npm run soak’s arguments', () => {
  it('refuses what is not a number of minutes, a 32-bit seed or a path of one seed', async () => {
    const cases: [string[], RegExp][] = [
      [['--minutes', '0x10'], /--minutes must be a number of minutes/],
      [['--minutes', '1e-9'], /--minutes must be a number of minutes/],
      [['--minutes', '0'], /--minutes must be a number of minutes/],
      [['--minutes', '1441'], /at most a day/],
      [['--seed', '4294967296'], /--seed must be the integer a failed run printed \(32 bits\)/],
      [['--seed', '-2147483649'], /32 bits/],
      [['--seed', '1.5'], /--seed must be/],
      [['--path', '3'], /give --seed too/],
      [['--bogus'], /Unknown option '--bogus'/],
    ];
    const answers = await Promise.all(cases.map(([args]) => refusal(...args)));
    answers.forEach((answer, i) => {
      expect(answer.code, cases[i]![0].join(' ')).toBe(2);
      expect(answer.message, cases[i]![0].join(' ')).toMatch(cases[i]![1]);
    });
  });
});
