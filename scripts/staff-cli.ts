import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { CognitoStaffDirectory } from '#shared/identity/cognito-staff-directory.js';
import { validateNewStaffUser, type StaffDirectory } from '#shared/identity/index.js';
import { AppError } from '#shared/platform/errors.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { loadConfig } from '#shared/platform/config.js';
import { createDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { localStaffDirectory } from './local/staff-file.js';
import { localDynamo } from './local/local-stack-file.js';

/** A merchant user's client must exist and be enabled (the running stack's table locally, the deployed one with --aws). */
async function requireEnabledClient(clientId: string, aws: boolean): Promise<void> {
  const local = aws ? undefined : localDynamo();
  const doc = createDocumentClient(local?.endpoint, loadConfig().region);
  try {
    const status = await new DynamoClientStore(doc, loadConfig().tableName).status(clientId);
    if (!status) fail(`client_id: no client ${clientId} (npm run client -- create makes one)`);
    if (status.disabled) fail(`client_id: ${clientId} is disabled`);
  } finally {
    doc.destroy();
  }
}

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

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

const OPTIONS = {
  email: { type: 'string' },
  group: { type: 'string', multiple: true },
  'client-id': { type: 'string' },
  aws: { type: 'boolean', default: false },
  'user-pool-id': { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', default: false },
} as const;

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({ allowPositionals: true, options: OPTIONS });
  } catch (err) {
    fail((err as Error).message);
  }
  const { positionals, values } = parsed;
  if (values.help || positionals[0] !== 'add') fail('Order Protection staff CLI');
  let user;
  try {
    user = validateNewStaffUser({ email: values.email ?? '', groups: values.group ?? [], ...(values['client-id'] ? { clientId: values['client-id'] } : {}) });
  } catch (err) {
    fail(err instanceof AppError ? err.message : String(err));
  }
  if (user.clientId) await requireEnabledClient(user.clientId, values.aws);
  let directory: StaffDirectory;
  if (values.aws) {
    if (!values['user-pool-id']) fail('--aws needs --user-pool-id (the OrderProtectionIdentity stack output)');
    directory = new CognitoStaffDirectory(new CognitoIdentityProviderClient({}), values['user-pool-id']);
  } else {
    const file = process.env.STAFF_FILE || join(process.cwd(), '.local', 'staff.json');
    console.error(`adding to npm start's sign-in (${file})`);
    directory = localStaffDirectory(file);
  }
  const added = await directory.add(user);
  if (values.json) console.log(JSON.stringify({ email: user.email, groups: user.groups, ...added }));
  else {
    console.log(`${user.email} may sign in (${user.groups.join(', ')}${user.clientId ? ` of ${user.clientId}` : ''}).`);
    console.log(
      added.password ? `  first password: ${added.password}  (shown once)` : '  Cognito e-mails a temporary password; MFA is set up at first sign-in.',
    );
  }
}

main().catch((err: unknown) => {
  console.error(`npm run staff failed: ${(err as Error).message}`);
  process.exit(1);
});
