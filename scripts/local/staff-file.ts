import { readFile, rename, writeFile } from 'node:fs/promises';
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
