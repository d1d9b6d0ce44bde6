import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, GUIDE, parseGuide, runCommands } from '../../scripts/guide-runner.js';
import { PREMIUM_COLUMNS } from '#shared/bordereaux/index.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { scratchFolder } from '../support/scratch.js';

/**
 * Docs that cannot rot: docs/guide.md's command blocks, run in order against npm start's server
 * behind a Prism proxy that validates every request and response against openapi.yaml. Each
 * answer the guide shows must be what the service answered (status, shape and every value but
 * ids, tokens and times), and Prism must see no violation and no path openapi.yaml does not declare.
 */
const root = join(import.meta.dirname, '..', '..');
let server: TestServer;
let prism: ChildProcess;
let prismLog = '';
let proxyUrl = '';

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

beforeAll(async () => {
  // As npm start: with the live demo merchant whose orders fill the bordereau the guide exports.
  server = await startTestServer({ seedLiveDemo: true });
  await server.seeded;
  const port = await freePort();
  prism = spawn(
    join(root, 'node_modules', '.bin', 'prism'),
    ['proxy', join(root, 'openapi.yaml'), server.baseUrl, '--port', String(port), '--host', '127.0.0.1', '--errors'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  prism.stdout!.on('data', (chunk: Buffer) => (prismLog += chunk.toString()));
  prism.stderr!.on('data', (chunk: Buffer) => (prismLog += chunk.toString()));
  for (let i = 0; i < 120 && !/Prism is listening/.test(prismLog); i++) await new Promise((resolve) => setTimeout(resolve, 250));
  if (!/Prism is listening/.test(prismLog)) throw new Error(`Prism did not start:\n${prismLog}`);
  proxyUrl = `http://127.0.0.1:${port}`;
}, 60_000);
afterAll(async () => {
  prism?.kill();
  await server?.stop();
});

const scratch = scratchFolder('guide');

describe('docs/guide.md', () => {
  it('runs as written, every shown answer is what the service answered, and the contract proxy saw no violation', async () => {
    const blocks = parseGuide(readFileSync(GUIDE, 'utf8'));
    expect(blocks.filter((block) => block.kind === 'answer').length).toBeGreaterThan(15);
    const outputs = await runCommands(blocks, {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        // The guide's `mktemp` files (answers, headers, the receiver's log, the claim's PDF) in a folder of this test's own.
        TMPDIR: scratch,
        BASE: proxyUrl,
        PK: server.demo.public_key,
        SK: server.demo.secret_key,
        OPERATOR_KEY: server.operatorKey,
        RECEIVER_PORT: String(await freePort()),
      },
    });

    expect(check(blocks, outputs)).toEqual([]);
    expect(outputs.join('\n')).toMatch(/policy\.canceled OP-[0-9A-Z-]+\npolicy\.voided OP-[0-9A-Z-]+\norder\.canceled/);
    // The bordereau's header as the export wrote it, and as the guide shows it (a text block, which check() does not read).
    const header = new RegExp(`^${PREMIUM_COLUMNS.join(',')}\\r?$`, 'm');
    expect(outputs.join('\n')).toMatch(header);
    expect(readFileSync(GUIDE, 'utf8')).toMatch(header);
    const requests = prismLog.match(/Request received/g)?.length ?? 0;
    expect(requests).toBeGreaterThan(20);
    expect(prismLog.split('\n').filter((line) => /✖|violation|NO_PATH_MATCHED|UNPROCESSABLE/i.test(line))).toEqual([]);
  }, 300_000);
});
