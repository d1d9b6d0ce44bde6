import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** `npm start` as a newcomer runs it: it serves, writes the demo keys, and Ctrl-C leaves no java behind. */
const freePort = () => new Promise<number>((resolve) => { const s = createServer().listen(0, '127.0.0.1', () => { const p = (s.address() as { port: number }).port; s.close(() => resolve(p)); }); });
/** The DynamoDB Local java processes listening on `port`. */
const dynamoLocalOn = (port: number): number[] => {
  try {
    return execFileSync('pgrep', ['-f', `DynamoDBLocal.jar.*-port ${port}`], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
};
const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };

describe('npm start', () => {
  it('serves the API with the demo keys it wrote, and Ctrl-C stops DynamoDB Local too', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'npm-start-'));
    const [port, dynamoPort] = [await freePort(), await freePort()];
    // A newcomer's environment: none of the variables the test run set for itself.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !['DYNAMODB_ENDPOINT', 'TABLE_NAME', 'METRICS_TABLE_NAME', 'SIGNING_KEYS'].includes(name)));
    const server = spawn(process.execPath, [join(process.cwd(), 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(process.cwd(), 'scripts', 'local-server.ts')], {
      cwd, env: { ...env, PORT: String(port), DYNAMODB_PORT: String(dynamoPort) }, stdio: 'ignore', detached: true, // its own process group, like a terminal's
    });
    try {
      const demoFile = join(cwd, '.local', 'demo-client.json');
      for (let i = 0; i < 120 && !existsSync(demoFile); i++) await new Promise((r) => setTimeout(r, 250));
      const demo = JSON.parse(readFileSync(demoFile, 'utf8'));
      const token = await fetch(`${demo.base_url}/api/v2/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ public_key: demo.public_key, secret_key: demo.secret_key }) });
      const page = await fetch(`${demo.base_url}/`);
      const javas = dynamoLocalOn(dynamoPort);
      expect(demo.base_url).toBe(`http://localhost:${port}`);
      expect(token.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(javas.length).toBeGreaterThan(0);

      process.kill(-server.pid!, 'SIGINT'); // Ctrl-C: the whole foreground group gets it
      const code = await new Promise<number | null>((resolve) => server.once('exit', resolve));

      expect(code).toBe(0);
      expect(javas.filter(alive)).toEqual([]);
    } finally {
      try { process.kill(-server.pid!, 'SIGKILL'); } catch { /* already gone */ }
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 60_000);
});
