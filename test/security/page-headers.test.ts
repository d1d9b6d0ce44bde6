import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { demoSiteRoutes } from '../../scripts/local/demo-site.js';
import { INLINE_SCRIPT } from '../../scripts/local/page-headers.js';
import { useTestServer } from '../support/server.js';

/**
 * Every HTML page npm start serves carries a Content-Security-Policy that runs only its own
 * scripts and refuses to be framed, with nosniff and a Referrer-Policy. The pages run no inline
 * script at all (`script-src 'self'`): each page's script is its own file (widget/pages/scripts/,
 * served at /assets/<page>.js), and what the server gives it travels as a JSON data block. Only
 * the API reference (/docs, Redoc's inlined bundle) allows its inline scripts, by hash. The browser
 * suites prove the pages and the widget still work under it, with axe at 0 violations.
 */
const server = useTestServer({ staticRoutes: demoSiteRoutes });
/** Every page of npm start's own: its script is a file of its own (widget/pages/scripts/), no inline script. */
const OWN_SCRIPTS = ['/', '/dashboard', '/claim', '/admin/', '/portal/'];
/** The API reference alone lets in inline scripts (Redoc's inlined bundle), each by its SHA-256. */
const HASHED = ['/docs'];

async function page(path: string) {
  const res = await fetch(`${server.baseUrl}${path}`);
  expect(res.status).toBe(200);
  const html = await res.text();
  const csp = res.headers.get('content-security-policy') ?? '';
  const directives: Record<string, string[]> = Object.fromEntries(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );
  expect(directives['frame-ancestors']).toEqual(["'none'"]);
  expect(directives['object-src']).toEqual(["'none'"]);
  expect(directives['script-src']).not.toContain("'unsafe-inline'");
  expect(directives['script-src']).not.toContain("'unsafe-eval'");
  // No handler attributes, which no policy but 'unsafe-inline' could allow.
  expect(html).not.toMatch(/<[^>]+\son[a-z]+=/i);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  return { html, directives };
}

describe('the pages’ security headers', () => {
  it('serves the API reference built from openapi.yaml at /docs, with nothing from a CDN', async () => {
    const res = await fetch(`${server.baseUrl}/docs`);
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(html).toContain('Order Protection API');
    expect(html).toContain('/api/v2/orders/{id}/cancel');
    expect(html).not.toMatch(/<script[^>]+src="https?:/);
  }, 60_000);

  it.each(OWN_SCRIPTS)(
    "%s: script-src 'self' only, no inline script (its own served as JavaScript), frame-ancestors none, nosniff, a Referrer-Policy",
    async (path) => {
      const { html, directives } = await page(path);
      expect(directives['script-src']).toEqual(["'self'"]);
      expect([...html.matchAll(INLINE_SCRIPT)]).toEqual([]);
      // Every <script> is a file of this origin or a data block the browser does not run.
      const tags = [...html.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag);
      expect(tags.filter((tag) => tag !== '<script type="application/json" id="page-data">' && !/^<script src="\/[^/"][^"]*">$/.test(tag))).toEqual([]);
      const files = tags.flatMap((tag) => /^<script src="([^"]+)">$/.exec(tag)?.[1] ?? []);
      expect(files.some((file) => file.startsWith('/assets/'))).toBe(true);
      for (const file of files) {
        const res = await fetch(`${server.baseUrl}${file}`);
        expect([file, res.status, res.headers.get('content-type')]).toEqual([file, 200, 'text/javascript; charset=utf-8']);
        expect((await res.text()).length).toBeGreaterThan(0);
      }
    },
  );

  it.each(HASHED)('%s: a CSP with frame-ancestors none and no unhashed inline script, nosniff, a Referrer-Policy', async (path) => {
    const { html, directives } = await page(path);
    const inline = [...html.matchAll(INLINE_SCRIPT)].map(([, code]) => `'sha256-${createHash('sha256').update(code!).digest('base64')}'`);
    expect(inline.length).toBeGreaterThan(0);
    expect(directives['script-src']).toEqual(["'self'", ...inline]);
  });

  it('leaves the widget script to any merchant page: no CSP or framing rule of the pages on it, served as JavaScript with nosniff-safe type', async () => {
    const res = await fetch(`${server.baseUrl}/widget.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(res.headers.get('content-security-policy')).toBeNull();
  });

  it('answers HEAD on a page or a file as GET does, without the body (uptime checks and CDNs ask with HEAD)', async () => {
    for (const path of ['/widget.js', '/', '/claim', '/dashboard']) {
      const [get, head] = await Promise.all([fetch(`${server.baseUrl}${path}`), fetch(`${server.baseUrl}${path}`, { method: 'HEAD' })]);
      expect(head.status, path).toBe(200);
      expect(head.headers.get('content-type'), path).toBe(get.headers.get('content-type'));
      expect(await head.text(), path).toBe('');
      expect((await get.text()).length, path).toBeGreaterThan(0);
    }
    // The API's routes are API Gateway's, which routes no HEAD: a GET route still answers 405 to it.
    expect((await fetch(`${server.baseUrl}/api/v2/orders`, { method: 'HEAD' })).status).toBe(405);
  });
});
