import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * openapi.yaml as the test suites read it: parsed once per version of the file, not once per test
 * file. Reading the YAML took about half a second, in each of the ~70 files that check answers
 * against the contract; the parsed document is kept as JSON under node_modules/.cache, named by a
 * hash of the YAML, so an edited openapi.yaml is read afresh and a stale copy is never used.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const CACHE = join(ROOT, 'node_modules', '.cache', 'openapi');

export async function openapiDocument(): Promise<unknown> {
  const text = readFileSync(join(ROOT, 'openapi.yaml'), 'utf8');
  const hash = createHash('sha256').update(text).digest('hex');
  const file = join(CACHE, `${hash}.json`);
  try {
    // The copy names the hash it was made from inside, beside the document: a file that parses but
    // is not such a copy (a hand edit, a truncation that still parses) is made again, never trusted.
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { hash?: unknown; document?: unknown };
    if (kept.hash === hash && isDocument(kept.document)) return kept.document;
  } catch {
    // Not kept yet (or cut short): parsed below and kept.
  }
  const { parse } = await import('yaml'); // only on a miss: importing it costs a sixth of a second too
  const document: unknown = parse(text);
  mkdirSync(CACHE, { recursive: true });
  // Written whole, then renamed: two test workers parsing at once never read half a file.
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, JSON.stringify({ hash, document }));
  renameSync(partial, file);
  // Copies of other versions of openapi.yaml are not read again: they go, so the cache stays one file.
  for (const name of readdirSync(CACHE)) if (name.endsWith('.json') && name !== `${hash}.json`) rmSync(join(CACHE, name), { force: true });
  return document;
}

const isDocument = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { openapi?: unknown }).openapi === 'string' &&
  typeof (value as { paths?: unknown }).paths === 'object';
