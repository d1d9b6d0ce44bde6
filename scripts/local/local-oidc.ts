import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { createMemoryAdapter } from 'oidc-provider/lib/adapters/memory_adapter.js';
import { GROUPS_CLAIM, MERCHANT_CLIENT_CLAIM, STAFF_ROLES } from '#shared/platform/staff.js';
import type { StaffFile, StaffUser } from '#shared/identity/staff-file.js';

/**
 * npm start's OpenID Provider: the stand-in for the deployed Cognito user pool, a real one (the npm
 * package `oidc-provider`) on 127.0.0.1. The pages sign in against it with the authorization code
 * flow and PKCE; its access tokens are JWTs signed with its own key, carrying the claims Cognito's
 * do (`token_use`, `client_id`, `cognito:groups`, and `email` and `merchant_client_id`, which the
 * deployed pre-token trigger adds), so the same code verifies and reads both.
 */

/** A person who may sign in, and `.local/staff.json`'s format (api.md): shared/identity/staff-file.ts, where the staff directory writes them. */
export type { StaffFile, StaffUser };

/** The pages' client id, as the deployed pages client's id is written to their config. */
export const PAGES_CLIENT_ID = 'order-protection-pages';
/** An access token lives an hour (Cognito's default); the pages hold it in memory and sign in again after. */
export const ACCESS_TOKEN_SECONDS = 3600;
/** A login form is answered within this long. */
const INTERACTION_SECONDS = 600;
/** The resource the access tokens are for (a resource indicator, so that oidc-provider issues JWTs). */
const API_RESOURCE = 'urn:order-protection:api';
/** A login form's body is small: e-mail and password. */
const MAX_FORM_BYTES = 4096;

/** The redirect URIs of the pages' client: the console and the portal, on the pages' origin. */
export const pagesRedirectUris = (pagesOrigin: string) => ({ console: `${pagesOrigin}/admin/`, portal: `${pagesOrigin}/portal/` });

/** One demo user per group, with a password of its own (new at every start); the merchant user is bound to the demo client. */
export function demoUsers(demoClientId: string): StaffUser[] {
  return STAFF_ROLES.map((group) => ({
    sub: randomUUID(),
    email: `${group}@${group === 'merchant' ? 'demo-shop' : 'insurer'}.example`,
    password: randomBytes(12).toString('base64url'),
    groups: [group],
    ...(group === 'merchant' ? { client_id: demoClientId } : {}),
  }));
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
const samePassword = (given: string, expected: string) => timingSafeEqual(digest(given), digest(expected));

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The sign-in page: a form a person fills in, or a script posts (e-mail and password). */
function loginPage(uid: string, clientName: string, error?: string, email = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · Order Protection</title>
<link rel="icon" href="data:,">
<style>
  :root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; background: #f4f6f8; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; }
  main { box-sizing: border-box; width: min(24rem, calc(100vw - 2rem)); background: #fff; border: 1px solid #d0d7de; border-radius: 12px; padding: 2rem; box-shadow: 0 8px 24px rgba(140,149,159,.2); }
  h1 { font-size: 1.35rem; margin: 0 0 .25rem; }
  p.lead { margin: 0 0 1.5rem; color: #57606a; }
  label { display: block; font-weight: 600; margin: 1rem 0 .35rem; }
  input { box-sizing: border-box; width: 100%; padding: .6rem .7rem; font-size: 1rem; border: 1px solid #8c959f; border-radius: 6px; }
  input:focus-visible, button:focus-visible { outline: 3px solid #0969da; outline-offset: 2px; }
  button { margin-top: 1.5rem; width: 100%; padding: .7rem; font-size: 1rem; font-weight: 600; color: #fff; background: #0a5c36; border: 0; border-radius: 6px; cursor: pointer; }
  button:hover { background: #084a2c; }
  .error { margin: 0 0 1rem; padding: .6rem .8rem; border-radius: 6px; background: #ffebe9; color: #82071e; border: 1px solid #ff8182; }
  .note { margin-top: 1.25rem; font-size: .875rem; color: #57606a; }
</style>
</head>
<body>
<main>
  <h1>Sign in</h1>
  <p class="lead">to ${escapeHtml(clientName)}</p>
  ${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
  <form method="post" action="/interaction/${escapeHtml(uid)}/login" autocomplete="on">
    <label for="email">E-mail</label>
    <input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(email)}" ${error ? '' : 'autofocus'}>
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required ${error ? 'autofocus' : ''}>
    <button type="submit">Sign in</button>
  </form>
  <p class="note">npm start's local sign-in: the demo accounts are in .local/staff.json.</p>
</main>
</body>
</html>`;
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) throw new Error('form too large');
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export interface LocalOidc {
  issuer: string;
  clientId: string;
  redirectUris: { console: string; portal: string };
  server: Server;
  stop(): Promise<void>;
}

export interface LocalOidcOptions {
  /** 0: any free port. */
  port: number;
  /** The pages' origin (npm start's base URL): the redirect URIs and the origin allowed to call the token endpoint. */
  pagesOrigin: string;
  /** The users who may sign in, read at each sign-in (so users added while it runs can sign in at once). */
  users: () => Promise<StaffUser[]>;
}

/** Starts the provider on 127.0.0.1 with a new signing key and cookie keys. */
export async function startLocalOidc(options: LocalOidcOptions): Promise<LocalOidc> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const issuer = `http://127.0.0.1:${port}`;
  const redirectUris = pagesRedirectUris(options.pagesOrigin);
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: randomUUID(), use: 'sig', alg: 'RS256' };
  const userBySub = async (sub: string) => (await options.users()).find((user) => user.sub === sub);

  const configuration: Configuration = {
    clients: [
      {
        client_id: PAGES_CLIENT_ID,
        client_name: 'Order Protection',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: [redirectUris.console, redirectUris.portal],
        post_logout_redirect_uris: [redirectUris.console, redirectUris.portal],
      },
    ],
    jwks: { keys: [signingKey] },
    // Sessions, codes and grants in memory, as npm start keeps everything (DynamoDB Local too): its
    // own adapter, named, so that it does not print its warning meant for deployments at each start.
    adapter: createMemoryAdapter(0),
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    // Cognito's JWKS path, so that the verifier finds both issuers' keys the same way.
    routes: { jwks: '/.well-known/jwks.json' },
    pkce: { required: () => true },
    scopes: ['openid', 'email'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    ttl: {
      AccessToken: ACCESS_TOKEN_SECONDS,
      Interaction: INTERACTION_SECONDS,
      Session: 8 * 3600,
      Grant: 8 * 3600,
      IdToken: ACCESS_TOKEN_SECONDS,
      AuthorizationCode: 60,
    },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: true, logoutSource },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => API_RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: 'openid email',
          accessTokenFormat: 'jwt',
          accessTokenTTL: ACCESS_TOKEN_SECONDS,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    interactions: { url: (_ctx: KoaContextWithOIDC, interaction) => `/interaction/${interaction.uid}` },
    // The token endpoint is called from the pages' origin (the code exchange): only that origin.
    clientBasedCORS: (_ctx, origin) => origin === options.pagesOrigin,
    findAccount: async (_ctx, sub) => {
      const user = await userBySub(sub);
      return user && { accountId: sub, claims: () => ({ sub, email: user.email, email_verified: true }) };
    },
    // The claims a Cognito access token carries, and those the deployed pre-token trigger adds.
    extraTokenClaims: async (_ctx, token) => {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const user = await userBySub(token.accountId);
      if (!user) return undefined;
      return { token_use: 'access', email: user.email, [GROUPS_CLAIM]: user.groups, ...(user.client_id ? { [MERCHANT_CLIENT_CLAIM]: user.client_id } : {}) };
    },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in error</title></head><body><main><h1>Sign-in failed</h1><p>${escapeHtml(String(out.error_description ?? out.error))}</p></main></body></html>`;
    },
  };
  const provider = new Provider(issuer, configuration);
  const callback = provider.callback();

  const htmlHeaders = {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    // The form posts here, then the flow redirects to the pages: form-action allows both (Chromium checks redirects too).
    'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self' ${options.pagesOrigin}; frame-ancestors 'none'; base-uri 'none'`,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };

  async function interaction(req: IncomingMessage, res: ServerResponse, uid: string, action: string | undefined): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) throw new Error('interaction mismatch');
    const clientName = 'Order Protection';
    if (req.method === 'GET' && !action) {
      res.writeHead(200, htmlHeaders).end(loginPage(uid, clientName));
      return;
    }
    if (req.method !== 'POST' || action !== 'login') {
      res.writeHead(405, { allow: 'GET, POST' }).end();
      return;
    }
    const form = await readForm(req);
    const email = (form.get('email') ?? '').trim().toLowerCase();
    const password = form.get('password') ?? '';
    const user = (await options.users()).find((candidate) => candidate.email.toLowerCase() === email);
    // The same answer for an unknown e-mail and a wrong password: the form tells nobody who has an account.
    if (!user || !samePassword(password, user.password)) {
      res.writeHead(401, htmlHeaders).end(loginPage(uid, clientName, 'The e-mail or the password is not right.', email));
      return;
    }
    // The pages are the operator's own client: no consent screen; the grant holds what they asked for.
    const grant = new provider.Grant({ accountId: user.sub, clientId: String(details.params.client_id) });
    grant.addOIDCScope('openid email');
    grant.addResourceScope(API_RESOURCE, 'openid email');
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { login: { accountId: user.sub }, consent: { grantId } }, { mergeWithLastSubmission: false });
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const match = /^\/interaction\/([\w-]+)(?:\/(\w+))?$/.exec(new URL(req.url ?? '/', issuer).pathname);
    if (!match) {
      void callback(req, res);
      return;
    }
    interaction(req, res, match[1]!, match[2]).catch(() => {
      if (!res.headersSent)
        res
          .writeHead(400, htmlHeaders)
          .end(loginPage(match[1]!, 'Order Protection', 'This sign-in has expired or is not valid: go back to the page and sign in again.'));
    });
  });

  return {
    issuer,
    clientId: PAGES_CLIENT_ID,
    redirectUris,
    server,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The sign-out confirmation, in the sign-in page's look (oidc-provider renders its form inside). */
function logoutSource(ctx: KoaContextWithOIDC, form: string): void {
  ctx.type = 'html';
  ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign out · Order Protection</title><link rel="icon" href="data:,">
<style>:root{font-family:system-ui,sans-serif;color:#1f2328;background:#f4f6f8}body{margin:0;min-height:100vh;display:grid;place-items:center}main{box-sizing:border-box;width:min(24rem,calc(100vw - 2rem));background:#fff;border:1px solid #d0d7de;border-radius:12px;padding:2rem}h1{font-size:1.35rem;margin:0 0 1.5rem}button{width:100%;padding:.7rem;font-size:1rem;font-weight:600;border-radius:6px;margin-top:.5rem;cursor:pointer}button[value=yes]{color:#fff;background:#0a5c36;border:0}button:not([value]){background:#fff;border:1px solid #8c959f;color:#1f2328}button:focus-visible{outline:3px solid #0969da;outline-offset:2px}</style>
</head><body><main><h1>Sign out of Order Protection?</h1>${form}
<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Sign out</button>
<button type="submit" form="op.logoutForm">Stay signed in</button></main></body></html>`;
}
