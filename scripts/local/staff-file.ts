/**
 * npm start's staff file, `.local/staff.json`: the local OpenID Provider reads its users at each
 * sign-in. Its format and its directory (FileStaffDirectory: the staff function's and `npm run
 * staff`'s under npm start) live in shared/identity/staff-file.ts; this names them for scripts/local.
 */
export { readStaffFile, writeStaffFile, MAX_LOCAL_STAFF, FileStaffDirectory } from '#shared/identity/staff-file.js';
