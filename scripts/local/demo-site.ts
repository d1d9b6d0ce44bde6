import { formatMoney } from '../../widget/src/offer.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NewClientKeys } from '#shared/clients/manage-clients.js';
import { Webhook } from 'standardwebhooks';
import * as v from 'valibot';
import { AppError } from '#shared/platform/errors.js';
import { parseJsonBody } from '#shared/platform/http/json-body.js';
import { parseInput } from '#shared/platform/http/validation.js';
import { WEBHOOK_ENDPOINT_ID } from '#shared/webhooks/schemas.js';
import { buildPageScripts, buildWidget } from '../../widget/build.js';
import { LOCALE_FILE_HEADERS, localeBuild } from '../../widget/locale-files.js';
import { checkoutPage } from '../../widget/pages/checkout-page.js';
import { claimPage } from '../../widget/pages/claim-page.js';
import { consolePage } from '../../widget/pages/console-page.js';
import { portalPage } from '../../widget/pages/portal-page.js';
import type { PagesConfig } from '../../widget/pages/scripts/sign-in.js';
import { dashboardPage } from '../../widget/pages/dashboard-page.js';
import { FAVICON_SVG } from '../../widget/pages/favicon.js';
import { PAGE_SCRIPTS, pageScriptPath } from '../../widget/pages/page-kit.js';
import type { StaticRoute } from './local-gateway.js';
import { PAGES_CLIENT_ID, pagesRedirectUris } from './local-oidc.js';
import { buildApiReference } from '../api-reference.js';
import { apiReferenceSecurityHeaders, pageSecurityHeaders } from './page-headers.js';

/**
 * Only this server's own pages may use the demo: the Host must be the server's own (a
 * DNS-rebinding page reaches it under a name of its own), and orders must be posted as JSON from
 * its origin (a cross-site form sends another Origin, or none, and cannot send JSON).
 */
function sameOriginOnly(route: StaticRoute, ownHosts: string[], { post = false } = {}): StaticRoute {
  return async (req, body) => {
    const host = req.headers.host ?? '';
    if (!ownHosts.includes(host)) throw new AppError(403, 'invalid_request_error', 'forbidden_host', `The demo answers only on ${ownHosts.join(' and ')}.`);
    if (post && req.headers.origin !== `http://${host}`)
      throw new AppError(403, 'invalid_request_error', 'forbidden_origin', 'The demo back-end takes orders only from its own checkout page.');
    return route(req, body);
  };
}

/**
 * The demo checkout's order, read with the API's own body rules; only what the demo itself uses is
 * checked here (the API it forwards the order to checks the rest).
 */
const DemoOrder = v.looseObject({
  token: v.optional(v.pipe(v.string(), v.minLength(1))),
  order_number: v.pipe(v.string(), v.minLength(1), v.maxLength(255)),
  currency: v.string(),
  items: v.pipe(v.array(v.unknown()), v.minLength(1)),
});
const parseOrder = (contentType: string | undefined, body: string) => parseInput(DemoOrder, parseJsonBody(contentType, body));
/** The dashboard's "Send test event": one of the demo client's endpoints, by an id that can name nothing else. */
const DemoWebhookTest = v.strictObject({ endpoint_id: v.pipe(v.string(), v.regex(WEBHOOK_ENDPOINT_ID, 'must be a webhook endpoint id')) });

/** The operator pages' old addresses before the console, sent on to its sections. */
export const CONSOLE_REDIRECTS = { '/admin/claims': '/admin/#claims', '/admin/bordereaux': '/admin/#bordereaux' } as const;

/**
 * npm start's /config.json: the local OpenID Provider's endpoints, from its discovery document, its
 * pages' client and redirect URIs on this server, and the API same-origin; the shape lib/web.ts
 * writes at deploy time with the Cognito user pool's.
 */
export async function localPagesConfig(issuer: string, pagesOrigin: string): Promise<PagesConfig> {
  const res = await fetch(new URL('/.well-known/openid-configuration', issuer));
  if (!res.ok) throw new Error(`the sign-in's discovery document answered ${res.status}`);
  const discovery = (await res.json()) as { issuer: string; authorization_endpoint: string; token_endpoint: string; end_session_endpoint: string };
  return {
    issuer: discovery.issuer,
    client_id: PAGES_CLIENT_ID,
    authorization_endpoint: discovery.authorization_endpoint,
    token_endpoint: discovery.token_endpoint,
    end_session_endpoint: discovery.end_session_endpoint,
    redirect_uris: pagesRedirectUris(pagesOrigin),
    scope: 'openid email',
    api_base: '/api/v2',
  };
}

/** `npm run docs:build`'s page, naming this server, built once per start (about a second) when /docs is first asked for. */
let reference: Promise<string> | undefined;
const apiReference = (serverUrl: string): Promise<string> =>
  (reference ??= buildApiReference({ serverUrl }).catch((err: unknown) => {
    reference = undefined; // a failed build is tried again on the next ask
    throw err;
  }));

/**
 * The non-API pages of `npm start`: the widget script, the demo checkout and its tiny back-end
 * (which talks to the API exactly as a merchant's back-end would, with the demo client's access
 * token), and the conversion dashboard. Local only; nothing here is deployed.
 */
export function demoSiteRoutes({ baseUrl, demo }: { baseUrl: string; demo: NewClientKeys }): Record<string, StaticRoute> {
  let token: { value: string; expires: number } | undefined;
  async function accessToken(): Promise<string> {
    if (token && token.expires > Date.now() + 30_000) return token.value;
    const res = await fetch(`${baseUrl}/api/v2/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ public_key: demo.public_key, secret_key: demo.secret_key }),
    });
    const body = (await res.json()) as { token: string; expires_in: number };
    token = { value: body.token, expires: Date.now() + body.expires_in * 1000 };
    return token.value;
  }
  // The staff sign-in's issuer (npm start's OpenID Provider, started before these routes): the pages exchange their code at its token endpoint.
  const issuer = process.env.STAFF_ISSUER;
  // The sign-in's token endpoint, and the local S3 that the claim page posts evidence to.
  const connectSources = [...(issuer ? [new URL(issuer).origin] : []), ...(process.env.S3_ENDPOINT ? [new URL(process.env.S3_ENDPOINT).origin] : [])];
  let pagesConfig: Promise<PagesConfig> | undefined;
  const html = (body: string, security = pageSecurityHeaders({ connectSources })) => ({
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8', ...security },
    body,
  });
  const icon = {
    status: 200,
    headers: { 'content-type': 'image/svg+xml', 'cache-control': 'max-age=86400', 'x-content-type-options': 'nosniff' },
    body: FAVICON_SVG,
  };
  const json = (status: number, body: unknown) => ({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const redirect = (location: string) => ({ status: 302, headers: { location, 'cache-control': 'no-store' }, body: '' });
  const { port } = new URL(baseUrl);
  const ownHosts = [`localhost:${port}`, `127.0.0.1:${port}`];

  // The demo receiver: an endpoint of the demo client, registered at start, which verifies each
  // delivery as a merchant would (standardwebhooks) and keeps the last 20. It listens on a port of
  // its own on 127.0.0.1: the API's own port takes no webhooks (npm start refuses it as a URL).
  const received: { id: string; type: string; verified: boolean }[] = [];
  let endpoint: { id: string; secret: string } | undefined;
  const receiverServer = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let verified = false;
      let event: { id?: string; type?: string } = {};
      try {
        if (req.method !== 'POST' || req.url !== '/demo/webhooks') throw new Error('not the receiver');
        event = new Webhook(endpoint?.secret ?? 'whsec_').verify(Buffer.concat(chunks).toString('utf8'), req.headers as Record<string, string>) as typeof event;
        verified = true;
      } catch {
        // recorded as unverified below
      }
      received.push({ id: String(req.headers['webhook-id'] ?? ''), type: String(event.type ?? 'unverified'), verified });
      if (received.length > 20) received.shift();
      res.writeHead(verified ? 200 : 400, { 'content-type': 'application/json' }).end(JSON.stringify({ received: verified }));
    });
  });
  receiverServer.unref(); // it never keeps a process alive on its own
  const receiver = new Promise<number>((resolve, reject) => {
    receiverServer.once('error', reject);
    receiverServer.listen(0, '127.0.0.1', () => resolve((receiverServer.address() as AddressInfo).port));
  })
    .then(async (receiverPort) => {
      const res = await fetch(`${baseUrl}/api/v2/webhook_endpoints`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `JWT ${await accessToken()}` },
        body: JSON.stringify({ url: `http://127.0.0.1:${receiverPort}/demo/webhooks`, description: 'npm start demo receiver' }),
      });
      endpoint = (await res.json()) as { id: string; secret: string };
      return endpoint;
    })
    .catch(() => undefined);
  const api = async (path: string, init: RequestInit = {}) =>
    fetch(`${baseUrl}${path}`, { ...init, headers: { ...init.headers, authorization: `JWT ${await accessToken()}` } });

  const pages: Record<string, StaticRoute> = {
    'GET /': () => html(checkoutPage(demo.public_key)),
    'GET /dashboard': () => html(dashboardPage()),
    'GET /claim': () => html(claimPage(demo.client_id)),
    'GET /admin/': () => html(consolePage()),
    'GET /admin': () => redirect('/admin/'),
    'GET /portal/': () => html(portalPage()),
    'GET /portal': () => redirect('/portal/'),
    ...Object.fromEntries(Object.entries(CONSOLE_REDIRECTS).map(([from, to]): [string, StaticRoute] => [`GET ${from}`, () => redirect(to)])),
    // The pages' sign-in settings (deployed: written by lib/web.ts), read by the console and the portal at start.
    'GET /config.json': async () => {
      if (!issuer) return json(404, { error: { type: 'invalid_request_error', code: 'not_found', message: 'No staff sign-in runs here.' } });
      pagesConfig ??= localPagesConfig(issuer, baseUrl).catch((err: unknown) => {
        pagesConfig = undefined; // asked again next time
        throw err;
      });
      return {
        status: 200,
        headers: { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' },
        body: JSON.stringify(await pagesConfig),
      };
    },
    // The API reference, built from openapi.yaml by Redocly (with its scripts inlined: nothing from a CDN) on first ask; the one page whose CSP lets in inline scripts, by hash.
    'GET /docs': async () => {
      const reference = await apiReference(baseUrl);
      return html(reference, apiReferenceSecurityHeaders(reference));
    },
    // The pages' icon (widget/pages/favicon.ts); /favicon.ico for a page that names none, such as /docs.
    'GET /favicon.svg': () => icon,
    'GET /favicon.ico': () => icon,
    'GET /widget.js': async () => ({
      status: 200,
      headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' },
      body: await buildWidget(),
    }),
    // The widget's and the claim page's catalogues but English (built in), under the names the bundles know (widget/locale-files.ts).
    ...Object.fromEntries(
      Object.entries(localeBuild().files).map(([path, body]): [string, StaticRoute] => [
        `GET /${path}`,
        () => ({ status: 200, headers: { ...LOCALE_FILE_HEADERS }, body }),
      ]),
    ),
    // Each page's own script (widget/pages/scripts/), bundled on first ask: the pages run no inline script.
    ...Object.fromEntries(
      PAGE_SCRIPTS.map((name): [string, StaticRoute] => [
        `GET ${pageScriptPath(name)}`,
        async () => ({
          status: 200,
          headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' },
          body: (await buildPageScripts())[name],
        }),
      ]),
    ),

    // The merchant's back-end: always sends the widget's token. Without one (the widget could not
    // reach the API) it does not call the API at all: an order without a token is an opt-in
    // (spec rule 2), which the customer did not choose.
    'POST /demo/place-order': async (req, body) => {
      const order = parseOrder(req.headers['content-type'], body);
      if (!order.token)
        return json(200, {
          outcome: 'placed_without_protection',
          summary: `Order ${order.order_number} placed. Refund protection was not available, so none was added.`,
        });
      const res = await fetch(`${baseUrl}/api/v2/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `JWT ${await accessToken()}`, 'idempotency-key': `demo-${order.order_number}` },
        body: JSON.stringify(order),
      });
      if (res.status === 204) return json(200, { outcome: 'opted_out', summary: `Order ${order.order_number} placed. Opt-out logged (204): no protection.` });
      const answer = (await res.json()) as {
        currency?: string;
        policies?: { policy_number: string; status: string; premium: string; item: { name: string } }[];
        error?: { message: string };
      };
      if (res.status !== 201 || !answer.policies)
        return json(200, { outcome: 'failed', summary: `The API answered ${res.status}: ${answer.error?.message ?? 'unexpected answer'}` });
      const lines = answer.policies.map(
        (p) => `  ${p.policy_number}  ${p.item.name}  premium ${formatMoney(p.premium, answer.currency ?? order.currency, 'en-US')}  ${p.status}`,
      );
      return json(200, { outcome: 'protected', summary: `Order ${order.order_number} placed with refund protection (201):\n${lines.join('\n')}` });
    },

    // The ten most recent orders with their policies' statuses, for the dashboard.
    'GET /demo/orders': async () => {
      const res = await fetch(`${baseUrl}/api/v2/orders?limit=10`, { headers: { authorization: `JWT ${await accessToken()}` } });
      return json(res.status, await res.json());
    },

    // This month's statement, for the dashboard.
    'GET /demo/statement': async () => {
      const res = await api(`/api/v2/statements/${new Date().toISOString().slice(0, 7)}`);
      return json(res.status, await res.json());
    },

    // Recent webhook events with their attempts, and what the demo receiver got, for the dashboard.
    'GET /demo/events': async () => {
      await receiver;
      const list = (await (await api('/api/v2/events?limit=10')).json()) as { data?: { id: string }[] };
      const events = await Promise.all((list.data ?? []).map(async (event) => (await (await api(`/api/v2/events/${event.id}`)).json()) as unknown));
      return json(200, { data: events, received: received.slice(-20).reverse() });
    },

    // The demo client's webhook endpoints, and a test event to one of them, for the dashboard.
    'GET /demo/webhook-endpoints': async () => {
      await receiver;
      const res = await api('/api/v2/webhook_endpoints');
      return json(res.status, await res.json());
    },
    'POST /demo/webhook-test': async (req, body) => {
      const { endpoint_id: id } = parseInput(DemoWebhookTest, parseJsonBody(req.headers['content-type'], body));
      const res = await api(`/api/v2/webhook_endpoints/${id}/test`, { method: 'POST' });
      return json(res.status, await res.json());
    },

    'GET /demo/metrics': async (req) => {
      const query = new URL(req.url ?? '/', 'http://localhost').search;
      const res = await fetch(`${baseUrl}/api/v2/metrics/conversion${query}`, { headers: { authorization: `JWT ${await accessToken()}` } });
      return json(res.status, await res.json());
    },
  };
  return Object.fromEntries(Object.entries(pages).map(([key, route]) => [key, sameOriginOnly(route, ownHosts, { post: key.startsWith('POST ') })]));
}
