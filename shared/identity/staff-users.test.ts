import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { describe, expect, it } from 'vitest';
import { CognitoStaffDirectory } from './cognito-staff-directory.js';
import { validateNewStaffUser } from './staff-users.js';

describe('a new sign-in', () => {
  const client = 'cl_abcdefghijklmnopqrstuvwx';
  it('is staff in known groups, or a merchant user of one client, never both', () => {
    expect(validateNewStaffUser({ email: ' Ann@Insurer.example ', groups: ['claims', 'finance', 'claims'] })).toEqual({
      email: 'ann@insurer.example',
      groups: ['claims', 'finance'],
    });
    expect(validateNewStaffUser({ email: 'sam@venue.example', groups: ['merchant'], clientId: client })).toEqual({
      email: 'sam@venue.example',
      groups: ['merchant'],
      clientId: client,
    });
    const refused = (input: Parameters<typeof validateNewStaffUser>[0], param: string) =>
      expect(() => validateNewStaffUser(input)).toThrow(expect.objectContaining({ status: 422, param }));
    refused({ email: 'not-an-address', groups: ['claims'] }, 'email');
    // What a console would show as markup, what Cognito refuses, what a mailer might read otherwise.
    for (const email of [
      '<script>alert(1)</script>@x.example',
      'é@exämple.com',
      'a\u0000b@insurer.example',
      '"a b"@insurer.example',
      'a..b@insurer.example',
      'ann@insurer',
      `${'a'.repeat(113)}@insurer.example`,
    ])
      refused({ email, groups: ['claims'] }, 'email');
    expect(validateNewStaffUser({ email: `${'a'.repeat(112)}@insurer.example`, groups: ['claims'] }).email).toHaveLength(128);
    expect(validateNewStaffUser({ email: "o'neil+claims@xn--exmple-cua.example", groups: ['claims'] }).email).toBe("o'neil+claims@xn--exmple-cua.example");
    refused({ email: 'ann@insurer.example', groups: [] }, 'groups');
    refused({ email: 'ann@insurer.example', groups: ['root'] }, 'groups');
    refused({ email: 'sam@venue.example', groups: ['merchant'] }, 'client_id');
    refused({ email: 'sam@venue.example', groups: ['merchant', 'claims'], clientId: client }, 'groups');
    refused({ email: 'ann@insurer.example', groups: ['claims'], clientId: client }, 'client_id');
  });
});

describe('the Cognito directory', () => {
  it('creates the user by e-mail (Cognito sends the temporary password), binds a merchant to its client, and adds each group', async () => {
    const cognito = new CognitoIdentityProviderClient({ region: 'eu-west-1', credentials: { accessKeyId: 'x', secretAccessKey: 'y' } });
    const sent: { name: string; input: Record<string, unknown> }[] = [];
    // No request leaves the process: the last step before sending answers as Cognito would.
    cognito.middlewareStack.add(
      (_next, context) => async (args) => {
        sent.push({ name: context.commandName!, input: args.input as Record<string, unknown> });
        const output =
          context.commandName === 'AdminCreateUserCommand'
            ? { User: { UserStatus: 'FORCE_CHANGE_PASSWORD', Attributes: [{ Name: 'sub', Value: 'uuid-1' }] } }
            : {};
        return { output: { ...output, $metadata: {} }, response: {} };
      },
      { step: 'initialize', name: 'answerAsCognito' },
    );
    const added = await new CognitoStaffDirectory(cognito, 'eu-west-1_pool').add({ email: 'sam@venue.example', groups: ['merchant'], clientId: 'cl_1' });
    expect(added).toEqual({ sub: 'uuid-1', status: 'invited' });
    expect(sent.map((s) => s.name)).toEqual(['AdminCreateUserCommand', 'AdminAddUserToGroupCommand']);
    expect(sent[0]!.input).toMatchObject({
      UserPoolId: 'eu-west-1_pool',
      Username: 'sam@venue.example',
      DesiredDeliveryMediums: ['EMAIL'],
      UserAttributes: expect.arrayContaining([{ Name: 'custom:client_id', Value: 'cl_1' }]),
    });
    expect(sent[0]!.input).not.toHaveProperty('TemporaryPassword');
    expect(sent[1]!.input).toEqual({ UserPoolId: 'eu-west-1_pool', Username: 'sam@venue.example', GroupName: 'merchant' });
  });
});
