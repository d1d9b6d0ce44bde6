import './local-env.js'; // first: environment defaults before any service module is loaded
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { dirname, join } from 'node:path';
import { createClient, type NewClientKeys } from '#shared/clients/manage-clients.js';
import { generateKeySet } from '#shared/platform/keys/signing-keys.js';
import { loadConfig } from '#shared/platform/config.js';
import { logger } from '#shared/platform/http/logger.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { createDocumentClient, sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { sharedS3Client } from '#shared/platform/s3/s3-client.js';
import { demoSiteRoutes } from './demo-site.js';
import { startSchedules, startStreamConsumers } from './local-streams.js';
import { answerClientError, localGateway, type StaticRoute } from './local-gateway.js';
import { startLocalStack, type LocalDynamo } from './local-stack.js';
import { startLocalS3 } from './local-s3.js';
import { evidenceEvents } from './local-evidence.js';
import { holdKeysToGrants, holdObjectsToGrants, holdToGrants } from './local-grants.js';
import { claimLocalFolder, stackFilePath, type StackFile } from './local-stack-file.js';
import { demoUsers, startLocalOidc, type StaffFile } from './local-oidc.js';
import { readStaffFile, writeStaffFile } from './staff-file.js';
import { STAFF_FILE_VARIABLE } from '#shared/identity/staff-directory-deps.js';
import { startedAsScript } from '../started-as-script.js';

/**
 * `npm start`: DynamoDB Local in memory (or DYNAMODB_ENDPOINT), the tables, fresh signing keys, a
 * demo client, and the API on PORT — the deployed handlers behind a local stand-in for API Gateway.
 */
export interface LocalServer {
  baseUrl: string;
  demo: NewClientKeys;
  /** The operator key (Authorization: Operator <key>): the scripts' stand-in on the staff routes. */
  operatorKey: string;
  /** The staff sign-in: the local OpenID Provider's issuer, the pages' client, and the users who may sign in. */
  staff: StaffFile;
  /** With `seedLiveDemo`: the live-mode demo merchant whose orders fill the bordereaux. */
  liveDemo?: NewClientKeys;
  /** With `seedLiveDemo`: settles once its orders are placed (the server serves meanwhile); rejects if one was refused. */
  seeded?: Promise<void>;
  server: Server;
  stop(): Promise<void>;
}

export interface LocalServerOptions {
  port?: number;
  dynamoPort?: number;
  /** Use this DynamoDB instead of starting DynamoDB Local. */
  dynamoEndpoint?: string;
  /** The local S3's port (s3rver on 127.0.0.1); any free one by default (npm start: S3_PORT, else 4568). */
  s3Port?: number;
  /** The local OpenID Provider's port (127.0.0.1); any free one by default (npm start: OIDC_PORT, else 3100). */
  oidcPort?: number;
  /**
   * Where the staff sign-in's users live (npm start: .local/staff.json): written with the demo users
   * at start, read at each sign-in, so `npm run staff -- add` and the console's Staff section add
   * someone while it runs. Without it, a file in a temporary directory, removed at stop.
   */
  staffFile?: string;
  staticRoutes?: (server: { baseUrl: string; demo: NewClientKeys }) => Record<string, StaticRoute>;
  /**
   * Also create a live-mode demo merchant and place its LIVE_DEMO_ORDERS through the API (npm
   * start does): the demo shop is a test client, whose money is never in the bordereaux.
   */
  seedLiveDemo?: boolean;
}

/**
 * The live demo merchant's orders, placed through the API as a merchant's back-end would: a
 * policy per item, so this month's premium bordereau has a row per item, in three currencies.
 */
export const LIVE_DEMO_ORDERS = [
  {
    order_number: 'LIVE-DEMO-1001',
    currency: 'USD',
    items: [
      { name: 'Spring Concert, seat A1', reference_number: 'a1', cost: '120.00' },
      { name: 'Spring Concert, seat A2', reference_number: 'a2', cost: '120.00' },
    ],
  },
  { order_number: 'LIVE-DEMO-1002', currency: 'EUR', items: [{ name: 'Harbour Festival day pass', reference_number: 'hf1', cost: '65.50' }] },
  { order_number: 'LIVE-DEMO-1003', currency: 'JPY', items: [{ name: 'Kabuki matinee, box 3', reference_number: 'k3', cost: '18000' }] },
] as const;

async function seedLiveDemo(baseUrl: string, keys: NewClientKeys): Promise<void> {
  const call = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`seeding the live demo merchant: ${path} answered ${res.status} ${await res.text()}`);
    return (await res.json()) as { token?: string };
  };
  const { token } = await call('/api/v2/auth/token', { public_key: keys.public_key, secret_key: keys.secret_key });
  for (const order of LIVE_DEMO_ORDERS)
    await call(
      '/api/v2/orders',
      { ...order, customer: { first_name: 'Demo', last_name: 'Customer', email: 'demo.customer@example.org' } },
      { authorization: `JWT ${token}`, 'idempotency-key': `seed-${order.order_number}` },
    );
}

/** The local OpenID Provider with one demo user per group, and the environment the gateway and the authorizer verify its tokens by. */
async function startSignIn(options: { port: number; pagesOrigin: string; demoClientId: string; staffFile?: string }) {
  const users = demoUsers(options.demoClientId);
  // Without a file of its own (a test's server), a file in a temporary directory, removed at stop:
  // the console's Staff section (POST /api/v2/admin/staff) adds people to it all the same.
  const temporary = options.staffFile ? undefined : await mkdtemp(join(tmpdir(), 'op-staff-'));
  const staffFile = options.staffFile ?? join(temporary!, 'staff.json');
  const oidc = await startLocalOidc({
    port: options.port,
    pagesOrigin: options.pagesOrigin,
    users: async () => (await readStaffFile(staffFile)).users,
  });
  const staff: StaffFile = {
    issuer: oidc.issuer,
    client_id: oidc.clientId,
    redirect_uri: oidc.redirectUris.console,
    portal_redirect_uri: oidc.redirectUris.portal,
    users,
  };
  await mkdir(dirname(staffFile), { recursive: true });
  await writeStaffFile(staffFile, staff);
  process.env.STAFF_ISSUER = oidc.issuer;
  process.env.STAFF_AUDIENCES = oidc.clientId;
  // The staff function's directory under npm start (deployed: STAFF_USER_POOL_ID, the Cognito pool).
  process.env[STAFF_FILE_VARIABLE] = staffFile;
  const stop = async () => {
    await oidc.stop();
    if (temporary) await rm(temporary, { recursive: true, force: true });
  };
  return { oidc, staff, stop };
}

export async function startLocalServer(options: LocalServerOptions = {}): Promise<LocalServer> {
  if (!process.env.POWERTOOLS_LOG_LEVEL) {
    // The terminal shows warnings and errors only; the shared logger may already exist (the gateway imports it), so it is told too.
    process.env.POWERTOOLS_LOG_LEVEL = 'WARN';
    logger.setLogLevel('WARN');
  }
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true'; // EMF lines are for CloudWatch, not a terminal
  process.env.WEBHOOK_URLS ??= 'local'; // webhook endpoints may be http://localhost receivers here (never deployed)
  // Every start signs with new keys: tokens from an earlier run stop working, as after a rotation.
  process.env.SIGNING_KEYS ||= JSON.stringify({
    access: generateKeySet('access'),
    quote: generateKeySet('quote'),
    claim: generateKeySet('claim'),
    'order-number': generateKeySet('order-number'),
  });
  // The scripts' stand-in on the staff routes locally (deployed: a client-credentials client of the user pool): new on every start.
  process.env.OPERATOR_KEY ||= `opk_${randomBytes(24).toString('base64url')}`;
  const config = loadConfig();
  const dynamo: LocalDynamo = await startLocalStack({
    port: options.dynamoPort,
    endpoint: options.dynamoEndpoint,
    lean: true, // a JVM for one person's clicks, idle most of the time (local-stack.ts)
    tables: { main: config.tableName, metrics: config.metricsTableName },
  });
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  // Each function's calls held to the grants its role has deployed (a missing one is refused here, not first in production).
  holdToGrants(sharedDocumentClient());
  holdKeysToGrants();
  // S3 for the bordereaux: s3rver on 127.0.0.1, reached by the same SDK client as deployed (S3_ENDPOINT, path-style).
  let s3;
  try {
    s3 = await startLocalS3({ port: options.s3Port ?? 0, buckets: [config.bordereauxBucket, config.evidenceBucket] });
  } catch (err) {
    await dynamo.stop();
    throw err;
  }
  Object.assign(process.env, s3.env); // S3_ENDPOINT and this start's own random S3 credentials (never logged)
  holdObjectsToGrants(sharedS3Client()); // the functions' S3 client held to their grants, as the DynamoDB one
  // The evidence bucket's events, as EventBridge carries them deployed: each upload checked, then scanned by ClamAV (GuardDuty's stand-in).
  const evidence = evidenceEvents(s3, config.evidenceBucket);
  if (evidence.note) logger.warn(evidence.note);
  // Every stream consumer of the function catalogue, on DynamoDB Local's streams (as Lambda's event source mappings do deployed).
  // Fast (every 250 ms) for 10 s after a request, every 30 s when nothing happens (one consumer per stream watching): an idle npm start costs almost no CPU.
  const pumps = await startStreamConsumers(dynamo, { main: config.tableName, metrics: config.metricsTableName }, { autoPoll: true, idlePollMs: 30_000 });
  const schedules = startSchedules({ idleEverySeconds: 60 }); // the webhook retry sweep, on its catalogue schedule's localEverySeconds (while idle as deployed: every 60 s)

  const doc = createDocumentClient(dynamo.endpoint, config.region);
  const demo = await createClient(new DynamoClientStore(doc, config.tableName), { name: 'Demo Shop' });
  const liveDemo = options.seedLiveDemo
    ? await createClient(new DynamoClientStore(doc, config.tableName), { name: 'Demo Venue (live)', mode: 'live' })
    : undefined;
  doc.destroy();

  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 3000, '127.0.0.1', resolve);
  });
  const address = server.address();
  const apiPort = typeof address === 'object' && address ? address.port : Number(options.port);
  const baseUrl = `http://localhost:${apiPort}`;
  // The staff sign-in: a real OpenID Provider on 127.0.0.1, whose tokens the gateway verifies (STAFF_ISSUER) as API Gateway's JWT authorizer does deployed.
  let signIn: Awaited<ReturnType<typeof startSignIn>>;
  try {
    signIn = await startSignIn({ port: options.oidcPort ?? 0, pagesOrigin: baseUrl, demoClientId: demo.client_id, staffFile: options.staffFile });
  } catch (err) {
    server.close();
    await Promise.all([schedules.stop(), pumps.stop(), s3.stop()]);
    await dynamo.stop();
    throw err;
  }
  // No webhook endpoint may point at the API itself, its database, its S3 or its sign-in provider (a probe of local ports otherwise).
  const localPorts = [dynamo.endpoint, s3.endpoint, signIn.oidc.issuer].map((url) => Number(new URL(url).port || 80));
  process.env.WEBHOOK_REFUSED_PORTS = [apiPort, ...localPorts].join(',');
  const gateway = localGateway(options.staticRoutes?.({ baseUrl, demo }) ?? {});
  server.on('request', (req, res) => {
    pumps.wake(); // a request may write: its stream records are read at once, not at the next idle poll
    schedules.wake();
    void gateway(req, res);
  });
  server.on('clientError', answerClientError);
  // Placed while the server already serves: npm start is ready as soon as before, the orders land a moment later.
  const seeded = liveDemo ? seedLiveDemo(baseUrl, liveDemo) : undefined;
  seeded?.catch(() => {}); // its owner awaits it; an unawaited failure must not end the process

  return {
    baseUrl,
    demo,
    ...(liveDemo && seeded ? { liveDemo, seeded } : {}),
    operatorKey: process.env.OPERATOR_KEY,
    staff: signIn.staff,
    server,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await signIn.stop();
      await schedules.stop();
      await pumps.stop();
      await evidence.stop();
      await s3.stop();
      await dynamo.stop();
    },
  };
}

async function main(): Promise<void> {
  const givenEndpoint = process.env.DYNAMODB_ENDPOINT || undefined;
  // Before anything is written to .local/ (the staff file is, as the sign-in starts).
  const releaseFolder = await claimLocalFolder();
  let local: Awaited<ReturnType<typeof startLocalServer>>;
  try {
    local = await startLocalServer({
      port: Number(process.env.PORT ?? 3000),
      dynamoPort: Number(process.env.DYNAMODB_PORT ?? 8000),
      dynamoEndpoint: givenEndpoint,
      s3Port: Number(process.env.S3_PORT ?? 4568),
      oidcPort: Number(process.env.OIDC_PORT ?? 3100),
      staffFile: join(process.cwd(), '.local', 'staff.json'),
      staticRoutes: demoSiteRoutes,
      seedLiveDemo: true,
    });
  } catch (err) {
    await releaseFolder();
    throw err;
  }
  // Ctrl-C is handled from here on, before the key file tells anyone the server is ready.
  let stopping = false;
  const stackFile = stackFilePath();
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await rm(stackFile, { force: true }); // no tool should find a stack that is gone
    await local.stop();
    await releaseFolder();
    process.exit(0);
  };
  // Ctrl-C, `kill`, and closing the terminal it runs in (SIGHUP).
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void shutdown());
  // `kill <npm's pid>` ends npm but not this process: once orphaned (its parent changed), it stops too.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void shutdown();
  }, 2_000).unref();

  const demoFile = join(process.cwd(), '.local', 'demo-client.json');
  await mkdir(dirname(demoFile), { recursive: true });
  const operatorFile = join(process.cwd(), '.local', 'operator.json');
  await writeFile(`${operatorFile}.tmp`, `${JSON.stringify({ operator_key: local.operatorKey }, null, 2)}\n`, { mode: 0o600 });
  await rename(`${operatorFile}.tmp`, operatorFile);
  // Written whole or not at all (a temporary file renamed into place): whoever waits for it never reads half of it.
  const config = loadConfig();
  const stack: StackFile = {
    dynamodb_endpoint: process.env.DYNAMODB_ENDPOINT!,
    table_name: config.tableName,
    metrics_table_name: config.metricsTableName,
    base_url: local.baseUrl,
  };
  await writeFile(`${stackFile}.tmp`, `${JSON.stringify(stack, null, 2)}\n`);
  await rename(`${stackFile}.tmp`, stackFile);
  await writeFile(`${demoFile}.tmp`, `${JSON.stringify({ base_url: local.baseUrl, ...local.demo }, null, 2)}\n`, { mode: 0o600 });
  await rename(`${demoFile}.tmp`, demoFile);

  console.log(`Order Protection API on ${local.baseUrl}  (DynamoDB at ${process.env.DYNAMODB_ENDPOINT}, S3 at ${process.env.S3_ENDPOINT})`);
  // Keys and passwords stay in .local/ (where a terminal's scrollback or a saved log does not keep them): the banner names the files.
  console.log(`Demo client ${local.demo.client_id}\n  public key ${local.demo.public_key}  (its secret key is in ${demoFile})`);
  if (local.liveDemo)
    console.log(
      `Live demo merchant ${local.liveDemo.client_id} (live keys; ${LIVE_DEMO_ORDERS.length} orders placed at start): its premiums fill this month's bordereaux (the console's Bordereaux, as the finance user)`,
    );
  local.seeded?.catch((err: unknown) => console.error(`The live demo merchant's orders could not be placed: ${(err as Error).message}`));
  console.log(`Demo checkout ${local.baseUrl}/   ·   dashboard ${local.baseUrl}/dashboard   ·   widget ${local.baseUrl}/widget.js`);
  console.log(
    `Operator console ${local.staff.redirect_uri}   ·   merchant portal ${local.staff.portal_redirect_uri}   ·   customer's claim page ${local.baseUrl}/claim\n  sign in at ${local.staff.issuer} (OpenID Provider) as one demo user per group: ${local.staff.users.map((u) => u.email).join(', ')}; passwords in .local/staff.json`,
  );
  console.log(`  scripts: the operator key in ${operatorFile} (Authorization: Operator <key>)`);
  const stops = givenEndpoint ? 'the API and the local S3 (the DynamoDB at DYNAMODB_ENDPOINT keeps running)' : 'the API, DynamoDB Local and the local S3';
  console.log(`Keys written to ${demoFile}. Ctrl-C stops ${stops}.`);
}

if (startedAsScript(import.meta.url)) {
  main().catch((err: unknown) => {
    console.error(`npm start failed: ${(err as Error).message}`);
    process.exit(1);
  });
}
