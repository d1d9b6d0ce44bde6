import type { StaffIssuer } from './staff-tokens.js';

/**
 * The staff sign-in's issuer, from the environment: `STAFF_ISSUER` (deployed: the Cognito user
 * pool's issuer URL; npm start: its OpenID Provider on 127.0.0.1) and `STAFF_AUDIENCES`, the client
 * ids its tokens may be issued to (comma-separated). Undefined when sign-in is not configured.
 */
export function staffIssuerFromEnv(env: NodeJS.ProcessEnv = process.env): StaffIssuer | undefined {
  const issuer = env.STAFF_ISSUER;
  const audiences = (env.STAFF_AUDIENCES ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  return issuer && audiences.length ? { issuer, audiences } : undefined;
}
