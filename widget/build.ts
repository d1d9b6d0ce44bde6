import { build, type BuildOptions } from 'esbuild';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PAGE_SCRIPTS, type PageScript } from './pages/page-kit.js';

/** Bundles the widget, and each page's script, into small, dependency-free, minified scripts. */
const here = dirname(fileURLToPath(import.meta.url));
const options = { bundle: true, minify: true, format: 'iife', target: ['es2020'], write: false, legalComments: 'none' } satisfies BuildOptions;
let cached: Promise<string> | undefined;

export function buildWidget(): Promise<string> {
  cached ??= build({ ...options, entryPoints: [join(here, 'src', 'widget.ts')] }).then((result) => result.outputFiles[0]!.text);
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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const code = await buildWidget();
  await mkdir(join(here, 'dist', 'assets'), { recursive: true });
  await writeFile(join(here, 'dist', 'widget.js'), code);
  console.log(`widget/dist/widget.js: ${code.length} bytes`);
  for (const [name, script] of Object.entries(await buildPageScripts())) {
    await writeFile(join(here, 'dist', 'assets', `${name}.js`), script);
    console.log(`widget/dist/assets/${name}.js: ${script.length} bytes`);
  }
}
