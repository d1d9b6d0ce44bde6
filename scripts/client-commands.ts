import { parseArgs } from 'node:util';
import { createClient, disableClient, rotateClientSecret, type ClientAuditing } from '#shared/clients/manage-clients.js';
import { termsInForce } from '#shared/clients/index.js';
import { publishTerms, PublishTermsRequest, termsView, type TermsView } from '#shared/terms/index.js';
import { DynamoTermsStore } from '#shared/terms/dynamo-terms-store.js';
import { parseInput } from '#shared/platform/http/validation.js';
import { Text } from '#shared/platform/http/schemas.js';
import * as v from 'valibot';
import { AppError, NotFoundError } from '#shared/platform/errors.js';
import type { StaffIdentity } from '#shared/identity/index.js';
import { newAuditId } from '#shared/identity/index.js';
import { loadConfig } from '#shared/platform/config.js';
import { MAX_LOOK_PERIOD_DAYS, parseLookPeriodDays } from '#shared/clients/client.js';
import { parseRate } from '#shared/platform/money/index.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { createDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { readFileSync } from 'node:fs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { claimLink } from '#shared/claims/claim-link.js';
import { localDynamo, stackFilePath, type StackFile } from './local/local-stack-file.js';
import { deployedTables, fail, repeatedOption, runCli, type CliOutput } from './cli-arguments.js';

/** Who the audit log names for a client this script creates or disables (a script: no e-mail). */
const CLI_AUDITING: ClientAuditing = { actor: { sub: 'npm-run-client', roles: ['admin'], kind: 'script' }, newAuditId };
/** Who the audit log names for a terms version this script publishes. */
const CLI_FINANCE: StaffIdentity = { sub: 'npm-run-client', roles: ['finance'], kind: 'script' };
/**
 * Operator CLI:
 *   npm run client -- create --name "Acme" [--rate 0.085] [--live] [--json]
 *   npm run client -- rotate-secret --client-id cl_… [--json]
 *   npm run client -- disable cl_… [--json]         (or --client-id cl_…)
 *   npm run client -- terms cl_… [--body '{"rate_bands":[…],…}'] [--json]
 *     lists the client's terms versions, or publishes the next one: the body is POST
 *     /api/v2/admin/clients/{id}/terms's, checked by the same rules (docs/api.md, "Terms")
 *   npm run client -- set cl_… --look-period-days N
 *     publishes the next version: the one in force with this look period
 *   npm run client -- claim-link cl_… [--base-url https://…] [--order 1001] [--email a@b.c] [--json]
 *     the merchant's claim link for its customers (shared/claims/claim-link.ts); the site is the
 *     running npm start's unless --base-url names it (with --aws it must: the distribution's URL)
 * Targets the running local stack (DYNAMODB_ENDPOINT, else the one `npm start` wrote to
 * .local/stack.json, else DynamoDB Local on DYNAMODB_PORT or 8000; it says which), or with --aws the deployed tables (TABLE_NAME from the stack outputs, AWS credentials
 * from the usual chain). The secret key is printed this once and never stored.
 */
const USAGE = `usage:
  npm run client -- create --name "Acme" [--rate 0.085] [--look-period-days 14] [--live] [--json] [--aws]
  npm run client -- set cl_... --look-period-days 30 [--json] [--aws]
  npm run client -- terms cl_... [--body '{"rate_bands":[{"rate":"0.085"}],"commission_rate":"0.1","look_period_days":14}'] [--json] [--aws]
  npm run client -- rotate-secret --client-id cl_... [--json] [--aws]
  npm run client -- disable cl_... [--json] [--aws]     (or --client-id cl_...)
  npm run client -- claim-link cl_... [--base-url https://...] [--order 1001] [--email a@b.c] [--json] [--aws]`;

const ClientName = v.strictObject({ name: Text });

const OPTIONS = {
  name: { type: 'string' },
  rate: { type: 'string' },
  'look-period-days': { type: 'string' },
  live: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  aws: { type: 'boolean', default: false },
  'client-id': { type: 'string' },
  'base-url': { type: 'string' },
  body: { type: 'string' },
  order: { type: 'string' },
  email: { type: 'string' },
  help: { type: 'boolean', default: false },
} as const;

/** The arguments; a malformed one (an unknown option, a value starting with '-', an option given twice) is a usage error. */
function parseArguments(args: string[]) {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: OPTIONS, tokens: true });
  } catch (err) {
    return fail((err as Error).message);
  }
  const repeated = repeatedOption(parsed.tokens);
  if (repeated) fail(`--${repeated} is given twice`);
  return parsed;
}

/** The running npm start's site (.local/stack.json), if any. */
function runningSite(): string | undefined {
  try {
    return (JSON.parse(readFileSync(stackFilePath(), 'utf8')) as Partial<StackFile>).base_url;
  } catch {
    return undefined;
  }
}

/**
 * The CLI with these arguments (without `node` and the script's path), writing to `out`; answers
 * its exit code: 0 done (or --help: the usage), 1 failed (`client: …`), 2 a usage error (the message and the usage).
 */
export async function runClientCli(args: string[], out: CliOutput = console): Promise<number> {
  return runCli(main, args, out, USAGE, 'client');
}

/** The options each command takes; --json, --aws and --help go with any. */
const COMMAND_OPTIONS: Record<string, readonly (keyof typeof OPTIONS)[]> = {
  create: ['name', 'rate', 'look-period-days', 'live'],
  set: ['client-id', 'look-period-days'],
  terms: ['client-id', 'body'],
  'rotate-secret': ['client-id'],
  disable: ['client-id'],
  'claim-link': ['client-id', 'base-url', 'order', 'email'],
};
const ANY_COMMAND: readonly string[] = ['json', 'aws', 'help'];

/**
 * The command and its client id, after the arguments' shape is checked: a known command, only its
 * own options, and at most one client id (a positional one, or --client-id, or both the same);
 * anything else is a usage error rather than a word silently ignored.
 */
function commandOf(positionals: string[], values: Values): { command: string; clientId: string | undefined } {
  const [command, ...rest] = positionals;
  if (!command) fail('Order Protection operator CLI');
  const allowed = COMMAND_OPTIONS[command];
  if (!allowed) fail(`unknown command "${command}"`);
  for (const [option, value] of Object.entries(values))
    if (value !== false && !ANY_COMMAND.includes(option) && !allowed.includes(option as keyof typeof OPTIONS)) fail(`${command} takes no --${option}`);
  const takesClient = allowed.includes('client-id');
  if (rest.length > (takesClient ? 1 : 0)) fail(`${command} takes ${takesClient ? 'one client id' : 'no client id'} (got "${rest.join(' ')}")`);
  const given = values['client-id'];
  if (given !== undefined && rest[0] !== undefined && given !== rest[0]) fail(`the client id is given twice, as ${rest[0]} and --client-id ${given}`);
  return { command, clientId: given ?? rest[0] };
}

async function main(args: string[], out: CliOutput): Promise<void> {
  const { positionals, values } = parseArguments(args);
  if (values.help) {
    out.log(USAGE);
    return;
  }
  const { command, clientId } = commandOf(positionals, values);

  const deployed = values.aws ? deployedTables() : undefined;
  const local = deployed ? undefined : localDynamo();
  // On standard error, so that --json output stays clean.
  if (local) out.error(`using DynamoDB at ${local.endpoint} (${local.source})`);
  const config = deployed ?? loadConfig();
  const doc = createDocumentClient(local?.endpoint, config.region);
  try {
    await run(command, clientId, values, doc, config.tableName, out);
  } finally {
    doc.destroy();
  }
}

type Values = ReturnType<typeof parseArguments>['values'];

/** The command, on a document client the caller destroys. */
async function run(
  command: string,
  clientId: string | undefined,
  values: Values,
  doc: DynamoDBDocumentClient,
  tableName: string,
  out: CliOutput,
): Promise<void> {
  const store = new DynamoClientStore(doc, tableName);

  if (command === 'claim-link') {
    if (!clientId) fail('claim-link needs a client id');
    const site = values['base-url'] ?? (values.aws ? undefined : runningSite());
    if (!site)
      fail(
        values.aws ? 'claim-link --aws needs --base-url (the distribution URL of the deployed pages)' : 'claim-link needs --base-url, or a running npm start',
      );
    if (!URL.canParse(site) || !/^https?:$/.test(new URL(site).protocol)) fail(`--base-url must be an http(s) URL (got "${site}")`);
    const client = await store.get(clientId);
    if (!client) throw new Error(`no client ${clientId}`);
    const link = claimLink(site, clientId, { orderNumber: values.order, email: values.email });
    out.log(values.json ? JSON.stringify({ client_id: clientId, claim_link: link }) : link);
    return;
  }
  if (command === 'disable') {
    if (!clientId) fail('disable needs a client id');
    const disabled = await disableClient(store, clientId, CLI_AUDITING);
    out.log(values.json ? JSON.stringify(disabled) : `client ${clientId} disabled: no new tokens or quotes, and its access tokens stop within a minute`);
    return;
  }
  const lookPeriodText = values['look-period-days'];
  const lookPeriodDays = lookPeriodText === undefined ? undefined : parseLookPeriodDays(lookPeriodText);
  if (lookPeriodText !== undefined && lookPeriodDays === undefined) {
    fail(`--look-period-days must be a whole number of days from 0 to ${MAX_LOOK_PERIOD_DAYS} (got "${lookPeriodText}")`);
  }

  if (command === 'set' || command === 'terms') {
    if (!clientId) fail(`${command} needs a client id`);
    const terms = new DynamoTermsStore(doc, tableName);
    let request: PublishTermsRequest | undefined;
    if (command === 'set') {
      if (lookPeriodDays === undefined) fail('set needs --look-period-days');
      // Versions are never edited: the next one is the version in force with the new look period.
      const client = await store.get(clientId);
      if (!client) throw new Error(`no client ${clientId}`);
      const current = termsInForce(client, new Date());
      request = {
        rate_bands: current.rate_bands,
        minimum_premium: current.minimum_premium,
        commission_ppm: current.commission_ppm,
        look_period_days: lookPeriodDays,
      };
    } else if (values.body !== undefined) {
      let body: unknown;
      try {
        body = JSON.parse(values.body);
      } catch {
        fail('--body must be a JSON object, such as the body of POST /api/v2/admin/clients/{id}/terms');
      }
      try {
        request = parseInput(PublishTermsRequest, body);
      } catch (err) {
        if (err instanceof AppError) fail(`--body: ${err.message}${err.param ? ` (${err.param})` : ''}`);
        throw err;
      }
    }
    if (request === undefined) {
      if (!(await terms.head(clientId))) throw new Error(`no client ${clientId}`);
      const page = await terms.page(clientId, 100);
      const views = page.versions.map(termsView);
      out.log(values.json ? JSON.stringify(views) : views.map(describeTerms).join('\n'));
      return;
    }
    try {
      const published = await publishTerms({ store: terms, now: () => new Date(), newAuditId }, CLI_FINANCE, clientId, request);
      out.log(values.json ? JSON.stringify(termsView(published)) : `client ${clientId}: ${describeTerms(termsView(published))}`);
    } catch (err) {
      if (err instanceof NotFoundError) throw new Error(`no client ${clientId}`, { cause: err });
      if (err instanceof AppError) fail(`${err.message}${err.param ? ` (${err.param})` : ''}`);
      throw err;
    }
    return;
  }

  let keys;
  if (command === 'create') {
    if (!values.name?.trim()) fail('create needs --name');
    // The merchant's name as every name of the API: one line of at most 255 characters, no hidden or reordering characters.
    let name: string;
    try {
      ({ name } = parseInput(ClientName, { name: values.name.trim() }));
    } catch (err) {
      if (err instanceof AppError) fail(`--${err.message}`);
      throw err;
    }
    const ratePpm = values.rate === undefined ? undefined : parseRate(values.rate);
    if (ratePpm === undefined && values.rate !== undefined)
      fail(`--rate must be a decimal above 0 and at most 1 with up to 6 digits, e.g. 0.085 (got "${values.rate}")`);
    keys = await createClient(store, { name, ratePpm, lookPeriodDays, mode: values.live ? 'live' : 'test' }, new Date(), CLI_AUDITING);
  } else if (command === 'rotate-secret') {
    if (!clientId) fail('rotate-secret needs --client-id');
    keys = await rotateClientSecret(store, clientId);
  } else {
    throw new Error(`unknown command "${command}"`); // commandOf refused it
  }

  if (values.json) out.log(JSON.stringify(keys));
  else out.log(`client_id   ${keys.client_id}\npublic_key  ${keys.public_key}\nsecret_key  ${keys.secret_key}   (shown this once: store it now)`);
}

/** One line a version: its number, when it takes effect, its bands, minimum, commission and look period. */
function describeTerms(view: TermsView): string {
  const bands = view.rate_bands
    .map((band) => (band.up_to_days === undefined ? `${band.rate} beyond` : `${band.rate} up to ${band.up_to_days} days`))
    .join(', ');
  const minimum = Object.entries(view.minimum_premium).map(([currency, amount]) => `${amount} ${currency}`);
  return `version ${view.version} from ${view.effective_from}: rate ${bands}; minimum ${minimum.join(', ') || 'none'}; commission ${view.commission_rate}; look period ${view.look_period_days} days`;
}
