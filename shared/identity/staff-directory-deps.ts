import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { CognitoStaffDirectory } from './cognito-staff-directory.js';
import { FileStaffDirectory } from './staff-file.js';
import type { StaffDirectory } from './staff-users.js';

/** Deployed: the user pool's id (lib/api-stack.ts sets it on the staff function). */
export const USER_POOL_VARIABLE = 'STAFF_USER_POOL_ID';
/** Under npm start: the local OpenID Provider's file (scripts/local/local-server.ts sets it). */
export const STAFF_FILE_VARIABLE = 'STAFF_FILE';

let cached: { key: string; directory: StaffDirectory } | undefined;

/** The directory this process adds people to: the Cognito pool when STAFF_USER_POOL_ID is set, else npm start's STAFF_FILE. */
export function staffDirectoryFromEnv(env: NodeJS.ProcessEnv = process.env): StaffDirectory {
  const pool = env[USER_POOL_VARIABLE];
  const file = env[STAFF_FILE_VARIABLE];
  const key = pool ? `pool:${pool}` : `file:${file ?? ''}`;
  if (cached?.key === key) return cached.directory;
  let directory: StaffDirectory;
  if (pool) directory = new CognitoStaffDirectory(new CognitoIdentityProviderClient({}), pool);
  else if (file) directory = new FileStaffDirectory(file);
  else throw new Error(`no staff directory: set ${USER_POOL_VARIABLE} (deployed) or ${STAFF_FILE_VARIABLE} (npm start)`);
  cached = { key, directory };
  return directory;
}
