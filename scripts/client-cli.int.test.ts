import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type Service } from '../test/support/service.js';
import { runClientCli } from './client-commands.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { DynamoAuditLog, type AuditRecord } from '#shared/identity/index.js';
import { firstVersionOf } from '#shared/terms/index.js';
import { DynamoTermsStore } from '#shared/terms/dynamo-terms-store.js';

/** The operator CLI against DynamoDB Local: a client's look period, set at creation and changed later. */
const run = promisify(execFile);
let service: Service;
let store: DynamoClientStore;
let terms: DynamoTermsStore;

beforeAll(async () => {
  service = await startService(); // points TABLE_NAME and DYNAMODB_ENDPOINT at this file's tables
  store = new DynamoClientStore(service.tables.doc, service.tables.main);
  terms = new DynamoTermsStore(service.tables.doc, service.tables.main);
});
afterAll(() => service.stop());

/**
 * The CLI run in this process (runClientCli, what the script's entry calls): its exit code and what
 * it wrote. Most tests run it so; the first describe runs it as a person does, `npm run client`,
 * and the stack-file tests as a process of its own in another folder.
 */
async function inProcess(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runClientCli(args, { log: (line) => stdout.push(line), error: (line) => stderr.push(line) });
  return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
}
const cli = async (...args: string[]) => {
  const answer = await inProcess([...args, '--json']);
  if (answer.code !== 0) throw new Error(`client ${args.join(' ')}: exit ${answer.code}: ${answer.stderr}`);
  return JSON.parse(answer.stdout) as Record<string, unknown>;
};
const failure = async (...args: string[]) => {
  const { code, stderr } = await inProcess(args);
  return { code, stderr };
};
const npmRunClient = (...args: string[]) =>
  run('npm', ['run', '-s', 'client', '--', ...args], { env: process.env }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
  );

describe('npm run client', () => {
  it('runs the CLI: the answer on standard output, exit 0; a failure 1; a usage error 2 with the usage', async () => {
    const [created, unknown, usage] = await Promise.all([
      npmRunClient('create', '--name', 'Scripted Shop', '--json'),
      npmRunClient('disable', 'cl_nobody000000000000000000'),
      npmRunClient('create', '--name', 'X', '--rate', 'lots'),
    ]);

    const keys = JSON.parse(created.stdout) as { client_id: string; secret_key: string };
    expect(created.code).toBe(0);
    expect((await store.get(keys.client_id))?.name).toBe('Scripted Shop');
    expect(created.stdout).not.toContain('using DynamoDB'); // said on standard error, so --json stays clean
    expect(created.stderr).toContain(`using DynamoDB at ${process.env.DYNAMODB_ENDPOINT}`);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('client: ');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--rate must be a decimal above 0');
    expect(usage.stderr).toContain('usage:\n  npm run client -- create');
  });
});

describe('npm run client: look period', () => {
  it('is 14 days by default, set at creation with --look-period-days, and changed by set publishing the next terms version', async () => {
    const plain = await cli('create', '--name', 'Default Shop');
    const chosen = await cli('create', '--name', 'Long Look Shop', '--look-period-days', '30', '--rate', '0.1');

    const changed = await cli('set', String(chosen.client_id), '--look-period-days', '0');

    expect((await terms.get(String(plain.client_id), 1))?.look_period_days).toBe(14);
    expect(changed).toMatchObject({ version: 2, look_period_days: 0, rate_bands: [{ rate: '0.1' }], commission_rate: '0', created_by: 'npm-run-client' });
    // Version 1 is never edited.
    expect((await terms.get(String(chosen.client_id), 1))?.look_period_days).toBe(30);
    expect((await terms.head(String(chosen.client_id)))?.latest).toBe(2);
  });

  it('refuses a look period outside 0–60 whole days, and an unknown client, changing nothing', async () => {
    const { client_id } = await cli('create', '--name', 'Careful Shop', '--look-period-days', '20');

    const answers = await Promise.all([
      failure('create', '--name', 'X', '--look-period-days', '61'),
      failure('set', String(client_id), '--look-period-days', '-1'),
      failure('set', String(client_id), '--look-period-days', '1.5'),
      failure('set', 'cl_nobody000000000000000000', '--look-period-days', '10'),
    ]);

    expect(answers.map((answer) => answer.code)).toEqual([2, 2, 2, 1]);
    expect(answers[0].stderr).toContain('--look-period-days must be a whole number of days from 0 to 60');
    expect(answers[3].stderr).toContain('no client cl_nobody');
    expect((await terms.head(String(client_id)))?.latest).toBe(1);
  });
});

describe('npm run client: the arguments', () => {
  it('refuses what it would otherwise ignore or store, changing nothing; --help prints the usage and exits 0', async () => {
    const { client_id } = await cli('create', '--name', 'Strict Shop');
    const id = String(client_id);

    const answers = await Promise.all([
      failure('disable', id, 'cl_other00000000000000000000'),
      failure('claim-link', id, '--client-id', 'cl_other00000000000000000000', '--base-url', 'https://pages.example.com'),
      failure('rotate-secret', id, '--look-period-days', '10'),
      failure('disable', id, '--rate', '0.1'),
      failure('create', id, '--name', 'Positional Shop'),
      failure('create', '--name', 'Evil\nCorp'),
      failure('create', '--name', 'Reversed \u202eShop'),
      failure('create', '--name', 'x'.repeat(256)),
      failure('launch', id),
      failure('claim-link', '--client-id', 'cl_other00000000000000000000', '--client-id', id, '--base-url', 'https://pages.example.com'),
    ]);

    expect(answers.map((answer) => answer.code)).toEqual([2, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
    // The first line that is not where it looked for DynamoDB (said before a create checks its name).
    expect(answers.map((answer) => answer.stderr.split('\n').find((line) => !line.startsWith('using DynamoDB')))).toEqual([
      'disable takes one client id (got "' + id + ' cl_other00000000000000000000")',
      'the client id is given twice, as ' + id + ' and --client-id cl_other00000000000000000000',
      'rotate-secret takes no --look-period-days',
      'disable takes no --rate',
      'create takes no client id (got "' + id + '")',
      '--name: must hold no control, line-separator or bidirectional-control characters',
      '--name: must hold no control, line-separator or bidirectional-control characters',
      '--name: must be at most 255 characters',
      'unknown command "launch"',
      '--client-id is given twice',
    ]);
    expect((await store.status(id))?.disabled).toBe(false);
    const help = await inProcess(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage:\n {2}npm run client -- create/);
  });
});

describe('npm run client: terms', () => {
  it("publishes a version from a body checked by the API's rules, and lists the versions newest first", async () => {
    const { client_id } = await cli('create', '--name', 'Banded Shop');
    const body = {
      rate_bands: [{ up_to_days: 7, rate: '0.12' }, { rate: '0.085' }],
      minimum_premium: { EUR: '1.5' },
      commission_rate: '0.15',
      look_period_days: 10,
    };

    const published = await cli('terms', String(client_id), '--body', JSON.stringify(body));
    const refused = await failure('terms', String(client_id), '--body', JSON.stringify({ ...body, rate_bands: [{ up_to_days: 7, rate: '0.12' }] }));
    const listed = (await cli('terms', String(client_id))) as unknown as { version: number }[];

    expect(published).toMatchObject({ version: 2, minimum_premium: { EUR: '1.50' }, commission_rate: '0.15', created_by: 'npm-run-client' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('rate_bands[0].up_to_days');
    expect(listed.map((version) => version.version)).toEqual([2, 1]);
    const unknown = await Promise.all([
      failure('terms', 'cl_nobody000000000000000000'),
      failure('terms', 'cl_nobody000000000000000000', '--body', JSON.stringify(body)),
    ]);
    expect(unknown.map((answer) => answer.code)).toEqual([1, 1]);
    expect(unknown[1].stderr).toContain('no client cl_nobody');
    const audit = await new DynamoAuditLog(service.tables.doc, service.tables.main).page(50);
    expect(audit.records.find((record) => record.action === 'terms.published' && record.target.id === client_id)).toMatchObject({
      actor: { sub: 'npm-run-client', email: null },
      target: { type: 'client', id: client_id, detail: 'version 2' },
    });
  });
});

describe('npm run client: the audit log', () => {
  const auditOf = async (clientId: string): Promise<AuditRecord[]> => {
    const { records } = await new DynamoAuditLog(service.tables.doc, service.tables.main).page(50);
    return records.filter((record) => record.target.id === clientId);
  };

  it('records a client created and a client disabled, naming the script as who did it', async () => {
    const { client_id } = await cli('create', '--name', 'Audited Shop');
    await cli('disable', String(client_id));

    const records = await auditOf(String(client_id));
    expect(records.map((record) => [record.action, record.actor, record.target])).toEqual([
      ['client.disabled', { sub: 'npm-run-client', email: null }, { type: 'client', id: client_id }],
      ['client.created', { sub: 'npm-run-client', email: null }, { type: 'client', id: client_id }],
    ]);
  });

  it('writes the audit record with the change or not at all: a create that cannot commit, or a disable of no client, leaves none', async () => {
    const { client_id } = await cli('create', '--name', 'Twice Shop');
    const existing = (await store.get(String(client_id)))!;
    const audit = (action: AuditRecord['action'], id: string): AuditRecord => ({
      audit_id: `aud_${action.replace('.', '')}${id.slice(-8)}`,
      at: new Date().toISOString(),
      actor: { sub: 'test', email: null },
      action,
      target: { type: 'client', id },
    });

    await expect(
      store.create(
        { ...existing, secret_hash: 'x' },
        firstVersionOf(existing, { sub: 'test', email: null }, new Date()),
        audit('client.created', existing.client_id),
      ),
    ).rejects.toThrow();
    await expect(store.disable('cl_nobody000000000000000000', audit('client.disabled', 'cl_nobody000000000000000000'))).rejects.toThrow();

    expect((await auditOf(String(client_id))).map((record) => record.action)).toEqual(['client.created']);
    expect(await auditOf('cl_nobody000000000000000000')).toEqual([]);
  });
});

describe('npm run client: which DynamoDB', () => {
  it('finds the running stack from the .local/stack.json npm start writes (its endpoint and tables), and says so', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'cli-stack-'));
    try {
      mkdirSync(join(folder, '.local'));
      const stack = {
        dynamodb_endpoint: process.env.DYNAMODB_ENDPOINT,
        table_name: service.tables.main,
        metrics_table_name: service.tables.metrics,
        base_url: 'http://localhost:1',
      };
      writeFileSync(join(folder, '.local', 'stack.json'), JSON.stringify(stack));
      const { DYNAMODB_ENDPOINT: _endpoint, TABLE_NAME: _table, METRICS_TABLE_NAME: _metrics, DYNAMODB_PORT: _port, ...env } = process.env;
      const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx');

      const { stdout, stderr } = await run(tsx, [join(process.cwd(), 'scripts', 'client-cli.ts'), 'create', '--name', 'Found Shop', '--json'], {
        cwd: folder,
        env,
      });

      const created = JSON.parse(stdout) as { client_id: string };
      expect((await store.get(created.client_id))?.name).toBe('Found Shop');
      expect(stderr).toContain(`using DynamoDB at ${stack.dynamodb_endpoint} (.local/stack.json, written by the running npm start)`);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('says when it found no running stack and falls back to port 8000, however it is started', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'cli-nostack-'));
    try {
      const { DYNAMODB_ENDPOINT: _endpoint, DYNAMODB_PORT: _port, ...env } = process.env;
      const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx');
      // Started as a deploy script might: through a symlinked folder, the path without `.ts`.
      symlinkSync(process.cwd(), join(folder, 'release'));
      // Port 9 (discard) answers nothing: the command fails, after saying where it looked.
      const answer = await run(tsx, [join(folder, 'release', 'scripts', 'client-cli'), 'create', '--name', 'Lost Shop'], {
        cwd: folder,
        env: { ...env, DYNAMODB_PORT: '9', AWS_MAX_ATTEMPTS: '1' },
      }).then(
        () => ({ code: 0, stderr: '' }),
        (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
      );
      expect(answer.code).toBe(1);
      expect(answer.stderr).toContain('using DynamoDB at http://localhost:9 (no running npm start found (.local/stack.json), so DynamoDB Local on port 9)');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('npm run client: claim link', () => {
  it('prints the shop’s claim link on the site named (the running npm start’s by default), and refuses an unknown client or no site', async () => {
    const { client_id } = await cli('create', '--name', 'Linked Shop');
    const folder = mkdtempSync(join(tmpdir(), 'cli-link-'));
    try {
      mkdirSync(join(folder, '.local'));
      writeFileSync(
        join(folder, '.local', 'stack.json'),
        JSON.stringify({ dynamodb_endpoint: process.env.DYNAMODB_ENDPOINT, table_name: service.tables.main, base_url: 'http://localhost:3999' }),
      );
      const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx');
      const cliIn = (cwd: string, ...args: string[]) =>
        run(tsx, [join(process.cwd(), 'scripts', 'client-cli.ts'), ...args], { cwd, env: process.env }).then(
          ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
          (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
        );

      const [local, deployed, unknown, noSite] = await Promise.all([
        cliIn(folder, 'claim-link', String(client_id)),
        cliIn(folder, 'claim-link', String(client_id), '--base-url', 'https://pages.example.com', '--order', 'A-1001', '--email', 'c+d@example.org', '--json'),
        cliIn(folder, 'claim-link', 'cl_nobody000000000000000000'),
        cliIn(tmpdir(), 'claim-link', String(client_id)),
      ]);

      expect(local.stdout.trim()).toBe(`http://localhost:3999/claim?shop=${String(client_id)}`);
      expect(JSON.parse(deployed.stdout)).toEqual({
        client_id,
        claim_link: `https://pages.example.com/claim?shop=${String(client_id)}#order=A-1001&email=c%2Bd%40example.org`,
      });
      expect([unknown.code, noSite.code]).toEqual([1, 2]);
      expect(unknown.stderr).toContain('no client cl_nobody');
      expect(noSite.stderr).toContain('claim-link needs --base-url, or a running npm start');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
