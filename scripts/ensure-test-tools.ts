import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { startedAsScript } from './started-as-script.js';

/**
 * `npm test` runs this first (npm's `pretest`): the tests drive Debian's programs, never downloaded
 * ones: Chromium's headless shell for the browser tests (the same engine without the desktop
 * browser around it: the browser files spend half the CPU in it that they spend in `chromium`,
 * docs/performance.md), ClamAV for the evidence scans (standing in for GuardDuty, as
 * under npm start). When one is missing and this user may install packages (root, or sudo without
 * a password), its Debian package is installed; otherwise the run stops here with what to do. No
 * test is ever skipped for want of one.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium-headless-shell';
export const CLAMSCAN = process.env.CLAMSCAN_PATH || '/usr/bin/clamscan';

interface Tool {
  what: string;
  path: string;
  /** Debian's package, and apt-get's options for it. */
  install: string[];
  /** The variable pointing at another copy. */
  variable: string;
}
const TOOLS: readonly Tool[] = [
  { what: "the browser tests need Chromium's headless shell", path: CHROMIUM, install: ['chromium-headless-shell'], variable: 'CHROMIUM_PATH' },
  // Without the recommended freshclam service: there is no network to fetch signatures from (scripts/local/local-evidence.ts).
  { what: 'the evidence tests need ClamAV', path: CLAMSCAN, install: ['--no-install-recommends', 'clamav'], variable: 'CLAMSCAN_PATH' },
];

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
  const missing = TOOLS.filter((tool) => !runnable(tool.path));
  if (missing.length === 0) return;
  const prefix = installer();
  const packages = missing.flatMap((tool) => tool.install.filter((word) => !word.startsWith('-')));
  if (!prefix || missing.some((tool) => process.env[tool.variable])) {
    for (const tool of missing) console.error(`npm test: ${tool.what} at ${tool.path}, and it is not there.`);
    console.error(`  On Debian or Ubuntu: sudo apt-get install --no-install-recommends ${packages.join(' ')}  (then run npm test again)
  Elsewhere: point ${missing.map((tool) => tool.variable).join(' or ')} at another copy.
These tests are part of npm test and are not skipped.`);
    process.exit(1);
  }
  console.log(`npm test: installing Debian's ${packages.join(' and ')} for the tests (once; about a minute)…`);
  const [command = 'apt-get', ...rest] = [...prefix, 'apt-get'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync(command, [...rest, 'update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  for (const tool of missing) {
    // --reinstall: a package that dpkg lists as installed but whose binary was removed comes back too.
    execFileSync(command, [...rest, 'install', '-y', '-qq', '--reinstall', ...tool.install], { stdio: ['ignore', 'ignore', 'inherit'], env });
    if (!runnable(tool.path)) {
      console.error(`npm test: installed Debian's ${tool.install.at(-1)}, but ${tool.path} is still missing.`);
      process.exit(1);
    }
    console.log(`npm test: ${tool.path} installed.`);
  }
}

if (startedAsScript(import.meta.url)) main();
