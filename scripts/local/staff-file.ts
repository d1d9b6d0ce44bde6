import { readFile, rename, writeFile } from 'node:fs/promises';
import { randomBytes, randomUUID } from 'node:crypto';
import type { NewStaffUser, StaffDirectory } from '#shared/identity/index.js';
import type { StaffFile } from './local-oidc.js';

/** At most this many people in the local sign-in's file: it is read at every sign-in. */
export const MAX_LOCAL_STAFF = 1000;

/** `.local/staff.json`, as npm start wrote it and `npm run staff -- add` extended it. */
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

/**
 * npm start's directory: the OpenID Provider's users in .local/staff.json (read at each sign-in,
 * so a person added here can sign in at once). The first password is generated and answered once.
 */
export function localStaffDirectory(path: string): StaffDirectory {
  return {
    async add(user: NewStaffUser) {
      const file = await readStaffFile(path);
      if (file.users.some((known) => known.email.toLowerCase() === user.email)) throw new Error(`${user.email} can already sign in`);
      if (file.users.length >= MAX_LOCAL_STAFF) throw new Error(`${path} holds ${MAX_LOCAL_STAFF} users already`);
      const added = {
        sub: randomUUID(),
        email: user.email,
        password: randomBytes(12).toString('base64url'),
        groups: user.groups,
        ...(user.clientId ? { client_id: user.clientId } : {}),
      };
      await writeStaffFile(path, { ...file, users: [...file.users, added] });
      return { sub: added.sub, password: added.password };
    },
  };
}
