import { build } from 'esbuild';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Bundles the widget into one small, dependency-free, minified script. */
const here = dirname(fileURLToPath(import.meta.url));
let cached: Promise<string> | undefined;

export function buildWidget(): Promise<string> {
  cached ??= build({
    entryPoints: [join(here, 'src', 'widget.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020'],
    write: false,
    legalComments: 'none',
  }).then((result) => result.outputFiles[0]!.text);
  return cached;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const code = await buildWidget();
  await mkdir(join(here, 'dist'), { recursive: true });
  await writeFile(join(here, 'dist', 'widget.js'), code);
  console.log(`widget/dist/widget.js: ${code.length} bytes`);
}
