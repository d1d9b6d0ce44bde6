import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The shape of shared/ (docs "Code layout"): small folders, and no import cycle between its
 * files (the feature graph itself is in eslint.config.js, which refuses an import against it).
 */
const root = import.meta.dirname;
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [join(dir, entry.name)] : [],
  );
const files = sources(root);

describe('shared/', () => {
  it('holds at most 15 source files in any one folder', () => {
    const perFolder = new Map<string, number>();
    for (const file of files) perFolder.set(relative(root, dirname(file)) || '.', (perFolder.get(relative(root, dirname(file)) || '.') ?? 0) + 1);
    expect([...perFolder].filter(([, count]) => count > 15)).toEqual([]);
  });

  it('has no import cycle between its files', () => {
    const imports = new Map(
      files.map((file) => [
        file,
        [...readFileSync(file, 'utf8').matchAll(/from '((?:\.{1,2}|#shared)\/[^']+)'/g)].map(([, spec]) =>
          (spec!.startsWith('#shared/') ? join(root, spec!.slice('#shared/'.length)) : resolve(dirname(file), spec!)).replace(/\.js$/, '.ts'),
        ),
      ]),
    );
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...path.slice(path.indexOf(file)), file].map((f) => relative(root, f)).join(' → '));
        return;
      }
      state.set(file, 'open');
      for (const next of imports.get(file) ?? []) visit(next, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
