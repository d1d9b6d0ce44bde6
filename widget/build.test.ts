import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAGE_INDEX_FUNCTION } from '../lib/web.js';
import { buildSite, buildWidget, SITE_SCRIPTS, sitePages } from './build.js';
import { localeBuild } from './locale-files.js';
import { scratchFolder } from '../test/support/scratch.js';

/** The sites this file builds go in a folder of its own. */
const work = scratchFolder('site-build-test');

/** Every file under a folder, by its path in it. */
function filesIn(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .filter((path) => statSync(join(directory, path)).isFile())
    .map((path) => relative(directory, join(directory, path)))
    .sort();
}

/** lib/web.ts's viewer-request function, run as CloudFront runs it: the file a path is served from. */
const servedFrom = (uri: string): string => {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the function's own source, as CloudFront runs it
  const handler = new Function(`${PAGE_INDEX_FUNCTION}; return handler;`)() as (event: { request: { uri: string } }) => { uri: string };
  return handler({ request: { uri } }).uri.slice(1);
};

describe('npm run build:site', () => {
  it('writes every deployed page where the distribution looks for it, with their scripts, the widget and the icon', async () => {
    const directory = join(mkdtempSync(join(work, 'site-')), 'site');
    const written = await buildSite(directory, { reference: false }); // the API reference (Redocly, seconds) is tested with docs:build
    expect(filesIn(directory)).toEqual(written);
    for (const path of [
      '/admin/',
      '/portal/',
      '/claim',
      '/admin/claims',
      '/admin/bordereaux',
      '/widget.js',
      ...Object.keys(localeBuild().files).map((path) => `/${path}`),
      '/favicon.svg',
      ...SITE_SCRIPTS.map((name) => `/assets/${name}.js`),
    ])
      expect(written, path).toContain(servedFrom(path));
    // Not the demo: its checkout and dashboard need npm start's back-end.
    expect(written.filter((path) => path.startsWith('assets/'))).toEqual(['assets/claim.js', 'assets/console.js', 'assets/portal.js']);
    expect(written.filter((path) => path.endsWith('.html'))).toEqual([
      'admin/bordereaux/index.html',
      'admin/claims/index.html',
      'admin/index.html',
      'claim/index.html',
      'portal/index.html',
    ]);
    expect(readFileSync(join(directory, 'admin/claims/index.html'), 'utf8')).toContain('<meta http-equiv="refresh" content="0; url=/admin/#claims">');
  });

  it('gives no page data of a server: the console reads /config.json at start, the claim page names no shop (the claim link does)', () => {
    const pages = sitePages();
    expect(pages['admin/index.html']).not.toContain('id="page-data"');
    expect(pages['admin/index.html']).toContain('<script src="/assets/console.js"></script>');
    expect(pages['claim/index.html']).toContain('<script type="application/json" id="page-data">{"shop":null}</script>');
  });

  it('ships every locale file the widget and the claim page name, next to /widget.js, and no English one (built in)', async () => {
    const directory = join(mkdtempSync(join(work, 'site-')), 'site');
    const written = await buildSite(directory, { reference: false });
    const build = localeBuild();
    const locales = written.filter((path) => path.startsWith('locales/'));
    expect(locales.sort()).toEqual([...Object.values(build.widget.files), ...Object.values(build.claim.files)].sort());
    expect(locales.filter((path) => path.includes('.en.'))).toEqual([]);
    for (const path of locales) expect(JSON.parse(readFileSync(join(directory, path), 'utf8'))).toEqual(JSON.parse(build.files[path]!));
    // The widget knows their names: a new catalogue is a new name in a new widget.
    const widget = await buildWidget();
    for (const path of Object.values(build.widget.files)) expect(widget).toContain(path);
    expect(widget).not.toContain('claim.'); // the claim page's keys stay out of the widget
    // At the edge they are files (lib/web.ts routes /locales/*: lib/web-locales.test.ts), never a page's index.html.
    for (const path of locales) expect(servedFrom(`/${path}`)).toBe(path);
  });
});
