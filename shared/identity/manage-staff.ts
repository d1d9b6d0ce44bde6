import { ConflictError, ValidationError } from '../platform/errors.js';
import type { StaffIdentity } from '../platform/staff.js';
import { auditRecordOf, type AuditRecord } from './audit.js';
import { STAFF_EXISTS_MESSAGE, validateNewStaffUser, type StaffDirectory, type StaffMember, type StaffStatus } from './staff-users.js';

/** The largest page of the staff list: Cognito's ListUsers answers at most 60 a call. */
/**
 * How long adding a person reserves their e-mail: far longer than the directory takes (Cognito's
 * AdminCreateUser, or the local file), so of two adds at once the second is refused, not recorded.
 */
export const STAFF_ADD_RESERVATION_MS = 5 * 60_000;
export const MAX_STAFF_PAGE = 60;

export interface AddStaffDeps {
  directory: StaffDirectory;
  /** A merchant user's client: whether it exists and is enabled (the clients' store). */
  clients: { status(clientId: string): Promise<{ disabled: boolean } | undefined> };
  /** Writes one audit record (the main table), reserving the e-mail while it is added: false when another request has it reserved. */
  audit: { writeReserving(record: AuditRecord, reservation: { name: string; until: Date }): Promise<boolean> };
  now: () => Date;
  newAuditId: () => string;
}

/** A person as the API shows them: e-mail, groups, a merchant user's client, status; never a password. */
export interface StaffView {
  email: string;
  groups: string[];
  client_id?: string;
  status: StaffStatus;
}

export const staffView = (member: Pick<StaffMember, 'email' | 'groups' | 'clientId' | 'status'>): StaffView => ({
  email: member.email,
  groups: [...member.groups],
  ...(member.clientId ? { client_id: member.clientId } : {}),
  status: member.status,
});

/**
 * Gives a person a sign-in (POST /admin/staff, and `npm run staff -- add`: one code path): the
 * rules of validateNewStaffUser, a merchant user's client existing and enabled, nobody signing in
 * with that e-mail yet (409 `staff_user_exists`), then the audit record, then the directory. The
 * record is written with a reservation of the e-mail (STAFF_ADD_RESERVATION_MS): of two adds of one
 * e-mail at once, the second finds it reserved and is refused like a known address, with no record.
 *
 * The directory (Cognito, or npm start's file) is not DynamoDB: the record and the account cannot
 * share a transaction. The record is written FIRST: a failure between the two leaves a record of
 * an account that was not made (seen against the directory, and the request answered an error),
 * never an account that no record accounts for. The e-mail is the record's target: the person's
 * subject does not exist before the directory makes it, and the audit log is the admin's only.
 */
export async function addStaffUser(
  deps: AddStaffDeps,
  actor: StaffIdentity,
  input: { email: string; groups: readonly string[]; clientId?: string },
): Promise<{ view: StaffView; sub: string; password?: string }> {
  const user = validateNewStaffUser(input);
  if (user.clientId) {
    const client = await deps.clients.status(user.clientId);
    if (!client) throw new ValidationError(`client_id: no client ${user.clientId}.`, 'client_id');
    if (client.disabled) throw new ValidationError(`client_id: ${user.clientId} is disabled.`, 'client_id');
  }
  if (await deps.directory.exists(user.email)) throw new ConflictError('staff_user_exists', STAFF_EXISTS_MESSAGE(user.email), 'email');
  const detail = user.groups.join(', ') + (user.clientId ? ` of ${user.clientId}` : '');
  const now = deps.now();
  const record = auditRecordOf(actor, 'staff.created', { type: 'staff', id: user.email, detail }, now, deps.newAuditId);
  if (!(await deps.audit.writeReserving(record, { name: `staff:${user.email}`, until: new Date(now.getTime() + STAFF_ADD_RESERVATION_MS) })))
    throw new ConflictError('staff_user_exists', `email: ${user.email} is being added by another request.`, 'email');
  const added = await deps.directory.add(user);
  return {
    view: staffView({ email: user.email, groups: user.groups, ...(user.clientId ? { clientId: user.clientId } : {}), status: added.status }),
    sub: added.sub,
    ...(added.password ? { password: added.password } : {}),
  };
}

export interface ListStaffDeps {
  directory: StaffDirectory;
  cursors: { seal(position: string): Promise<string>; open(cursor: string): Promise<string> };
}

/** GET /admin/staff: a page of people with their groups; the cursor is sealed (another list's or a tampered one is refused). */
export async function listStaff(deps: ListStaffDeps, query: { cursor?: string; limit: number }): Promise<{ users: StaffView[]; nextCursor?: string }> {
  const after = query.cursor === undefined ? undefined : await deps.cursors.open(query.cursor);
  const page = await deps.directory.page(Math.min(query.limit, MAX_STAFF_PAGE), after);
  return { users: page.users.map(staffView), ...(page.next === undefined ? {} : { nextCursor: await deps.cursors.seal(page.next) }) };
}
