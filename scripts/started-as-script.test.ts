import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startedAsScript } from './started-as-script.js';

const folder = mkdtempSync(join(tmpdir(), 'op-started-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('startedAsScript', () => {
  const self = fileURLToPath(import.meta.url);
  symlinkSync(join(self, '..'), join(folder, 'release'));
  const viaLink = join(folder, 'release', 'started-as-script.test.ts');

  it('is this module however its path is spelled: as is, through a symlinked folder, without .ts', () => {
    expect([self, viaLink, viaLink.replace(/\.ts$/, '')].map((started) => startedAsScript(import.meta.url, started))).toEqual([true, true, true]);
  });

  it('is not another script, a missing path or no script at all', () => {
    expect(
      [join(self, '..', 'started-as-script.ts'), join(folder, 'missing.ts'), undefined].map((started) => startedAsScript(import.meta.url, started)),
    ).toEqual([false, false, false]);
  });
});
