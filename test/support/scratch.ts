import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * A folder of this test file's own in the system's temporary directory, removed after the file's
 * tests (registered before a file's other hooks, it is removed after them). For what a test writes:
 * CDK's assemblies (an App without `outdir` leaves a 23 MB `cdk.out…` behind), built sites, a
 * staff file, a guide's `mktemp` files.
 */
export function scratchFolder(name: string): string {
  const folder = mkdtempSync(join(tmpdir(), `op-${name}-`));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}
