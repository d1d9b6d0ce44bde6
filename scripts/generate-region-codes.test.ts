import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REGION_CODES_FILE, renderRegionCodes } from './generate-region-codes.js';

describe('region codes table', () => {
  it('is what the installed iso-3166 package yields (after updating it: npm run generate:region-codes)', () => {
    expect(readFileSync(REGION_CODES_FILE, 'utf8')).toBe(renderRegionCodes());
  });
});
