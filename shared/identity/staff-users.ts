import { ValidationError } from '../platform/errors.js';
import { prefixedIdPattern } from '../platform/ids.js';
import { isStaffRole, type StaffRole } from '../platform/staff.js';

/** A person given a sign-in: staff in one or more groups, or a merchant user bound to one client. */
export interface NewStaffUser {
  email: string;
  groups: StaffRole[];
  /** A merchant user's client (required for `merchant`, refused otherwise). */
  clientId?: string;
}

/** Where a person stands: `invited` (Cognito e-mailed a temporary password, not yet changed), `active`, `disabled`. */
export type StaffStatus = 'invited' | 'active' | 'disabled';

/** A person who may sign in, as the directory lists them (never a password). */
export interface StaffMember {
  sub: string;
  email: string;
  groups: StaffRole[];
  clientId?: string;
  status: StaffStatus;
}

/**
 * Where people who may sign in are kept: deployed the Cognito user pool (which e-mails a new
 * person an invitation), under npm start its OpenID Provider's file (where their first password is
 * written). Adapters: CognitoStaffDirectory, FileStaffDirectory.
 */
export interface StaffDirectory {
  /** How a new person learns their first password: Cognito's invitation e-mail, or npm start's `.local/staff.json`. */
  readonly invitation: 'email' | 'local_file';
  /** Whether someone signs in with this e-mail already. */
  exists(email: string): Promise<boolean>;
  /** Adds the person (a ConflictError `staff_user_exists` if the e-mail is taken); answers their subject, status and, where the directory does not send it itself, a first password. */
  add(user: NewStaffUser): Promise<{ sub: string; status: StaffStatus; password?: string }>;
  /** A page of people with their groups; `after` is where the previous page ended. */
  page(limit: number, after?: string): Promise<{ users: StaffMember[]; next?: string }>;
}

/** The words of the 409 for an e-mail that signs in already. */
export const STAFF_EXISTS_MESSAGE = (email: string): string => `email: ${email} can already sign in.`;

/** Cognito's limit on a username, which a staff sign-in's e-mail address is (RFC 5321 allows 254). */
export const MAX_EMAIL_LENGTH = 128;
/**
 * A sign-in address as Cognito and mail systems take it without surprises: ASCII only (an
 * internationalized domain in its xn-- form), the local part of RFC 5322's unquoted characters, a
 * domain of letters, digits and hyphens in two labels or more; no quotes, spaces, angle brackets
 * or control characters, which a console would show and a mailer might read otherwise.
 */
const EMAIL =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const CLIENT_ID = prefixedIdPattern('cl');

/**
 * The rules of a new sign-in: a plausible e-mail address, at least one known group, and a merchant
 * user bound to exactly one client and in no staff group (a merchant's people never see the
 * operator's console); staff bound to no client.
 */
export function validateNewStaffUser(input: { email: string; groups: readonly string[]; clientId?: string }): NewStaffUser {
  const email = input.email.trim().toLowerCase();
  if (email.length > MAX_EMAIL_LENGTH || !EMAIL.test(email)) throw new ValidationError('email: must be an e-mail address.', 'email');
  const groups = [...new Set(input.groups)];
  if (groups.length === 0) throw new ValidationError('groups: name at least one of claims, finance, admin, merchant.', 'groups');
  const unknown = groups.find((group) => !isStaffRole(group));
  if (unknown !== undefined) throw new ValidationError(`groups: ${unknown} is not one of claims, finance, admin, merchant.`, 'groups');
  const roles = groups as StaffRole[];
  if (roles.includes('merchant')) {
    if (roles.length > 1) throw new ValidationError("groups: a merchant user is in the merchant group only (the console is the operator's).", 'groups');
    if (!input.clientId) throw new ValidationError('client_id: a merchant user is bound to one client (cl_…).', 'client_id');
    if (!CLIENT_ID.test(input.clientId)) throw new ValidationError(`client_id: ${JSON.stringify(input.clientId)} is not a client id (cl_…).`, 'client_id');
    return { email, groups: roles, clientId: input.clientId };
  }
  if (input.clientId !== undefined) throw new ValidationError('client_id: only a merchant user is bound to a client.', 'client_id');
  return { email, groups: roles };
}
