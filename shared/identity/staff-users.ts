import { ValidationError } from '../platform/errors.js';
import { isStaffRole, type StaffRole } from '../platform/staff.js';

/** A person given a sign-in: staff in one or more groups, or a merchant user bound to one client. */
export interface NewStaffUser {
  email: string;
  groups: StaffRole[];
  /** A merchant user's client (required for `merchant`, refused otherwise). */
  clientId?: string;
}

/** Where people who may sign in are kept: deployed the Cognito user pool, under npm start its OpenID Provider's file. */
export interface StaffDirectory {
  /** Adds the person; answers their subject and, where the directory does not send it itself, a first password. */
  add(user: NewStaffUser): Promise<{ sub: string; password?: string }>;
}

/** Cognito's limit on an e-mail address used as a username is 128; RFC 5321's path limit is 254. */
export const MAX_EMAIL_LENGTH = 254;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const CLIENT_ID = /^cl_[0-9A-Za-z]{24}$/;

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
    if (!input.clientId || !CLIENT_ID.test(input.clientId)) throw new ValidationError('client_id: a merchant user is bound to one client (cl_…).', 'client_id');
    return { email, groups: roles, clientId: input.clientId };
  }
  if (input.clientId !== undefined) throw new ValidationError('client_id: only a merchant user is bound to a client.', 'client_id');
  return { email, groups: roles };
}
