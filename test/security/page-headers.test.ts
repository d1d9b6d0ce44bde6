import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { demoSiteRoutes } from '../../scripts/local/demo-site.js';
import { INLINE_SCRIPT } from '../../scripts/local/page-headers.js';
import { useTestServer } from '../support/server.js';

/**
 * Every HTML page npm start serves carries a Content-Security-Policy that runs only its own
 * scripts (inline ones by hash) and refuses to be framed, with nosniff and a Referrer-Policy. The
 * browser suites prove the pages and the widget still work under it, with axe at 0 violations.
 */
const server = useTestServer({ staticRoutes: demoSiteRoutes });
const PAGES = ['/', '/dashboard', '/claim', '/admin/claims', '/docs'];

describe('the pages’ security headers', () => {
  it('serves the API reference built from openapi.yaml at /docs, with nothing from a CDN', async () => {
    const res = await fetch(`${server.baseUrl}/docs`);
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(html).toContain('Order Protection API');
    expect(html).toContain('/api/v2/orders/{id}/cancel');
    expect(html).not.toMatch(/<script[^>]+src="https?:/);
  }, 60_000);

  it.each(PAGES)('%s: a CSP with frame-ancestors none and no unhashed inline script, nosniff, a Referrer-Policy', async (path) => {
    const res = await fetch(`${server.baseUrl}${path}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const csp = res.headers.get('content-security-policy') ?? '';
    const directives = Object.fromEntries(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values]),
    );
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(directives['script-src']).not.toContain("'unsafe-inline'");
    expect(directives['script-src']).not.toContain("'unsafe-eval'");
    const inline = [...html.matchAll(INLINE_SCRIPT)].map(([, code]) => `'sha256-${createHash('sha256').update(code!).digest('base64')}'`);
    expect(inline.length).toBeGreaterThan(0);
    expect(directives['script-src']).toEqual(["'self'", ...inline]);
    // No handler attributes, which no hash could allow.
    expect(html).not.toMatch(/<[^>]+\son[a-z]+=/i);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('leaves the widget script to any merchant page: no CSP or framing rule of the pages on it, served as JavaScript with nosniff-safe type', async () => {
    const res = await fetch(`${server.baseUrl}/widget.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(res.headers.get('content-security-policy')).toBeNull();
  });
});
