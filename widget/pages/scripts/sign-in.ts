import * as oauth from 'oauth4webapi';

/**
 * The pages' sign-in (the operator console under /admin/, the merchant portal under /portal/), in
 * the browser, with `oauth4webapi`: OpenID Connect's authorization code flow with PKCE against the
 * issuer /config.json names (npm start's oidc-provider on 127.0.0.1, or the deployed Cognito user
 * pool), as a public client (no secret).
 *
 * - The code verifier, the state and the place to come back to sit in sessionStorage for the round
 *   trip to the issuer only (they are removed as the code is exchanged); the TOKENS ARE HELD IN
 *   MEMORY ONLY, never in localStorage, sessionStorage or a cookie: a reload signs in again (the
 *   issuer's own session makes that a redirect, not a form).
 * - Sign-out forgets the token, then sends the person to the issuer's end-session endpoint with both
 *   Cognito's parameters (`client_id`, `logout_uri`) and OpenID's (`client_id`,
 *   `post_logout_redirect_uri`), back to the page, which asks them to sign in again.
 * - Plain http is allowed for the issuer only when it is on this machine (npm start's provider).
 *
 * Usage: `const session = await startSignIn(await loadPagesConfig(), 'console')`; `session` is
 * undefined while the page is on its way to the issuer; else `session.user`, `session.token()` (for
 * `Authorization: Bearer`), `session.signOut()`.
 */

/** What /config.json holds (written at deploy time by lib/web.ts, served by npm start from its provider). */
export interface PagesConfig {
  issuer: string;
  client_id: string;
  authorization_endpoint: string;
  token_endpoint: string;
  end_session_endpoint: string;
  redirect_uris: { console: string; portal: string };
  scope: string;
  /** The API's base path, same-origin: `/api/v2`. */
  api_base: string;
}

/** Which of the pages signs in: its redirect URI is `config.redirect_uris[app]`. */
export type PagesApp = 'console' | 'portal';

/** Who signed in, read from the access token's claims (the API checks the token itself; the page only shows and routes by them). */
export interface SignedInUser {
  sub: string;
  email: string;
  /** `cognito:groups`: claims, finance, admin, merchant. */
  groups: string[];
  /** A merchant user's one client. */
  merchant_client_id?: string;
}

export interface Session {
  readonly config: PagesConfig;
  readonly user: SignedInUser;
  /** The access token (a JWT) for `Authorization: Bearer`; throws once signed out. */
  token(): string;
  /** When the access token stops being accepted (ms since the epoch). */
  readonly expiresAt: number;
  /** Signs in again (a redirect to the issuer, which knows the person): for an expired token. */
  renew(): Promise<void>;
  /** Forgets the token and ends the issuer's session; the issuer sends the person back to the page. */
  signOut(): void;
}

/** A failed sign-in, in words for the page's alert. */
export class SignInError extends Error {}

/** sessionStorage's key of the round trip in progress (verifier, state, where to come back to); never a token. */
const pendingKey = (app: PagesApp) => `order-protection.sign-in.${app}`;
interface Pending {
  verifier: string;
  state: string;
  /** The page's hash when sign-in began (a console section), restored after. */
  hash: string;
}

/** The pages' config, fetched at start (never cached: a deploy changes it). */
export async function loadPagesConfig(path = '/config.json'): Promise<PagesConfig> {
  let res: Response;
  try {
    res = await fetch(path, { cache: 'no-store', headers: { accept: 'application/json' } });
  } catch {
    throw new SignInError('The sign-in settings could not be loaded.');
  }
  if (!res.ok) throw new SignInError(`The sign-in settings could not be loaded (${res.status}).`);
  return (await res.json()) as PagesConfig;
}

/** http only for an issuer on this machine (npm start's); anything else must be https. */
const isLocal = (issuer: string): boolean => {
  const { protocol, hostname } = new URL(issuer);
  return protocol === 'http:' && (hostname === '127.0.0.1' || hostname === 'localhost');
};

/** The issuer's metadata as /config.json gives it (no discovery request: Cognito's lives on another host). */
const authorizationServer = (config: PagesConfig): oauth.AuthorizationServer => ({
  issuer: config.issuer,
  authorization_endpoint: config.authorization_endpoint,
  token_endpoint: config.token_endpoint,
  end_session_endpoint: config.end_session_endpoint,
});

/** A JWT's payload, unverified (the API verifies it; the page reads who it is for). */
function claimsOf(jwt: string): Record<string, unknown> {
  const part = jwt.split('.')[1] ?? '';
  const base64 = part
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(part.length / 4) * 4, '=');
  try {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** `cognito:groups` as an array (API Gateway flattens it to "[a b]"; tokens carry an array). */
function groupsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((group): group is string => typeof group === 'string');
  if (typeof value === 'string')
    return value
      .replace(/^\[|\]$/g, '')
      .split(/[\s,]+/)
      .filter(Boolean);
  return [];
}

function userOf(accessToken: string, idClaims: Record<string, unknown> | undefined): SignedInUser {
  const claims = claimsOf(accessToken);
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const merchant = text(claims['merchant_client_id']);
  return {
    sub: text(claims['sub']) || text(idClaims?.['sub']),
    email: text(claims['email']) || text(idClaims?.['email']) || text(claims['username']),
    groups: groupsOf(claims['cognito:groups']),
    ...(merchant ? { merchant_client_id: merchant } : {}),
  };
}

/** Sends the browser to the issuer's authorization endpoint; the promise never settles (the page is leaving). */
async function redirectToIssuer(config: PagesConfig, app: PagesApp): Promise<never> {
  const pending: Pending = { verifier: oauth.generateRandomCodeVerifier(), state: oauth.generateRandomState(), hash: location.hash };
  sessionStorage.setItem(pendingKey(app), JSON.stringify(pending));
  const url = new URL(config.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id: config.client_id,
    redirect_uri: config.redirect_uris[app],
    response_type: 'code',
    scope: config.scope,
    state: pending.state,
    code_challenge: await oauth.calculatePKCECodeChallenge(pending.verifier),
    code_challenge_method: 'S256',
  }).toString();
  location.assign(url.href);
  return new Promise<never>(() => undefined);
}

function readPending(app: PagesApp): Pending | undefined {
  const text = sessionStorage.getItem(pendingKey(app));
  sessionStorage.removeItem(pendingKey(app)); // one use only
  if (!text) return undefined;
  try {
    return JSON.parse(text) as Pending;
  } catch {
    return undefined;
  }
}

/**
 * Signs the person in: back from the issuer (`?code&state` on the page's URL), exchanges the code
 * and answers the session; otherwise sends the browser to the issuer and never settles. A refusal
 * from the issuer, or a code that cannot be exchanged, throws a SignInError.
 */
export async function startSignIn(config: PagesConfig, app: PagesApp): Promise<Session> {
  const as = authorizationServer(config);
  const client: oauth.Client = { client_id: config.client_id };
  const insecure = isLocal(config.issuer) ? { [oauth.allowInsecureRequests]: true } : {};
  const here = new URL(location.href);
  const returned = here.searchParams.has('state') && (here.searchParams.has('code') || here.searchParams.has('error'));
  const pending = returned ? readPending(app) : undefined;
  if (!returned || !pending) return redirectToIssuer(config, app);

  // The code and state leave the address bar at once (a reload or a shared URL never carries them).
  history.replaceState(null, '', here.pathname + pending.hash);
  let tokens: oauth.TokenEndpointResponse;
  try {
    const params = oauth.validateAuthResponse(as, client, here.searchParams, pending.state);
    const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, config.redirect_uris[app], pending.verifier, insecure);
    tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
  } catch (err) {
    if (err instanceof oauth.AuthorizationResponseError) throw new SignInError(`The sign-in was refused: ${err.error_description ?? err.error}.`);
    throw new SignInError('The sign-in could not be completed. Reload the page to try again.');
  }
  let accessToken: string | undefined = tokens.access_token;
  const idClaims = oauth.getValidatedIdTokenClaims(tokens) as Record<string, unknown> | undefined;
  const expiresAt = Date.now() + (tokens.expires_in ?? 3600) * 1000;
  // Signing out in one tab signs out every tab of this page in the browser: each forgets its token
  // (an action after it is told "You are signed out."), not only the tab that was used.
  const signOuts = new BroadcastChannel(`order-protection-sign-out-${app}`);
  signOuts.onmessage = () => {
    accessToken = undefined;
  };
  return {
    config,
    user: userOf(accessToken, idClaims),
    expiresAt,
    token() {
      if (!accessToken) throw new SignInError('You are signed out.');
      return accessToken;
    },
    renew: () => redirectToIssuer(config, app),
    signOut() {
      accessToken = undefined;
      signOuts.postMessage('signed-out');
      const back = config.redirect_uris[app];
      const url = new URL(config.end_session_endpoint);
      url.search = new URLSearchParams({
        client_id: config.client_id,
        logout_uri: back, // Cognito's /logout
        post_logout_redirect_uri: back, // OpenID Connect RP-initiated logout (oidc-provider)
      }).toString();
      location.assign(url.href);
    },
  };
}
