import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CognitoIdentityProviderClient,
  UsernameExistsException,
  UserNotFoundException,
  type ServiceInputTypes,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, describe, expect, it } from 'vitest';
import type { StaffIdentity } from '../platform/staff.js';
import type { AuditRecord } from './audit.js';
import { CognitoStaffDirectory } from './cognito-staff-directory.js';
import { addStaffUser, listStaff } from './manage-staff.js';
import { FileStaffDirectory, MAX_LOCAL_STAFF, readStaffFile, writeStaffFile } from './staff-file.js';

const dir = mkdtempSync(join(tmpdir(), 'staff-directory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
async function staffFile(users: { email: string }[] = []): Promise<string> {
  const path = join(dir, `staff-${++files}.json`);
  await writeStaffFile(path, {
    issuer: 'http://127.0.0.1:1',
    client_id: 'pages',
    redirect_uri: 'http://localhost/admin/',
    portal_redirect_uri: 'http://localhost/portal/',
    users: users.map((user, i) => ({ sub: `u-${i}`, password: `pw-${i}`, groups: ['claims'], ...user })),
  });
  return path;
}

describe("npm start's directory (.local/staff.json)", () => {
  it('adds a person with a new password written to the file only (readable by its owner only), and keeps what was there', async () => {
    const path = await staffFile([{ email: 'ada@insurer.example' }]);
    const directory = new FileStaffDirectory(path);
    const added = await directory.add({ email: 'sam@venue.example', groups: ['merchant'], clientId: 'cl_1' });
    expect(added).toEqual({ sub: expect.stringMatching(/^[0-9a-f-]{36}$/), password: expect.stringMatching(/^[\w-]{16}$/), status: 'active' });
    const file = await readStaffFile(path);
    expect(file.issuer).toBe('http://127.0.0.1:1');
    expect(file.users.map((user) => user.email)).toEqual(['ada@insurer.example', 'sam@venue.example']);
    expect(file.users[1]).toEqual({ sub: added.sub, email: 'sam@venue.example', password: added.password, groups: ['merchant'], client_id: 'cl_1' });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(await directory.exists('SAM@venue.example')).toBe(true);
    expect(await directory.exists('nobody@venue.example')).toBe(false);
  });

  it('refuses an e-mail it holds (409 staff_user_exists), and adds people asked at once one after the other, none lost', async () => {
    const directory = new FileStaffDirectory(await staffFile([{ email: 'ada@insurer.example' }]));
    await expect(directory.add({ email: 'ada@insurer.example', groups: ['admin'] })).rejects.toMatchObject({
      status: 409,
      code: 'staff_user_exists',
      param: 'email',
    });
    const emails = Array.from({ length: 8 }, (_, i) => `p${i}@insurer.example`);
    await Promise.all(emails.map((email) => directory.add({ email, groups: ['claims'] })));
    const page = await directory.page(MAX_LOCAL_STAFF);
    expect(page.users.map((user) => user.email).sort()).toEqual(['ada@insurer.example', ...emails].sort());
  });

  it('pages in the order people were added, and lists no password', async () => {
    const directory = new FileStaffDirectory(await staffFile([{ email: 'a@x.example' }, { email: 'b@x.example' }, { email: 'c@x.example' }]));
    const first = await directory.page(2);
    expect(first).toEqual({
      users: [
        { sub: 'u-0', email: 'a@x.example', groups: ['claims'], status: 'active' },
        { sub: 'u-1', email: 'b@x.example', groups: ['claims'], status: 'active' },
      ],
      next: '2',
    });
    expect(await directory.page(2, first.next)).toEqual({ users: [{ sub: 'u-2', email: 'c@x.example', groups: ['claims'], status: 'active' }] });
  });
});

/** A Cognito client whose requests never leave the process: the last step before sending answers as `answer` says (as staff-users.test.ts does). */
function stubbedCognito(answer: (name: string, input: ServiceInputTypes) => object) {
  const cognito = new CognitoIdentityProviderClient({ region: 'eu-west-1', credentials: { accessKeyId: 'x', secretAccessKey: 'y' } });
  const sent: { name: string; input: ServiceInputTypes }[] = [];
  cognito.middlewareStack.add(
    (_next, context) => async (args) => {
      sent.push({ name: context.commandName!, input: args.input });
      return { output: { ...answer(context.commandName!, args.input), $metadata: {} }, response: {} };
    },
    { step: 'initialize', name: 'answerAsCognito' },
  );
  return { cognito, sent };
}

describe('the Cognito directory', () => {
  it('tells whether someone signs in with an e-mail (AdminGetUser; not found: no)', async () => {
    const { cognito } = stubbedCognito((_name, input) => {
      if ((input as { Username: string }).Username === 'ada@insurer.example') return { Username: 'ada@insurer.example' };
      throw new UserNotFoundException({ message: 'User does not exist.', $metadata: {} });
    });
    const directory = new CognitoStaffDirectory(cognito, 'eu-west-1_pool');
    expect(await directory.exists('ada@insurer.example')).toBe(true);
    expect(await directory.exists('nobody@insurer.example')).toBe(false);
  });

  it("answers 409 staff_user_exists for Cognito's UsernameExistsException, adding no group", async () => {
    const { cognito, sent } = stubbedCognito(() => {
      throw new UsernameExistsException({ message: 'An account with the given email already exists.', $metadata: {} });
    });
    await expect(new CognitoStaffDirectory(cognito, 'eu-west-1_pool').add({ email: 'ada@insurer.example', groups: ['admin'] })).rejects.toMatchObject({
      status: 409,
      code: 'staff_user_exists',
    });
    expect(sent.map((s) => s.name)).toEqual(['AdminCreateUserCommand']);
  });

  it('deletes the person again when a group cannot be added, so that a retry adds them whole (no half-made person)', async () => {
    const { cognito, sent } = stubbedCognito((name, input) => {
      if (name === 'AdminCreateUserCommand')
        return { User: { Username: 'ada@insurer.example', Attributes: [{ Name: 'sub', Value: 'u-ada' }], UserStatus: 'FORCE_CHANGE_PASSWORD' } };
      if (name === 'AdminAddUserToGroupCommand' && (input as { GroupName: string }).GroupName === 'finance') throw new Error('throttled');
      return {};
    });
    await expect(new CognitoStaffDirectory(cognito, 'eu-west-1_pool').add({ email: 'ada@insurer.example', groups: ['claims', 'finance'] })).rejects.toThrow(
      'throttled',
    );
    expect(sent.map((s) => s.name)).toEqual(['AdminCreateUserCommand', 'AdminAddUserToGroupCommand', 'AdminAddUserToGroupCommand', 'AdminDeleteUserCommand']);
    expect(sent.at(-1)!.input).toEqual({ UserPoolId: 'eu-west-1_pool', Username: 'ada@insurer.example' });
  });

  it("lists a page of ListUsers with each person's groups (AdminListGroupsForUser), client and status; the pagination token is the position", async () => {
    const { cognito, sent } = stubbedCognito((name, input) => {
      if (name === 'ListUsersCommand')
        return {
          PaginationToken: 'token-2',
          Users: [
            {
              Username: 'u1',
              Enabled: true,
              UserStatus: 'FORCE_CHANGE_PASSWORD',
              Attributes: [
                { Name: 'sub', Value: 's1' },
                { Name: 'email', Value: 'ann@insurer.example' },
              ],
            },
            {
              Username: 'u2',
              Enabled: false,
              UserStatus: 'CONFIRMED',
              Attributes: [
                { Name: 'sub', Value: 's2' },
                { Name: 'email', Value: 'sam@venue.example' },
                { Name: 'custom:client_id', Value: 'cl_1' },
              ],
            },
          ],
        };
      const user = (input as { Username: string }).Username;
      return { Groups: user === 'u1' ? [{ GroupName: 'claims' }, { GroupName: 'finance' }, { GroupName: 'not-a-role' }] : [{ GroupName: 'merchant' }] };
    });
    const page = await new CognitoStaffDirectory(cognito, 'eu-west-1_pool').page(500, 'token-1');
    expect(page).toEqual({
      users: [
        { sub: 's1', email: 'ann@insurer.example', groups: ['claims', 'finance'], status: 'invited' },
        { sub: 's2', email: 'sam@venue.example', groups: ['merchant'], clientId: 'cl_1', status: 'disabled' },
      ],
      next: 'token-2',
    });
    expect(sent[0]).toEqual({ name: 'ListUsersCommand', input: { UserPoolId: 'eu-west-1_pool', Limit: 60, PaginationToken: 'token-1' } });
  });
});

describe('adding a person (the API and the CLI alike)', () => {
  const actor: StaffIdentity = { sub: 'u-ada', email: 'ada@insurer.example', roles: ['admin'], kind: 'person' };
  function deps(path: string, clients: Record<string, { disabled: boolean }> = {}, failAudit = false) {
    const records: AuditRecord[] = [];
    const reserved = new Set<string>();
    return {
      records,
      deps: {
        directory: new FileStaffDirectory(path),
        clients: { status: (id: string) => Promise.resolve(clients[id]) },
        // The reservation as DynamoDB keeps it (a record is written only while no other request has the name reserved).
        audit: {
          writeReserving: (record: AuditRecord, reservation: { name: string }) => {
            if (failAudit) return Promise.reject(new Error('DynamoDB unavailable'));
            if (reserved.has(reservation.name)) return Promise.resolve(false);
            reserved.add(reservation.name);
            records.push(record);
            return Promise.resolve(true);
          },
        },
        now: () => new Date('2026-11-27T10:00:00.000Z'),
        newAuditId: () => 'aud_000000000000000000000001',
      },
    };
  }

  it('writes the audit record first, then adds the person; the answer holds no password but the caller gets it', async () => {
    const path = await staffFile();
    const { deps: d, records } = deps(path, { cl_AAAAAAAAAAAAAAAAAAAAAAAA: { disabled: false } });
    const added = await addStaffUser(d, actor, { email: 'sam@venue.example', groups: ['merchant'], clientId: 'cl_AAAAAAAAAAAAAAAAAAAAAAAA' });
    expect(added.view).toEqual({ email: 'sam@venue.example', groups: ['merchant'], client_id: 'cl_AAAAAAAAAAAAAAAAAAAAAAAA', status: 'active' });
    expect(added.password).toBeDefined();
    expect(records).toEqual([
      {
        audit_id: 'aud_000000000000000000000001',
        at: '2026-11-27T10:00:00.000Z',
        actor: { sub: 'u-ada', email: 'ada@insurer.example' },
        action: 'staff.created',
        target: { type: 'staff', id: 'sam@venue.example', detail: 'merchant of cl_AAAAAAAAAAAAAAAAAAAAAAAA' },
      },
    ]);
  });

  it('adds nobody when the audit record cannot be written', async () => {
    const path = await staffFile();
    await expect(addStaffUser(deps(path, {}, true).deps, actor, { email: 'ann@insurer.example', groups: ['claims'] })).rejects.toThrow('DynamoDB unavailable');
    expect((await readStaffFile(path)).users).toEqual([]);
  });

  it('refuses an unknown or disabled client and an e-mail that signs in already before writing anything', async () => {
    const path = await staffFile([{ email: 'ann@insurer.example' }]);
    const { deps: d, records } = deps(path, { cl_BBBBBBBBBBBBBBBBBBBBBBBB: { disabled: true } });
    const merchant = (clientId: string) => addStaffUser(d, actor, { email: 'sam@venue.example', groups: ['merchant'], clientId });
    await expect(merchant('cl_AAAAAAAAAAAAAAAAAAAAAAAA')).rejects.toMatchObject({
      status: 422,
      param: 'client_id',
      message: expect.stringContaining('no client'),
    });
    await expect(merchant('cl_BBBBBBBBBBBBBBBBBBBBBBBB')).rejects.toMatchObject({
      status: 422,
      param: 'client_id',
      message: expect.stringContaining('disabled'),
    });
    await expect(addStaffUser(d, actor, { email: 'Ann@Insurer.example', groups: ['finance'] })).rejects.toMatchObject({
      status: 409,
      code: 'staff_user_exists',
    });
    expect(records).toEqual([]);
    expect((await readStaffFile(path)).users).toHaveLength(1);
  });

  it('of two adds of one e-mail at once, records and adds one; the other is 409 staff_user_exists with no record', async () => {
    const path = await staffFile();
    const { deps: d, records } = deps(path);
    const answers = await Promise.allSettled([
      addStaffUser(d, actor, { email: 'race@insurer.example', groups: ['claims'] }),
      addStaffUser(d, actor, { email: 'Race@Insurer.example', groups: ['admin'] }),
    ]);
    // Either may win: the winner's groups are the ones recorded and stored, the other is refused.
    expect(answers.map((answer) => answer.status).sort()).toEqual(['fulfilled', 'rejected']);
    const winner = answers.findIndex((answer) => answer.status === 'fulfilled');
    const groups = [['claims'], ['admin']][winner];
    expect((answers[1 - winner] as PromiseRejectedResult).reason).toMatchObject({ status: 409, code: 'staff_user_exists' });
    expect(records.map((record) => record.target.detail)).toEqual(groups);
    expect((await readStaffFile(path)).users.map((user) => user.groups)).toEqual([groups]);
  });

  it('lists through sealed cursors, at most 60 a page', async () => {
    const path = await staffFile(Array.from({ length: 61 }, (_, i) => ({ email: `p${i}@x.example` })));
    const sealed: string[] = [];
    const cursors = { seal: (p: string) => Promise.resolve(`sealed:${sealed.push(p) && p}`), open: (c: string) => Promise.resolve(c.replace('sealed:', '')) };
    const first = await listStaff({ directory: new FileStaffDirectory(path), cursors }, { limit: 100 });
    expect(first.users).toHaveLength(60);
    expect(first.nextCursor).toBe('sealed:60');
    const second = await listStaff({ directory: new FileStaffDirectory(path), cursors }, { limit: 100, cursor: first.nextCursor });
    expect(second).toEqual({ users: [{ email: 'p60@x.example', groups: ['claims'], status: 'active' }] });
  });
});
