import { build, type BuildOptions } from 'esbuild';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { localeBuild, localeDefines } from './locale-files.js';
import { claimPage } from './pages/claim-page.js';
import { consolePage } from './pages/console-page.js';
import { FAVICON_SVG } from './pages/favicon.js';
import { portalPage } from './pages/portal-page.js';
import { PAGE_SCRIPTS, pageScriptPath, type PageScript } from './pages/page-kit.js';

/** Bundles the widget, and each page's script, into small, dependency-free, minified scripts. */
const here = dirname(fileURLToPath(import.meta.url));
const options = { bundle: true, minify: true, format: 'iife', target: ['es2020'], write: false, legalComments: 'none' } satisfies BuildOptions;
let cached: Promise<string> | undefined;

export function buildWidget(): Promise<string> {
  cached ??= build({ ...options, define: localeDefines(), entryPoints: [join(here, 'src', 'widget.ts')] }).then((result) => result.outputFiles[0]!.text);
  return cached;
}

let pages: Promise<Record<PageScript, string>> | undefined;

/**
 * Every page's script (widget/pages/scripts/<name>.ts with what it uses of kit.ts), one file each,
 * in one esbuild run the first time any is asked for; then from memory.
 */
export function buildPageScripts(): Promise<Record<PageScript, string>> {
  pages ??= build({
    ...options,
    define: localeDefines(), // the claim page's English and its other locales' files
    entryPoints: PAGE_SCRIPTS.map((name) => join(here, 'pages', 'scripts', `${name}.ts`)),
    outdir: join(here, 'dist', 'assets'),
  })
    .then((result) => Object.fromEntries(result.outputFiles.map((file) => [basename(file.path, '.js'), file.text])) as Record<PageScript, string>)
    .catch((err: unknown) => {
      pages = undefined; // a failed build is tried again on the next ask
      throw err;
    });
  return pages;
}

/** A page that sends the browser on (an old address), as a static file: a meta refresh (no script: the pages' CSP runs none inline) and a link. */
export const redirectPage = (to: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=${to}"><title>Moved</title></head><body><p><a href="${to}">This page moved to ${to}</a>.</p></body></html>\n`;

/**
 * The deployed site's pages, by the file each is served from (lib/web.ts's viewer-request function
 * turns `/admin/` into `/admin/index.html` and `/claim` into `/claim/index.html`). None holds data
 * of a server's: the console and the portal read /config.json, which the web stack writes at
 * deploy time; the claim page names no shop (the merchant's claim link `?shop=` does). Not the demo
 * checkout nor the dashboard (npm start's demo, which its own back-end serves).
 */
export function sitePages(): Record<string, string> {
  return {
    'claim/index.html': claimPage(),
    'admin/index.html': consolePage(),
    'portal/index.html': portalPage(),
    // The operator pages' addresses before the console (scripts/local/demo-site.ts CONSOLE_REDIRECTS does the same with a 302).
    'admin/claims/index.html': redirectPage('/admin/#claims'),
    'admin/bordereaux/index.html': redirectPage('/admin/#bordereaux'),
  };
}

/** The deployed pages' scripts: every page's but the demo checkout's and the dashboard's. */
export const SITE_SCRIPTS = PAGE_SCRIPTS.filter((name) => name !== 'checkout' && name !== 'dashboard');

/**
 * `npm run build:site`: every deployed page into `directory` (widget/dist/site, which lib/web.ts
 * deploys when it exists at synth): the pages, their scripts at /assets/<page>.js, the widget
 * (/widget.js), the locale files of the widget and the claim page (/locales/<surface>.<tag>.<hash>.json,
 * widget/locale-files.ts), the icon (/favicon.svg and /favicon.ico) and the API reference (/docs/index.html,
 * built by Redocly: a few seconds). Written afresh: what an older build left is removed first.
 */
export async function buildSite(directory: string, { reference = true } = {}): Promise<string[]> {
  await rm(directory, { recursive: true, force: true });
  const files: Record<string, string> = {
    ...sitePages(),
    'widget.js': await buildWidget(),
    ...localeBuild().files,
    'favicon.svg': FAVICON_SVG,
    'favicon.ico': FAVICON_SVG,
  };
  const scripts = await buildPageScripts();
  for (const name of SITE_SCRIPTS) files[pageScriptPath(name).slice(1)] = scripts[name];
  if (reference) {
    const { buildApiReference } = await import('../scripts/api-reference.js');
    files['docs/index.html'] = await buildApiReference();
  }
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(directory, path)), { recursive: true });
    await writeFile(join(directory, path), content);
  }
  return Object.keys(files).sort();
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === 'site') {
  const directory = join(here, 'dist', 'site');
  const files = await buildSite(directory);
  console.log(`${directory}: ${files.length} files\n  ${files.join('\n  ')}`);
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const code = await buildWidget();
  await mkdir(join(here, 'dist', 'assets'), { recursive: true });
  await writeFile(join(here, 'dist', 'widget.js'), code);
  console.log(`widget/dist/widget.js: ${code.length} bytes`);
  for (const [path, content] of Object.entries(localeBuild().files)) {
    await mkdir(dirname(join(here, 'dist', path)), { recursive: true });
    await writeFile(join(here, 'dist', path), content);
    console.log(`widget/dist/${path}: ${Buffer.byteLength(content)} bytes`);
  }
  for (const [name, script] of Object.entries(await buildPageScripts())) {
    await writeFile(join(here, 'dist', 'assets', `${name}.js`), script);
    console.log(`widget/dist/assets/${name}.js: ${script.length} bytes`);
  }
}
