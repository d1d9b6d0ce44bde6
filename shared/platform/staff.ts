import { AppError, AuthenticationError } from './errors.js';

/**
 * Who may do what. People sign in with OpenID Connect (deployed: the Cognito user pool; locally:
 * npm start's OpenID Provider) and belong to groups; scripts use a client-credentials client of the
 * same issuer and carry scopes instead. A group and the scope of the same name grant the same role.
 */
export const STAFF_ROLES = ['claims', 'finance', 'admin', 'merchant'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** What each role may do, for the docs and the console's navigation. */
export const ROLE_DUTIES: Record<StaffRole, string> = {
  claims: 'the claim queue: read claims, decide them, record payouts',
  finance: 'bordereaux, statements, remittances and terms',
  admin: 'clients and staff accounts, and the audit log',
  merchant: 'the merchant portal, for one client only: conversion, statements, the ledger, webhook endpoints',
};

/** The resource server's scope prefix: a client-credentials token carries `order-protection/<role>`. */
export const SCOPE_PREFIX = 'order-protection/';

/** The access token claim naming a merchant user's client (added by the issuer, never taken from a request). */
export const MERCHANT_CLIENT_CLAIM = 'merchant_client_id';

/** The access token claim holding a person's groups (Cognito's name; npm start's provider issues the same). */
export const GROUPS_CLAIM = 'cognito:groups';

export const isStaffRole = (value: string): value is StaffRole => (STAFF_ROLES as readonly string[]).includes(value);

/** Someone signed in (a person of the user pool) or a script (a client-credentials client), as an access token names them. */
export interface StaffIdentity {
  /** The token's subject: a user's id, or a script's client id. */
  sub: string;
  /** A person's e-mail address (absent for a script). */
  email?: string;
  roles: readonly StaffRole[];
  /** A merchant user's one client. */
  merchantClientId?: string;
  kind: 'person' | 'script';
}

/** Claims as they reach a handler: API Gateway's JWT authorizer hands a list claim on as one string, `[a b]`. */
export type TokenClaims = Record<string, unknown>;

/** At most this many groups or scopes are read from one token (Cognito allows 100 groups a user). */
export const MAX_TOKEN_ROLES = 100;

function listClaim(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string').slice(0, MAX_TOKEN_ROLES);
  if (typeof value !== 'string') return [];
  const inner = value.startsWith('[') && value.endsWith(']') ? value.slice(1, -1) : value;
  return inner
    .split(/[\s,]+/)
    .filter(Boolean)
    .slice(0, MAX_TOKEN_ROLES);
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * The identity an access token's claims name, or undefined when they are not a staff access token:
 * an ID token (`token_use` other than `access`; an HTTP API JWT authorizer would let one through by
 * its audience) or no subject. Roles come from a person's groups and a script's scopes (a token
 * whose subject is its client: client credentials); unknown ones are ignored.
 */
export function staffFromClaims(claims: TokenClaims | undefined): StaffIdentity | undefined {
  if (!claims || claims.token_use !== 'access') return undefined;
  const sub = text(claims.sub);
  if (!sub) return undefined;
  const groups = listClaim(claims[GROUPS_CLAIM]);
  // Scopes grant roles to a script only: a client-credentials token's subject is its client. A
  // person's token never gets a role from a scope (the pages could otherwise ask for one).
  const script = text(claims.client_id) === sub;
  const scopes = (script ? listClaim(claims.scope) : []).filter((scope) => scope.startsWith(SCOPE_PREFIX)).map((scope) => scope.slice(SCOPE_PREFIX.length));
  const roles = [...new Set([...groups, ...scopes])].filter(isStaffRole);
  const email = text(claims.email);
  const merchantClientId = text(claims[MERCHANT_CLIENT_CLAIM]);
  return {
    sub,
    roles,
    kind: script ? 'script' : 'person',
    ...(email ? { email } : {}),
    ...(merchantClientId ? { merchantClientId } : {}),
  };
}

/** "the finance role", "the claims or finance role", "one of the claims, finance or admin roles". */
const roleNames = (roles: readonly StaffRole[]): string =>
  roles.length <= 2 ? `the ${roles.join(' or ')} role` : `one of the ${roles.slice(0, -1).join(', ')} or ${roles[roles.length - 1]} roles`;

export class ForbiddenRoleError extends AppError {
  constructor(roles: readonly StaffRole[], message = `This needs ${roleNames(roles)}, which your account does not have.`) {
    super(403, 'invalid_request_error', 'forbidden_role', message);
  }
}

export const staffSignInRequired = () =>
  new AuthenticationError(
    'operator_credentials_required',
    'Sign in first: an access token of the staff sign-in (Authorization: Bearer <token>), or under npm start the operator key (Authorization: Operator <key>).',
  );

/** The identity, if it holds one of the roles; else 401 without one, 403 `forbidden_role` with the wrong ones. */
export function requireRole(identity: StaffIdentity | undefined, roles: readonly StaffRole[]): StaffIdentity {
  if (!identity) throw staffSignInRequired();
  if (!identity.roles.some((role) => roles.includes(role))) throw new ForbiddenRoleError(roles);
  return identity;
}

/** How an action's actor is named in the audit log and on a claim's history: the e-mail address of a person, else the subject. */
export const actorLabel = (identity: StaffIdentity): string => identity.email ?? identity.sub;
