import { createHash } from 'node:crypto';

/**
 * The security headers of every HTML page `npm start` serves: a Content-Security-Policy that lets
 * in only this origin's scripts and the page's own inline `<script>` blocks by their SHA-256 (so
 * an injected script runs nowhere), no framing (`frame-ancestors 'none'`: no clickjacking of the
 * operator's decisions), no plugins, no `<base>` tricks; `nosniff` and a Referrer-Policy that
 * sends no path (a page's URL can hold an order number). Styles may be inline (the pages style
 * elements by attribute); a style cannot run code. The widget script and the API keep their own
 * headers, so a merchant's page that embeds the widget is not bound by these.
 */
/** An inline script: `<script>` or `<script type="module">` with its code (one with `src` is the origin's own file). */
export const INLINE_SCRIPT = /<script(?: type="module")?>([\s\S]*?)<\/script>/g;

export function pageSecurityHeaders(html: string): Record<string, string> {
  const hashes = [...html.matchAll(INLINE_SCRIPT)].map(([, code]) => `'sha256-${createHash('sha256').update(code!, 'utf8').digest('base64')}'`);
  const policy = [
    "default-src 'self'",
    `script-src 'self' ${hashes.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'content-security-policy': policy,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-frame-options': 'DENY',
  };
}
