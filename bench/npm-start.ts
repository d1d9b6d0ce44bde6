import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * `npm start` as a newcomer runs it, for the sections that judge it (HTTP, idle): its own process
 * (`node --import tsx scripts/local/local-server.ts`, npm's script), its own DynamoDB Local and
 * S3, the demo pages, and nothing of the bench's in its event loop. It runs in a temporary folder
 * so that its `.local/` key files never replace a developer's.
 */
export interface NpmStart {
  baseUrl: string;
  demo: { client_id: string; public_key: string; secret_key: string };
  pid: number;
  stop(): Promise<void>;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const START_TIMEOUT_MS = 120_000;

/** A port nothing listens on (the kernel's choice, given back at once). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.once('error', reject);
  });

/** The environment of a terminal that types `npm start`: none of the bench's own settings (tables, keys, endpoints, silenced logs). */
function newcomerEnvironment(ports: { api: number; dynamo: number; s3: number }): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of [
    'DYNAMODB_ENDPOINT',
    'S3_ENDPOINT',
    'S3_ACCESS_KEY_ID',
    'S3_SECRET_ACCESS_KEY',
    'TABLE_NAME',
    'METRICS_TABLE_NAME',
    'SIGNING_KEYS',
    'OPERATOR_KEY',
    'WEBHOOK_URLS',
    'WEBHOOK_REFUSED_PORTS',
  ]) {
    delete env[name];
  }
  for (const name of Object.keys(env)) if (name.startsWith('POWERTOOLS_') || name.startsWith('npm_')) delete env[name];
  return { ...env, PORT: String(ports.api), DYNAMODB_PORT: String(ports.dynamo), S3_PORT: String(ports.s3) };
}

export async function startNpmStart(): Promise<NpmStart> {
  const ports = { api: await freePort(), dynamo: await freePort(), s3: await freePort() };
  const cwd = mkdtempSync(join(tmpdir(), 'op-bench-npm-start-'));
  const tsx = import.meta.resolve('tsx'); // the loader `--import tsx` finds from the project's folder
  const child = spawn(process.execPath, ['--import', tsx, join(ROOT, 'scripts/local/local-server.ts')], {
    cwd,
    env: newcomerEnvironment(ports),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT'); // Ctrl-C: the server stops DynamoDB Local and S3 itself
      await Promise.race([exited, sleep(15_000)]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    rmSync(cwd, { recursive: true, force: true });
  };
  const demoFile = join(cwd, '.local', 'demo-client.json');
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!existsSync(demoFile)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`npm start did not come up: ${stderr.trim() || 'no output'}`);
    }
    await sleep(200);
  }
  const demo = JSON.parse(readFileSync(demoFile, 'utf8')) as NpmStart['demo'] & { base_url: string };
  return { baseUrl: demo.base_url, demo, pid: child.pid!, stop };
}

/** CPU ticks (user + system, 1/100 s) of a process, from /proc; 0 once it is gone. */
export function ticks(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** A process and all its descendants (npm start's DynamoDB Local java, s3rver, tsx's esbuild service). */
export function processTree(root: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      parents.set(Number(name), Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]));
    } catch {
      // gone while we read
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) for (const [pid, parent] of parents) if (parent === tree[i]) tree.push(pid);
  return tree;
}
