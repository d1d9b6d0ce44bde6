import * as oauth from 'oauth4webapi';
import type { StaffFile, StaffUser } from '../../scripts/local/local-oidc.js';

/**
 * The staff sign-in without a browser: the authorization-code flow with PKCE against npm start's
 * OpenID Provider, its login form posted as a browser would (cookies carried by hand), then the
 * code exchanged, with the same library the pages use. Answers the access token (a JWT).
 */
export async function signInOverHttp(staff: StaffFile, user: Pick<StaffUser, 'email' | 'password'>, redirectUri = staff.redirect_uri): Promise<string> {
  const issuer = new URL(staff.issuer);
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { [oauth.allowInsecureRequests]: true }));
  const client: oauth.Client = { client_id: staff.client_id };
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const authorize = new URL(as.authorization_endpoint!);
  authorize.search = new URLSearchParams({
    client_id: staff.client_id,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid email',
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  }).toString();

  // Follow the provider's redirects by hand, keeping its cookies, until it sends us back to the pages.
  const cookies = new Map<string, string>();
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      cookies.set(name!.trim(), value.join('='));
    }
  };
  const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  let res = await fetch(authorize, { redirect: 'manual' });
  keep(res);
  const loginForm = new URL(res.headers.get('location')!, issuer);
  res = await fetch(loginForm, { headers: { cookie: cookieHeader() } });
  keep(res);
  const action = /<form method="post" action="([^"]+)"/.exec(await res.text())?.[1];
  if (!action) throw new Error(`no login form at ${loginForm.pathname} (${res.status})`);
  res = await fetch(new URL(action, issuer), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieHeader() },
    body: new URLSearchParams({ email: user.email, password: user.password }),
  });
  keep(res);
  if (res.status !== 303) throw new Error(`the login form answered ${res.status}`);
  let location = new URL(res.headers.get('location')!, issuer);
  for (let hop = 0; location.origin === issuer.origin && hop < 5; hop += 1) {
    res = await fetch(location, { redirect: 'manual', headers: { cookie: cookieHeader() } });
    keep(res);
    location = new URL(res.headers.get('location')!, issuer);
  }
  const params = oauth.validateAuthResponse(as, client, location, state);
  const tokens = await oauth.processAuthorizationCodeResponse(
    as,
    client,
    await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, { [oauth.allowInsecureRequests]: true }),
  );
  return tokens.access_token;
}
