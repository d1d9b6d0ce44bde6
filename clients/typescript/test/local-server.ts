import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** tsx as a loader, as package.json's start script runs it (one node process that takes Ctrl-C itself). */
export const TSX_LOADER = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

export interface LocalServer {
  /** Where it runs: its .local/ (demo keys, operator key) is here, never in a developer's checkout. */
  cwd: string;
  demo: { base_url: string; public_key: string; secret_key: string };
  stop: () => Promise<void>;
}

/**
 * `npm start` on free ports (PORT, DYNAMODB_PORT, S3_PORT, OIDC_PORT) in a temporary directory, with none of
 * the variables the test run set for its own DynamoDB; answers once it serves and wrote the demo keys.
 */
export async function startLocalServer(): Promise<LocalServer> {
  const cwd = mkdtempSync(join(tmpdir(), 'client-e2e-'));
  const [port, dynamoPort, s3Port] = [await freePort(), await freePort(), await freePort()];
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !['DYNAMODB_ENDPOINT', 'TABLE_NAME', 'METRICS_TABLE_NAME', 'SIGNING_KEYS'].includes(name)),
  );
  const server: ChildProcess = spawn(process.execPath, ['--import', TSX_LOADER, join(ROOT, 'scripts', 'local', 'local-server.ts')], {
    cwd,
    // OIDC_PORT 0: the sign-in provider on any free port (the run's other npm starts may hold 3100).
    env: { ...inherited, PORT: String(port), DYNAMODB_PORT: String(dynamoPort), S3_PORT: String(s3Port), OIDC_PORT: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true, // its own process group, so that stopping it stops DynamoDB Local too
  });
  let stderr = '';
  server.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-server.pid!, name);
    } catch {
      /* already gone */
    }
  };
  const stop = async () => {
    signal('SIGINT');
    const timer = setTimeout(() => signal('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    signal('SIGKILL'); // whatever of its group is left
    rmSync(cwd, { recursive: true, force: true });
  };
  const demoFile = join(cwd, '.local', 'demo-client.json');
  for (let i = 0; i < 240 && !existsSync(demoFile) && server.exitCode === null; i++) await new Promise((r) => setTimeout(r, 250));
  if (!existsSync(demoFile)) {
    await stop();
    throw new Error(`npm start did not serve: ${stderr}`);
  }
  return { cwd, demo: JSON.parse(readFileSync(demoFile, 'utf8')) as LocalServer['demo'], stop };
}
