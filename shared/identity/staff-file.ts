import { readFile, rename, writeFile } from 'node:fs/promises';
import { randomBytes, randomUUID } from 'node:crypto';
import { ConflictError } from '../platform/errors.js';
import type { StaffRole } from '../platform/staff.js';
import { STAFF_EXISTS_MESSAGE, type NewStaffUser, type StaffDirectory, type StaffMember } from './staff-users.js';

/** A person who may sign in to npm start's OpenID Provider: the demo users and those added since. */
export interface StaffUser {
  sub: string;
  email: string;
  password: string;
  groups: StaffRole[];
  /** A merchant user's one client. */
  client_id?: string;
}

/** What `.local/staff.json` holds (api.md): the issuer, the pages' client and its redirect URIs, and the users. */
export interface StaffFile {
  issuer: string;
  client_id: string;
  /** The console's redirect URI (the contract's one); the portal's is beside it. */
  redirect_uri: string;
  portal_redirect_uri: string;
  users: StaffUser[];
}

/** At most this many people in the local sign-in's file: it is read at every sign-in. */
export const MAX_LOCAL_STAFF = 1000;
/** Bytes of a generated first password (16 characters of base64url). */
const PASSWORD_BYTES = 12;

/** `.local/staff.json`, as npm start wrote it and people were added to it. */
export async function readStaffFile(path: string): Promise<StaffFile> {
  const file = JSON.parse(await readFile(path, 'utf8')) as StaffFile;
  if (!Array.isArray(file.users) || file.users.length > MAX_LOCAL_STAFF) throw new Error(`${path}: users must be a list of at most ${MAX_LOCAL_STAFF}`);
  return file;
}

/** Written whole or not at all (a temporary file renamed into place), readable by its owner only: it holds passwords. */
export async function writeStaffFile(path: string, file: StaffFile): Promise<void> {
  await writeFile(`${path}.tmp`, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  await rename(`${path}.tmp`, path);
}

const memberOf = (user: StaffUser): StaffMember => ({
  sub: user.sub,
  email: user.email,
  groups: user.groups,
  ...(user.client_id ? { clientId: user.client_id } : {}),
  status: 'active',
});

/**
 * npm start's directory: the OpenID Provider's users in `.local/staff.json` (it reads the file at
 * each sign-in, so a person added here signs in at once). The first password is generated, written
 * to that file only (as the demo users' are) and answered to the caller, never logged.
 * Adds are serialized within a process (the API's handler and the CLI are each one process; the
 * file is replaced whole, so a reader never sees half of it).
 */
export class FileStaffDirectory implements StaffDirectory {
  readonly invitation = 'local_file' as const;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly path: string) {}

  async exists(email: string): Promise<boolean> {
    const { users } = await readStaffFile(this.path);
    return users.some((known) => known.email.toLowerCase() === email.toLowerCase());
  }

  add(user: NewStaffUser): Promise<{ sub: string; password: string; status: 'active' }> {
    const next = this.queue.then(async () => {
      const file = await readStaffFile(this.path);
      if (file.users.some((known) => known.email.toLowerCase() === user.email))
        throw new ConflictError('staff_user_exists', STAFF_EXISTS_MESSAGE(user.email), 'email');
      if (file.users.length >= MAX_LOCAL_STAFF) throw new Error(`${this.path} holds ${MAX_LOCAL_STAFF} users already`);
      const added: StaffUser = {
        sub: randomUUID(),
        email: user.email,
        password: randomBytes(PASSWORD_BYTES).toString('base64url'),
        groups: user.groups,
        ...(user.clientId ? { client_id: user.clientId } : {}),
      };
      await writeStaffFile(this.path, { ...file, users: [...file.users, added] });
      return { sub: added.sub, password: added.password, status: 'active' as const };
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** In the file's order (the order people were added); the position is the index of the next one. */
  async page(limit: number, after?: string): Promise<{ users: StaffMember[]; next?: string }> {
    const { users } = await readStaffFile(this.path);
    const start = after === undefined ? 0 : Number(after);
    if (!Number.isSafeInteger(start) || start < 0) throw new Error('not a position in the staff file');
    const end = start + limit;
    return { users: users.slice(start, end).map(memberOf), ...(end < users.length ? { next: String(end) } : {}) };
  }
}
