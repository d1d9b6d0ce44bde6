import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * `npm test` runs this first (npm's `pretest`): the browser test drives Debian's Chromium, never a
 * downloaded browser. When it is missing and this user may install packages (root, or sudo without
 * a password), Debian's `chromium` package is installed; otherwise the run stops here with what to
 * do. The browser test is never skipped.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

const runnable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

function installer(): string[] | undefined {
  if (!runnable('/usr/bin/apt-get')) return undefined;
  if (process.getuid?.() === 0) return [];
  return spawnSync('sudo', ['-n', 'true']).status === 0 ? ['sudo', '-n'] : undefined;
}

function main(): void {
  if (runnable(CHROMIUM)) return;
  const prefix = installer();
  if (process.env.CHROMIUM_PATH || !prefix) {
    console.error(`npm test: the browser test needs Chromium at ${CHROMIUM}, and it is not there.
  On Debian or Ubuntu: sudo apt-get install chromium  (then run npm test again)
  Elsewhere: point CHROMIUM_PATH at a Chromium or Chrome binary.
The browser test is part of npm test and is not skipped.`);
    process.exit(1);
  }
  console.log("npm test: Chromium is missing; installing Debian's chromium package for the browser test (once; about a minute)…");
  const [command = 'apt-get', ...rest] = [...prefix, 'apt-get'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync(command, [...rest, 'update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  // --reinstall: a package that dpkg lists as installed but whose binary was removed comes back too.
  execFileSync(command, [...rest, 'install', '-y', '-qq', '--reinstall', 'chromium'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  if (!runnable(CHROMIUM)) {
    console.error(`npm test: installed Debian's chromium, but ${CHROMIUM} is still missing.`);
    process.exit(1);
  }
  console.log(`npm test: ${CHROMIUM} installed.`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
