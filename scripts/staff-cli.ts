import { runStaffCli } from './staff-commands.js';

/**
 * `npm run staff`: who may sign in to the console and the portal (its command and usage in
 * staff-commands.ts). The process's exit code is the CLI's: 0 done, 1 failed, 2 a usage error.
 */
const code = await runStaffCli(process.argv.slice(2));
if (code !== 0) process.exit(code);
