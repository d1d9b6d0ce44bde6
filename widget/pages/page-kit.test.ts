import { describe, expect, it } from 'vitest';
import { pageDataBlock, pageScriptTag, PAGE_SCRIPTS } from './page-kit.js';

describe('the pages’ script tag and data block', () => {
  it('carries any value as JSON that no </script> or <!-- inside it can end or turn into code', () => {
    const value = { public_key: '</script><script>alert(1)</script><!--', note: 'a < b' };
    const block = pageDataBlock(value);
    const opening = '<script type="application/json" id="page-data">';
    expect(block.startsWith(opening)).toBe(true);
    expect(block.endsWith('</script>')).toBe(true);
    const body = block.slice(opening.length, -'</script>'.length);
    expect(body).not.toContain('<');
    expect(JSON.parse(body)).toEqual(value);
  });

  it('names each page’s own script by a path of this origin', () => {
    expect(PAGE_SCRIPTS.map(pageScriptTag)).toEqual(PAGE_SCRIPTS.map((name) => `<script src="/assets/${name}.js"></script>`));
  });
});
