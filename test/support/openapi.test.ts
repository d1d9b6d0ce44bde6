import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openapiDocument } from './openapi.js';

/**
 * The parsed contract's cache (found from outside): a copy that parses but is not one it made, an
 * empty document say, was trusted, and every answer checked against it passed unchecked.
 */
const ROOT = join(import.meta.dirname, '..', '..');

describe('the parsed openapi.yaml kept between test files', () => {
  it('keeps one file: the copies of other versions go when a new one is made', async () => {
    const cache = join(ROOT, 'node_modules', '.cache', 'openapi');
    mkdirSync(cache, { recursive: true });
    const stale = join(cache, `${'0'.repeat(64)}.json`);
    writeFileSync(stale, '{}');
    const text = readFileSync(join(ROOT, 'openapi.yaml'), 'utf8');
    rmSync(join(cache, `${createHash('sha256').update(text).digest('hex')}.json`), { force: true });
    await openapiDocument();
    expect(existsSync(stale)).toBe(false);
  });

  it('is made again when the kept copy is not one it made', async () => {
    const text = readFileSync(join(ROOT, 'openapi.yaml'), 'utf8');
    const hash = createHash('sha256').update(text).digest('hex');
    const file = join(ROOT, 'node_modules', '.cache', 'openapi', `${hash}.json`);
    mkdirSync(join(file, '..'), { recursive: true });
    for (const impostor of [
      { openapi: '3.1.0', paths: {} },
      { hash, document: { openapi: '3.1.0' } },
      { hash: 'other', document: { openapi: '3.1.0', paths: {} } },
    ]) {
      writeFileSync(file, JSON.stringify(impostor));
      const document = (await openapiDocument()) as { paths: Record<string, unknown> };
      expect(Object.keys(document.paths).length).toBeGreaterThan(40);
      expect((JSON.parse(readFileSync(file, 'utf8')) as { hash: string }).hash).toBe(hash);
    }
  });
});
