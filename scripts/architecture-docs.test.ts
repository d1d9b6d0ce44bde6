import { readFileSync } from 'node:fs';
import { format, resolveConfig } from 'prettier';
import { describe, expect, it } from 'vitest';
import { functionNames } from '#shared/platform/functions.js';
import { ARCHITECTURE_DOC, renderArchitectureDoc } from './architecture-docs.js';

/** docs/architecture.md's diagram, function table and capability list are the code's, never a hand-kept copy. */
describe('the architecture map', () => {
  const doc = readFileSync(ARCHITECTURE_DOC, 'utf8');

  it('is what the code draws (npm run docs:architecture writes it)', async () => {
    const options = { ...(await resolveConfig(ARCHITECTURE_DOC)), filepath: ARCHITECTURE_DOC };
    expect(doc).toBe(await format(renderArchitectureDoc(doc), options));
  });

  it('names every function in the diagram and the table', () => {
    for (const name of functionNames) {
      expect(doc).toContain(`["${name} λ"]`);
      expect(doc).toMatch(new RegExp(`^\\| \`${name}\` +\\|`, 'm'));
    }
  });
});
