import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { testEndpoint } from '../support/dynamo.js';

/** `npm start` as a newcomer runs it: it serves, writes the demo keys, and Ctrl-C leaves no java behind. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
/** The DynamoDB Local java processes listening on `port`. */
const dynamoLocalOn = (port: number): number[] => {
  try {
    return execFileSync('pgrep', ['-f', `DynamoDBLocal.jar.*-port ${port}`], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
};
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
/** The local addresses of the TCP sockets listening on `port`, from the kernel's tables (IPv4 dotted, IPv6 as hex). */
const listeningAddresses = (port: number): string[] =>
  ['/proc/net/tcp', '/proc/net/tcp6']
    .flatMap((file) => readFileSync(file, 'utf8').trim().split('\n').slice(1))
    .map((line) => line.trim().split(/\s+/))
    .filter(([, local, , state]) => state === '0A' && local?.endsWith(`:${port.toString(16).toUpperCase().padStart(4, '0')}`)) // 0A: LISTEN
    .map(([, local]) => {
      const hex = local!.split(':')[0]!;
      return hex.length === 8
        ? hex
            .match(/../g)!
            .reverse()
            .map((byte) => parseInt(byte, 16))
            .join('.')
        : hex; // IPv4 is little-endian there
    });
const accepts = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host, port, timeout: 2_000 }, () => {
      socket.destroy();
      resolve(true);
    });
    socket
      .once('error', () => resolve(false))
      .once('timeout', () => {
        socket.destroy();
        resolve(false);
      });
  });

const cwds: string[] = [];
const servers: ChildProcess[] = [];
afterEach(() => {
  for (const server of servers.splice(0))
    try {
      process.kill(-server.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
  for (const cwd of cwds.splice(0)) rmSync(cwd, { recursive: true, force: true });
});

/** `npm start` in a fresh directory with a newcomer's environment (none of the variables the test run set for itself) plus `env` (each test gives it free ports, so a developer's own npm start on the default ones does not fail it). */
function npmStart(env: Record<string, string>) {
  const cwd = mkdtempSync(join(tmpdir(), 'npm-start-'));
  cwds.push(cwd);
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !['DYNAMODB_ENDPOINT', 'TABLE_NAME', 'METRICS_TABLE_NAME', 'SIGNING_KEYS'].includes(name)),
  );
  // As package.json's start script runs it: one node process (tsx as a loader, not tsx's CLI, whose
  // parent process gives the child 30 ms to confirm it handles Ctrl-C and else kills it: exit 130 on a busy machine).
  const tsxLoader = pathToFileURL(join(process.cwd(), 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
  const server = spawn(process.execPath, ['--import', tsxLoader, join(process.cwd(), 'scripts', 'local', 'local-server.ts')], {
    cwd,
    // The sign-in provider on any free port: another npm start of the run (the client's tests) may hold 3100.
    env: { ...inherited, OIDC_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, like a terminal's
  });
  servers.push(server);
  let stderr = '';
  let stdout = '';
  server.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  server.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  const demoFile = join(cwd, '.local', 'demo-client.json');
  return {
    server,
    demoFile,
    stderr: () => stderr,
    stdout: () => stdout,
    /** The demo keys it wrote, once it serves. */
    demo: async () => {
      for (let i = 0; i < 120 && !existsSync(demoFile); i++) await new Promise((r) => setTimeout(r, 250));
      return JSON.parse(readFileSync(demoFile, 'utf8')) as { base_url: string; public_key: string; secret_key: string };
    },
    /** Its exit code, or null if it still runs after `ms`. */
    exit: (ms: number) =>
      new Promise<number | null>((resolve) => {
        if (server.exitCode !== null) return resolve(server.exitCode);
        const timer = setTimeout(() => resolve(null), ms);
        server.once('exit', (code) => {
          clearTimeout(timer);
          resolve(code);
        });
      }),
    ctrlC: () => process.kill(-server.pid!, 'SIGINT'), // the whole foreground group gets it
  };
}

describe('npm start', () => {
  it('serves the API with the demo keys and the operator key it wrote, and Ctrl-C stops DynamoDB Local too', async () => {
    const [port, dynamoPort] = [await freePort(), await freePort()];
    const start = npmStart({ S3_PORT: String(await freePort()), PORT: String(port), DYNAMODB_PORT: String(dynamoPort) });

    const demo = await start.demo();
    const token = await fetch(`${demo.base_url}/api/v2/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ public_key: demo.public_key, secret_key: demo.secret_key }),
    });
    const page = await fetch(`${demo.base_url}/`);
    // The operator key it wrote opens the operator routes (deployed, IAM does).
    const { operator_key } = JSON.parse(readFileSync(join(start.demoFile, '..', 'operator.json'), 'utf8')) as { operator_key: string };
    const queue = await fetch(`${demo.base_url}/api/v2/admin/claims`, { headers: { authorization: `Operator ${operator_key}` } });
    const javas = dynamoLocalOn(dynamoPort);
    expect(demo.base_url).toBe(`http://localhost:${port}`);
    expect(token.status).toBe(200);
    expect(queue.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    // What it prints names where the keys are, never a key itself (a terminal's scrollback, a saved log).
    expect(start.stdout()).toContain(`its secret key is in ${start.demoFile}`);
    for (const secret of [demo.secret_key, operator_key]) expect(start.stdout() + start.stderr()).not.toContain(secret);
    expect(javas.length).toBeGreaterThan(0);
    // Where its data is, for npm run client and npm run migrate (whatever port it was given).
    const stackFile = join(start.demoFile, '..', 'stack.json');
    expect(JSON.parse(readFileSync(stackFile, 'utf8'))).toEqual({
      dynamodb_endpoint: `http://127.0.0.1:${dynamoPort}`,
      table_name: 'order-protection',
      metrics_table_name: 'order-protection-metrics',
      base_url: demo.base_url,
    });

    start.ctrlC();
    const code = await start.exit(30_000);

    expect(code).toBe(0);
    expect(javas.filter(alive)).toEqual([]);
    expect(existsSync(stackFile)).toBe(false); // a stopped stack is not found again
  }, 60_000);

  it('runs DynamoDB Local on 127.0.0.1 only: no other address of this host reaches it', async () => {
    const [port, dynamoPort] = [await freePort(), await freePort()];
    const start = npmStart({ S3_PORT: String(await freePort()), PORT: String(port), DYNAMODB_PORT: String(dynamoPort) });
    await start.demo();
    const external = Object.values(networkInterfaces())
      .flat()
      .filter((nic) => nic && !nic.internal && !nic.address.startsWith('fe80')) // link-local needs a scope id
      .map((nic) => nic!.address);

    const listening = listeningAddresses(dynamoPort);
    const fromLoopback = await accepts('127.0.0.1', dynamoPort);
    const fromOutside = await Promise.all(external.map(async (address) => [address, await accepts(address, dynamoPort)]));

    expect(listening).toEqual(['127.0.0.1']);
    expect(fromLoopback).toBe(true);
    expect(fromOutside).toEqual(external.map((address) => [address, false]));
    start.ctrlC();
    expect(await start.exit(30_000)).toBe(0);
    expect(dynamoLocalOn(dynamoPort)).toEqual([]);
  }, 60_000);

  it('refuses a DynamoDB port another database listens on, and uses that database only when DYNAMODB_ENDPOINT names it', async () => {
    const takenPort = Number(new URL(testEndpoint()).port); // the test run's DynamoDB Local
    const javasBefore = dynamoLocalOn(takenPort);

    const refused = npmStart({ S3_PORT: String(await freePort()), PORT: String(await freePort()), DYNAMODB_PORT: String(takenPort) });
    const refusedCode = await refused.exit(30_000);

    expect(refusedCode).toBe(1);
    expect(refused.stderr()).toContain(`DynamoDB port ${takenPort} is already in use`);
    expect(refused.stderr()).toContain(`DYNAMODB_ENDPOINT=http://127.0.0.1:${takenPort}`);
    expect(existsSync(refused.demoFile)).toBe(false);
    expect(dynamoLocalOn(takenPort)).toEqual(javasBefore);

    const suffix = randomBytes(4).toString('hex');
    const onPurpose = npmStart({
      S3_PORT: String(await freePort()),
      PORT: String(await freePort()),
      DYNAMODB_ENDPOINT: `http://127.0.0.1:${takenPort}`,
      TABLE_NAME: `npm-start-main-${suffix}`,
      METRICS_TABLE_NAME: `npm-start-metrics-${suffix}`,
    });
    const demo = await onPurpose.demo();
    const token = await fetch(`${demo.base_url}/api/v2/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ public_key: demo.public_key, secret_key: demo.secret_key }),
    });

    expect(token.status).toBe(200);
    onPurpose.ctrlC();
    expect(await onPurpose.exit(30_000)).toBe(0);
    expect(dynamoLocalOn(takenPort)).toEqual(javasBefore);
  }, 90_000);
});
