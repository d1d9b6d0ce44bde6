import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { BUNDLING } from './service-function.js';
import { ECMASCRIPT_TARGET, ESBUILD_TARGET, LAMBDA_RUNTIME, NODE_MAJOR } from './runtime.js';

/** One runtime: what Lambda runs is what every npm script runs on, and every file that names it agrees. */
const root = join(import.meta.dirname, '..');
const json = (file: string) => JSON.parse(readFileSync(join(root, file), 'utf8'));
const major = (range: string) => Number(/(\d+)/.exec(range)?.[1]);

describe('the runtime', () => {
  it('is the Node major the tests run on', () => {
    expect(Number(process.versions.node.split('.')[0])).toBe(NODE_MAJOR);
  });

  it('is the Lambda runtime and the bundles’ target', () => {
    expect(LAMBDA_RUNTIME.name).toBe(`nodejs${NODE_MAJOR}.x`);
    expect(ESBUILD_TARGET).toBe(`node${NODE_MAJOR}`);
    expect(BUNDLING.target).toBe(ESBUILD_TARGET);
  });

  it('is what package.json pins: the node binary of npm scripts, engines and the Node types', () => {
    const pkg = json('package.json');
    expect(major(pkg.devDependencies.node)).toBe(NODE_MAJOR);
    expect(major(pkg.engines.node)).toBe(NODE_MAJOR);
    expect(major(pkg.devDependencies['@types/node'])).toBe(NODE_MAJOR);
    expect(pkg.allowScripts.node).toBe(true); // its preinstall fetches the binary package
  });

  it('is the target tsconfig.json compiles for', () => {
    // tsconfig.json may hold comments: read it as tsc does.
    const { config, error } = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
    expect(error).toBeUndefined();
    expect(config.compilerOptions.target).toBe(ECMASCRIPT_TARGET);
  });

  it('is the Node the README names', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const named = [...readme.matchAll(/Node(?:\.js)? (\d+)/g)].map((m) => Number(m[1]));
    expect(named.length).toBeGreaterThan(0);
    expect(new Set(named)).toEqual(new Set([NODE_MAJOR]));
  });
});
