import { runClientCli } from './client-commands.js';

/**
 * `npm run client`: the operator CLI (its commands and usage in client-commands.ts). The process's
 * exit code is the CLI's: 0 done, 1 failed, 2 a usage error. An entry of its own, so that it runs
 * however it is started (a symlinked folder, a path without `.ts`), not only by its exact path.
 */
const code = await runClientCli(process.argv.slice(2));
if (code !== 0) process.exit(code);
