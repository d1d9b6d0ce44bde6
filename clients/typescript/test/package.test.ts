import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The package as a merchant gets it: `npm pack` of the workspace (its prepack builds dist/),
 * installed into an empty folder from npm's cache (its dependencies are there since the repository's
 * own install), then imported by plain `node` and type-checked by plain `tsc`: no tsx, no bundler,
 * nothing of this repository on the way.
 */
const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);
const npm = (cwd: string, ...args: string[]) => run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, timeout: 180_000 });

let folder: string;
let packed: { filename: string; files: { path: string }[] };
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'client-package-'));
  const { stdout } = await npm(PACKAGE, 'pack', '--json', '--pack-destination', folder); // the JSON after prepack's own output
  packed = (JSON.parse(stdout.slice(stdout.search(/^\[/m))) as (typeof packed)[])[0]!;
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'merchant', private: true, type: 'module' }));
  // --prefer-offline: from npm's cache, which the repository's own install filled; the registry only for what it lacks.
  await npm(folder, 'install', '--prefer-offline', '--ignore-scripts', join(folder, packed.filename));
}, 300_000); // a guard, not a goal: pack, build and install take about 30–50 s on 2 busy cores
afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** A merchant's ESM script: a client over a stub fetch (a refused sign-in, a list page), and a delivery signed as the service signs it. */
const SCRIPT = `
import { createOrderProtectionClient, OrderProtectionError, verifyWebhook, WebhookVerificationError } from '@order-protection/client';
import { Webhook } from 'standardwebhooks';

const asked = [];
const json = (status, body) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
let refuse = true;
const client = createOrderProtectionClient({
  baseUrl: 'https://api.example.com/',
  publicKey: 'pk_test_x',
  secretKey: 'sk_test_x',
  fetch: async (request) => {
    const url = new URL(request.url);
    asked.push(url.pathname + url.search);
    if (url.pathname === '/api/v2/auth/token') {
      if (refuse) return json(401, { error: { type: 'authentication_error', code: 'invalid_credentials', message: 'No.', request_id: 'req-1' } });
      return json(200, { token: 't', token_type: 'JWT', expires_in: 900 });
    }
    return json(200, { data: [{ service_order_id: 'o1' }, { service_order_id: 'o2' }], has_more: false, next_cursor: null });
  },
});
const refused = await client.orders.retrieve('o1').catch((error) => error);
refuse = false;
const listed = [];
for await (const order of client.orders.list({ limit: 2 })) listed.push(order.service_order_id);

const secret = 'whsec_' + Buffer.from('0123456789abcdef0123456789abcdef').toString('base64');
const body = JSON.stringify({ id: 'evt_1', type: 'order.canceled', created: '2026-01-01T00:00:00.000Z', data: { order_number: 'G-1', service_order_id: 'o1' } });
const sentAt = new Date();
const headers = { 'webhook-id': 'evt_1', 'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign('evt_1', sentAt, body) };
const event = verifyWebhook(body, headers, secret);
// The body's bytes as a receiver reads them: a Buffer, and a plain Uint8Array (a fetch runtime's).
const fromBytes = [Buffer.from(body), new TextEncoder().encode(body)].map((bytes) => verifyWebhook(bytes, headers, secret).id);
let tampered;
try {
  verifyWebhook(body.replace('G-1', 'G-2'), headers, secret);
} catch (error) {
  tampered = error instanceof WebhookVerificationError;
}
console.log(JSON.stringify({
  refused: { isError: refused instanceof OrderProtectionError, name: refused.name, status: refused.status, code: refused.code, requestId: refused.requestId },
  asked,
  listed,
  event,
  fromBytes,
  tampered,
}));
`;

/** The same as a TypeScript merchant writes it, checked against the package's declarations. */
const TYPED = `
import { createOrderProtectionClient, OrderProtectionError, verifyWebhook, type WebhookEvent } from '@order-protection/client';

const client = createOrderProtectionClient({ baseUrl: 'https://api.example.com', publicKey: 'pk', secretKey: 'sk' });
export const first = async (): Promise<string | undefined> => {
  for await (const order of client.orders.list({ limit: 5, status: 'Issued' })) return order.service_order_id;
  return undefined;
};
export const refund = (event: WebhookEvent): string | undefined => (event.type === 'policy.voided' ? event.data.policy.refund_due : undefined);
export const code = (error: unknown): string | undefined => (error instanceof OrderProtectionError ? error.code : undefined);
export const verified: WebhookEvent = verifyWebhook('{}', new Headers(), 'whsec_x');
export const fromBytes: WebhookEvent = verifyWebhook(new TextEncoder().encode('{}'), new Headers(), 'whsec_x');
// What the declarations refuse (were they lost to \`any\`, these would pass and tsc would fail on the unused directives):
// @ts-expect-error limit is a number
export const stringLimit = client.orders.list({ limit: '5' });
// @ts-expect-error an order.created has no policy
export const noPolicy = (event: WebhookEvent) => event.type === 'order.created' && event.data.policy;
`;

describe('the packed @order-protection/client', () => {
  it('ships compiled ESM, its declarations, README, LICENSE and package.json: no sources, tests, scripts or examples', () => {
    const files = packed.files.map((file) => file.path).sort();

    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json', 'dist/index.js', 'dist/index.d.ts', 'dist/webhooks.js']));
    expect(files.filter((path) => !/^dist\/[\w.-]+\.(js|d\.ts)$/.test(path) && !['LICENSE', 'README.md', 'package.json'].includes(path))).toEqual([]);
    expect(files.filter((path) => /test|scripts|examples|\.ts$/.test(path) && !path.endsWith('.d.ts'))).toEqual([]);
  });

  it('installed into an empty folder, runs under plain node: the client, its typed error, a list with a numeric limit, a verified webhook', async () => {
    writeFileSync(join(folder, 'merchant.mjs'), SCRIPT);
    const { stdout } = await run(process.execPath, ['merchant.mjs'], { cwd: folder, timeout: 30_000 });
    const seen = JSON.parse(stdout) as Record<string, unknown>;

    expect(seen).toEqual({
      refused: { isError: true, name: 'OrderProtectionError', status: 401, code: 'invalid_credentials', requestId: 'req-1' },
      asked: ['/api/v2/auth/token', '/api/v2/auth/token', '/api/v2/orders?limit=2'],
      listed: ['o1', 'o2'],
      event: { id: 'evt_1', type: 'order.canceled', created: '2026-01-01T00:00:00.000Z', data: { order_number: 'G-1', service_order_id: 'o1' } },
      fromBytes: ['evt_1', 'evt_1'],
      tampered: true,
    });
  });

  it(
    "type-checks a merchant's TypeScript against the installed declarations (exports' types, a numeric limit, events narrowed by type)",
    { timeout: 120_000 }, // a guard: the type check takes about 10 s
    async () => {
      writeFileSync(join(folder, 'merchant.ts'), TYPED);
      const compilerOptions = {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        lib: ['es2022', 'dom'],
        strict: true,
        noEmit: true,
        // Every declaration checked, with no Node.js types: a merchant on a browser, an edge runtime
        // or Deno has none, and the package's declarations must not need them.
        skipLibCheck: false,
        types: [],
      };
      writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['merchant.ts'] }));
      const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

      const checked = await run(process.execPath, [tsc, '-p', folder], { cwd: folder, timeout: 110_000 }).then(
        () => 'no errors',
        (error: { stdout: string }) => error.stdout,
      );

      expect(checked).toBe('no errors');
    },
  );
});
