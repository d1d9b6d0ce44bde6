import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { CognitoStaffDirectory } from '#shared/identity/cognito-staff-directory.js';
import { addStaffUser, DynamoAuditLog, FileStaffDirectory, newAuditId, type StaffDirectory } from '#shared/identity/index.js';
import { ValidationError } from '#shared/platform/errors.js';
import type { StaffIdentity } from '#shared/platform/staff.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { loadConfig } from '#shared/platform/config.js';
import { createDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { localDynamo } from './local/local-stack-file.js';
import { deployedTables, fail, repeatedOption, runCli, type CliOutput } from './cli-arguments.js';

/** Who the audit log names for a person added by this script (a script: no e-mail; the console's adds name the admin). */
const CLI_ACTOR: StaffIdentity = { sub: 'npm-run-staff', roles: ['admin'], kind: 'script' };

/**
 * Who may sign in to the console and the portal:
 *   npm run staff -- add --email ann@insurer.example --group claims [--group finance] [--json]
 *   npm run staff -- add --email sam@venue.example --group merchant --client-id cl_… [--json]
 * Under npm start it adds the person to the local OpenID Provider (.local/staff.json, or
 * STAFF_FILE) and prints a first password; with --aws --user-pool-id <id> to the deployed Cognito
 * user pool (credentials from the usual chain), which e-mails them a temporary password.
 */
const USAGE = `usage:
  npm run staff -- add --email <e-mail> --group <claims|finance|admin|merchant> [--group …] [--client-id cl_…] [--json]
  npm run staff -- add … --aws --user-pool-id <pool id>`;

const OPTIONS = {
  email: { type: 'string' },
  group: { type: 'string', multiple: true },
  'client-id': { type: 'string' },
  aws: { type: 'boolean', default: false },
  'user-pool-id': { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', default: false },
} as const;

/**
 * The CLI with these arguments (without `node` and the script's path), writing to `out`; answers
 * its exit code: 0 done (or --help: the usage), 1 failed (`npm run staff failed: …`), 2 a usage
 * error (the message and the usage).
 */
export async function runStaffCli(args: string[], out: CliOutput = console): Promise<number> {
  return runCli(main, args, out, USAGE, 'npm run staff failed');
}

async function main(args: string[], out: CliOutput): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: OPTIONS, tokens: true });
  } catch (err) {
    fail((err as Error).message);
  }
  const { positionals, values, tokens } = parsed;
  const repeated = repeatedOption(tokens, ['group']);
  if (repeated) fail(`--${repeated} is given twice`);
  if (values.help) {
    out.log(USAGE);
    return;
  }
  if (positionals.length === 0) fail('Order Protection staff CLI');
  if (positionals[0] !== 'add') fail(`unknown command "${positionals[0]}": the one command is add`);
  if (positionals.length > 1) fail(`add takes no words but its options (got "${positionals.slice(1).join(' ')}")`);
  let directory: StaffDirectory;
  const deployed = values.aws ? deployedTables() : undefined;
  if (deployed) {
    const pool = values['user-pool-id'];
    if (!pool) fail('--aws needs --user-pool-id (the OrderProtectionIdentity stack output StaffUserPoolId)');
    // A pool's id starts with its region (eu-west-1_AbC123): the person and their audit record go to one region.
    const poolRegion = /^([a-z]{2}(?:-[a-z]+)+-\d)_[0-9A-Za-z]+$/.exec(pool)?.[1];
    if (!poolRegion) fail(`--user-pool-id ${pool} is not a user pool id (<region>_<id>)`);
    if (poolRegion !== deployed.region)
      fail(`the user pool is in ${poolRegion} and AWS_REGION is ${deployed.region}: set AWS_REGION to the region deployed to`);
    directory = new CognitoStaffDirectory(new CognitoIdentityProviderClient({ region: poolRegion }), pool);
  } else {
    const file = process.env.STAFF_FILE || join(process.cwd(), '.local', 'staff.json');
    out.error(`adding to npm start's sign-in (${file})`);
    directory = new FileStaffDirectory(file);
  }
  // The same rules, client check, audit record and directory as POST /api/v2/admin/staff (shared/identity addStaffUser):
  // the running stack's table locally, the deployed one with --aws.
  const doc = createDocumentClient(deployed ? undefined : localDynamo().endpoint, deployed?.region ?? loadConfig().region);
  let added;
  try {
    const { tableName } = deployed ?? loadConfig();
    const deps = { directory, clients: new DynamoClientStore(doc, tableName), audit: new DynamoAuditLog(doc, tableName), now: () => new Date(), newAuditId };
    added = await addStaffUser(deps, CLI_ACTOR, {
      email: values.email ?? '',
      groups: values.group ?? [],
      ...(values['client-id'] ? { clientId: values['client-id'] } : {}),
    });
  } catch (err) {
    if (err instanceof ValidationError) fail(err.message);
    throw err;
  } finally {
    doc.destroy();
  }
  const { view } = added;
  if (values.json) out.log(JSON.stringify({ ...view, sub: added.sub, ...(added.password ? { password: added.password } : {}) }));
  else {
    out.log(`${view.email} may sign in (${view.groups.join(', ')}${view.client_id ? ` of ${view.client_id}` : ''}).`);
    out.log(added.password ? `  first password: ${added.password}  (shown once)` : '  Cognito e-mails a temporary password; MFA is set up at first sign-in.');
  }
}
