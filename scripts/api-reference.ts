import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse, stringify } from 'yaml';
import { startedAsScript } from './started-as-script.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The HTML API reference of `openapi.yaml`, built by Redocly's `build-docs` with Redoc's scripts
 * inlined (`--inlineBundle`), so the page needs nothing from a CDN. `npm run docs:build` writes it
 * to a file; `npm start` serves it at /docs.
 */
export async function buildApiReference(options: { output?: string; serverUrl?: string } = {}): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'api-reference-'));
  const file = options.output ?? join(folder, 'index.html');
  try {
    // The reference names the server it is served by (npm start's own URL), else openapi.yaml's.
    let spec = join(root, 'openapi.yaml');
    if (options.serverUrl) {
      const document = parse(await readFile(spec, 'utf8')) as { servers?: { url: string; description?: string }[] };
      document.servers = [{ url: options.serverUrl, description: 'this npm start (deployed: the OrderProtectionApi stack output ApiUrl)' }];
      spec = join(folder, 'openapi.yaml');
      await writeFile(spec, stringify(document));
    }
    await promisify(execFile)(
      join(root, 'node_modules', '.bin', 'redocly'),
      ['build-docs', spec, '--inlineBundle', '--title', 'Order Protection API', '-o', file],
      { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' }, timeout: 60_000 },
    );
    return withPhoneMenuBar(await readFile(file, 'utf8'));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * Redoc's menu button on a phone is a 60 px circle fixed over the bottom right of the text, which
 * it covers wherever the reader scrolls. Below Redoc's small breakpoint (50rem) it becomes a bar
 * across the top of the screen instead, and the page starts below it, as a phone app's top bar.
 */
export const PHONE_MENU_BAR_CSS = `<style id="phone-menu-bar">
@media (max-width: 50rem) {
  body { padding-top: 3rem; }
  [data-testid="floating-button"] {
    top: 0 !important; bottom: auto !important; left: 0 !important; right: 0 !important;
    width: 100% !important; height: 3rem !important; border-radius: 0 !important;
    justify-content: flex-start !important; padding: 0 1rem !important; box-shadow: 0 1px 3px rgba(0, 0, 0, .15) !important;
  }
}
</style>`;

export const withPhoneMenuBar = (html: string): string => html.replace('</head>', `${PHONE_MENU_BAR_CSS}</head>`);

if (startedAsScript(import.meta.url)) {
  const output = process.argv[2] ?? join(root, 'docs', 'api-reference.html');
  await buildApiReference({ output });
  console.log(`API reference written to ${output}`);
}
