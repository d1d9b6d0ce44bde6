import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { format, resolveConfig } from 'prettier';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '#shared/platform/error-catalogue.js';
import { ERRORS_DOC, renderErrorsDoc } from './error-docs.js';

/**
 * docs/errors.md is the code's error catalogue, never a hand-kept copy: the error classes take only
 * catalogued codes (the type checker holds that), and these tests hold the rest.
 */
describe('the error catalogue', () => {
  it('is what docs/errors.md shows (npm run docs:errors writes it)', async () => {
    const options = { ...(await resolveConfig(ERRORS_DOC)), filepath: ERRORS_DOC };
    expect(readFileSync(ERRORS_DOC, 'utf8')).toBe(await format(renderErrorsDoc(), options));
  });

  it('lists no code the service never answers', () => {
    const sources = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'shared', 'functions', 'scripts'], { encoding: 'utf8' })
      .split('\n')
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('error-catalogue.ts'))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const unused = Object.keys(ERROR_CATALOGUE).filter((code) => !sources.includes(`'${code}'`));
    expect(unused).toEqual([]);
  });
});
