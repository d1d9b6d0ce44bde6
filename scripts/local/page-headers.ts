import { createHash } from 'node:crypto';

/**
 * The security headers of every HTML page `npm start` serves: a Content-Security-Policy that runs
 * only this origin's script files (`script-src 'self'`: no inline script, so an injected one runs
 * nowhere; each page's script is its own file, widget/pages/scripts/, at /assets/<page>.js), no
 * framing (`frame-ancestors 'none'`: no clickjacking of the operator's decisions), no plugins, no
 * `<base>` tricks; `nosniff` and a Referrer-Policy that sends no path (a page's URL can hold an
 * order number). Styles may be inline (the pages style elements by attribute); a style cannot run
 * code. The widget script and the API keep their own headers, so a merchant's page that embeds the
 * widget is not bound by these. The one exception is the API reference (/docs): Redoc's bundle is
 * inlined in it, so apiReferenceSecurityHeaders lets in its inline scripts by their SHA-256.
 */
/** An inline script: `<script>` or `<script type="module">` with its code (one with `src` is the origin's own file). */
export const INLINE_SCRIPT = /<script(?: type="module")?>([\s\S]*?)<\/script>/g;

function securityHeaders(scriptSources: string[], connectSources: string[] = []): Record<string, string> {
  const policy = [
    "default-src 'self'",
    ["script-src 'self'", ...scriptSources].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    ["connect-src 'self'", ...connectSources].join(' '),
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

export interface PageSecurityOptions {
  /**
   * Origins the pages may fetch from besides their own: the sign-in's token endpoint (the console
   * and the portal exchange their code there). npm start: its OpenID Provider's origin
   * (`http://127.0.0.1:<port>`); deployed: the Cognito domain's origin.
   */
  connectSources?: readonly string[];
}

/** The pages' headers: their scripts are files of this origin, and none is inline; they fetch from their origin and `connectSources`. */
export const pageSecurityHeaders = (options: PageSecurityOptions = {}): Record<string, string> => securityHeaders([], [...(options.connectSources ?? [])]);

/** The API reference's headers: the pages' policy, plus Redoc's inline scripts of this HTML by their SHA-256. */
export function apiReferenceSecurityHeaders(html: string): Record<string, string> {
  return securityHeaders([...html.matchAll(INLINE_SCRIPT)].map(([, code]) => `'sha256-${createHash('sha256').update(code!, 'utf8').digest('base64')}'`));
}
