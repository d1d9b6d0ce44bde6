import { AdminAddUserToGroupCommand, AdminCreateUserCommand, type CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import type { NewStaffUser, StaffDirectory } from './staff-users.js';

/** The user pool's attribute that binds a merchant user to its client (the pre-token trigger copies it into the access token). */
export const CLIENT_ID_ATTRIBUTE = 'custom:client_id';

/**
 * The deployed directory: the Cognito user pool. The person's username is their e-mail address;
 * Cognito e-mails them a temporary password and asks for a new one (and MFA) at first sign-in.
 */
export class CognitoStaffDirectory implements StaffDirectory {
  constructor(
    private readonly cognito: CognitoIdentityProviderClient,
    private readonly userPoolId: string,
  ) {}

  async add(user: NewStaffUser): Promise<{ sub: string }> {
    const created = await this.cognito.send(
      new AdminCreateUserCommand({
        UserPoolId: this.userPoolId,
        Username: user.email,
        DesiredDeliveryMediums: ['EMAIL'],
        UserAttributes: [
          { Name: 'email', Value: user.email },
          { Name: 'email_verified', Value: 'true' },
          ...(user.clientId ? [{ Name: CLIENT_ID_ATTRIBUTE, Value: user.clientId }] : []),
        ],
      }),
    );
    const sub = created.User?.Attributes?.find((attribute) => attribute.Name === 'sub')?.Value;
    if (!sub) throw new Error('Cognito created the user without a sub');
    for (const group of user.groups) {
      await this.cognito.send(new AdminAddUserToGroupCommand({ UserPoolId: this.userPoolId, Username: user.email, GroupName: group }));
    }
    return { sub };
  }
}
