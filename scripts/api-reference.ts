import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The HTML API reference of `openapi.yaml`, built by Redocly's `build-docs` with Redoc's scripts
 * inlined (`--inlineBundle`), so the page needs nothing from a CDN. `npm run docs:build` writes it
 * to a file; `npm start` serves it at /docs.
 */
export async function buildApiReference(output?: string): Promise<string> {
  const folder = output ? undefined : await mkdtemp(join(tmpdir(), 'api-reference-'));
  const file = output ?? join(folder!, 'index.html');
  try {
    await promisify(execFile)(
      join(root, 'node_modules', '.bin', 'redocly'),
      ['build-docs', join(root, 'openapi.yaml'), '--inlineBundle', '--title', 'Order Protection API', '-o', file],
      { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' }, timeout: 60_000 },
    );
    return await readFile(file, 'utf8');
  } finally {
    if (folder) await rm(folder, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const output = process.argv[2] ?? join(root, 'docs', 'api-reference.html');
  await buildApiReference(output);
  console.log(`API reference written to ${output}`);
}
