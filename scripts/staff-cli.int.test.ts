import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DynamoAuditLog } from '#shared/identity/index.js';
import { loadConfig } from '#shared/platform/config.js';
import { createDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { http } from '../test/support/http.js';
import { startTestServer, type TestServer } from '../test/support/server.js';
import { signInOverHttp } from '../test/support/sign-in.js';
import { runStaffCli } from './staff-commands.js';

/**
 * `npm run staff -- add` while npm start runs: the person can sign in at once, with the roles given.
 * The first test runs the script as a person does; the others run its CLI in this process.
 */
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'staff-'));
const staffFile = join(dir, 'staff.json');
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ staffFile });
  process.env.STAFF_FILE = staffFile; // for the CLI run in this process (put back after the file)
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** `npm run staff` as a person runs it: the first test, for the script's wiring. */
const npmRunStaff = (...args: string[]) =>
  run('npm', ['run', '-s', 'staff', '--', ...args], { env: { ...process.env, STAFF_FILE: staffFile } }).then(
    ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
  );
/** The CLI run in this process (runStaffCli, what the script's entry calls): its exit code and what it wrote. */
async function staff(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runStaffCli(args, { log: (line) => stdout.push(line), error: (line) => stderr.push(line) });
  return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
}

describe('npm run staff -- add', () => {
  it('with --aws, refuses to start without the deployed table and region, or with a pool of another region, calling nothing', async () => {
    const args = ['add', '--email', 'ada@insurer.example', '--group', 'admin', '--aws', '--user-pool-id'];
    vi.stubEnv('TABLE_NAME', '');
    vi.stubEnv('AWS_REGION', '');
    vi.stubEnv('AWS_DEFAULT_REGION', '');
    try {
      const bare = await staff(...args, 'eu-west-1_AbC123');
      expect(bare.code).toBe(2);
      expect(bare.stderr).toContain('--aws needs TABLE_NAME (the OrderProtectionData output MainTableName), AWS_REGION (the region it is deployed in) set');
      vi.stubEnv('TABLE_NAME', 'OrderProtectionData-MainTable');
      vi.stubEnv('AWS_REGION', 'us-east-1');
      const elsewhere = await staff(...args, 'eu-west-1_AbC123');
      expect(elsewhere.code).toBe(2);
      expect(elsewhere.stderr).toContain('the user pool is in eu-west-1 and AWS_REGION is us-east-1: set AWS_REGION to the region deployed to');
      const notAPool = await staff(...args, 'my-pool');
      expect(notAPool.code).toBe(2);
      expect(notAPool.stderr).toContain('--user-pool-id my-pool is not a user pool id (<region>_<id>)');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('adds a person who signs in at once with the password printed once, and reaches the routes of the groups given', async () => {
    const added = await npmRunStaff('add', '--email', 'Nina@Insurer.example', '--group', 'finance', '--json');
    expect(added.code).toBe(0);
    const { email, password, groups } = JSON.parse(added.stdout) as { email: string; password: string; groups: string[] };
    expect({ email, groups }).toEqual({ email: 'nina@insurer.example', groups: ['finance'] });
    const token = await signInOverHttp(server.staff, { email, password });
    const auth = { authorization: `Bearer ${token}` };
    expect((await http('GET', `${server.baseUrl}/api/v2/admin/bordereaux/bx_000000000000000000000000`, { headers: auth })).status).toBe(404);
    expect((await http('GET', `${server.baseUrl}/api/v2/admin/claims`, { headers: auth })).status).toBe(403);
    // The same audit record as the console's add, the script named as the actor.
    const doc = createDocumentClient(process.env.DYNAMODB_ENDPOINT, loadConfig().region);
    const { records } = await new DynamoAuditLog(doc, loadConfig().tableName).page(10);
    doc.destroy();
    expect(records.filter((record) => record.action === 'staff.created')).toEqual([
      expect.objectContaining({ actor: { sub: 'npm-run-staff', email: null }, target: { type: 'staff', id: 'nina@insurer.example', detail: 'finance' } }),
    ]);
  });

  it('binds a merchant user to an existing client, whose portal routes it then reads', async () => {
    const added = await staff('add', '--email', 'sam@venue.example', '--group', 'merchant', '--client-id', server.demo.client_id, '--json');
    expect(added.code, added.stderr).toBe(0);
    const token = await signInOverHttp(server.staff, JSON.parse(added.stdout) as { email: string; password: string });
    expect((await http('GET', `${server.baseUrl}/api/v2/webhook_endpoints`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it('refuses a second account for one e-mail, a merchant without its client or with a malformed one, an unknown group and an unknown command, adding nobody', async () => {
    const again = await staff('add', '--email', 'nina@insurer.example', '--group', 'claims');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('can already sign in');
    const merchant = await staff('add', '--email', 'sam@venue.example', '--group', 'merchant');
    expect(merchant.code).toBe(2);
    expect(merchant.stderr).toContain('client_id: a merchant user is bound to one client');
    const unknown = await staff('add', '--email', 'x@insurer.example', '--group', 'root');
    expect(unknown.code).toBe(2);
    const noSuchClient = await staff('add', '--email', 'sam@venue.example', '--group', 'merchant', '--client-id', 'cl_AAAAAAAAAAAAAAAAAAAAAAAA');
    expect(noSuchClient.code).toBe(2);
    expect(noSuchClient.stderr).toContain('no client cl_AAAAAAAAAAAAAAAAAAAAAAAA');
    const [malformed, otherCommand, twice, help] = await Promise.all([
      staff('add', '--email', 'sam@venue.example', '--group', 'merchant', '--client-id', 'cl_nope'),
      staff('remove', '--email', 'nina@insurer.example'),
      staff('add', '--email', 'sam@venue.example', '--group', 'merchant', '--client-id', 'cl_nope', '--client-id', 'cl_AAAAAAAAAAAAAAAAAAAAAAAA'),
      staff('--help'),
    ]);
    expect([malformed.code, otherCommand.code, twice.code, help.code]).toEqual([2, 2, 2, 0]);
    expect(twice.stderr).toContain('--client-id is given twice');
    expect(help.stdout).toMatch(/^usage:\n {2}npm run staff -- add/);
    expect(malformed.stderr).toContain('client_id: "cl_nope" is not a client id (cl_…).');
    expect(otherCommand.stderr).toContain('unknown command "remove": the one command is add');
    await expect(signInOverHttp(server.staff, { email: 'x@insurer.example', password: 'x' })).rejects.toThrow('401');
  });
});
