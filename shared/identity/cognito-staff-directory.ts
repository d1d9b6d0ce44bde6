import {
  AdminAddUserToGroupCommand,
  AdminDeleteUserCommand,
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminListGroupsForUserCommand,
  ListUsersCommand,
  UsernameExistsException,
  UserNotFoundException,
  type AttributeType,
  type CognitoIdentityProviderClient,
  type UserType,
} from '@aws-sdk/client-cognito-identity-provider';
import { ConflictError } from '../platform/errors.js';
import { isStaffRole, type StaffRole } from '../platform/staff.js';
import { STAFF_EXISTS_MESSAGE, type NewStaffUser, type StaffDirectory, type StaffMember, type StaffStatus } from './staff-users.js';

/** The user pool's attribute that binds a merchant user to its client (the pre-token trigger copies it into the access token). */
export const CLIENT_ID_ATTRIBUTE = 'custom:client_id';
/** ListUsers answers at most 60 users a call (Cognito's limit): the largest page of the staff list. */
export const MAX_COGNITO_PAGE = 60;
/** A person is in at most one group per role: one AdminListGroupsForUser call of this many covers them. */
const GROUPS_PER_CALL = 60;

/** What the staff function calls on the pool: lib/api-stack.ts grants exactly these, on that pool only. */
export const COGNITO_STAFF_ACTIONS = [
  'AdminCreateUser',
  'AdminAddUserToGroup',
  'AdminDeleteUser',
  'AdminGetUser',
  'ListUsers',
  'AdminListGroupsForUser',
] as const;

const attribute = (attributes: AttributeType[] | undefined, name: string) => attributes?.find((a) => a.Name === name)?.Value;

function statusOf(user: UserType): StaffStatus {
  if (user.Enabled === false) return 'disabled';
  return user.UserStatus === 'FORCE_CHANGE_PASSWORD' ? 'invited' : 'active';
}

/**
 * The deployed directory: the Cognito user pool. The person's username is their e-mail address;
 * Cognito e-mails them a temporary password and asks for a new one (and MFA) at first sign-in.
 */
export class CognitoStaffDirectory implements StaffDirectory {
  readonly invitation = 'email' as const;

  constructor(
    private readonly cognito: CognitoIdentityProviderClient,
    private readonly userPoolId: string,
  ) {}

  async exists(email: string): Promise<boolean> {
    try {
      await this.cognito.send(new AdminGetUserCommand({ UserPoolId: this.userPoolId, Username: email }));
      return true;
    } catch (err) {
      if (err instanceof UserNotFoundException) return false;
      throw err;
    }
  }

  async add(user: NewStaffUser): Promise<{ sub: string; status: StaffStatus }> {
    let created;
    try {
      created = await this.cognito.send(
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
    } catch (err) {
      if (err instanceof UsernameExistsException) throw new ConflictError('staff_user_exists', STAFF_EXISTS_MESSAGE(user.email), 'email');
      throw err;
    }
    const sub = attribute(created.User?.Attributes, 'sub');
    if (!sub) throw new Error('Cognito created the user without a sub');
    // A person is made whole or not at all: when a group cannot be added, the user just created is
    // deleted again (before Cognito's invitation is of use), so a retry adds them afresh instead of
    // meeting 409 for a person with only some of their groups.
    try {
      for (const group of user.groups) {
        await this.cognito.send(new AdminAddUserToGroupCommand({ UserPoolId: this.userPoolId, Username: user.email, GroupName: group }));
      }
    } catch (err) {
      await this.cognito.send(new AdminDeleteUserCommand({ UserPoolId: this.userPoolId, Username: user.email }));
      throw err;
    }
    return { sub, status: created.User ? statusOf(created.User) : 'invited' };
  }

  /** ListUsers a page at a time (its PaginationToken is the position), then each listed person's groups (one call each, at most 60 a page). */
  async page(limit: number, after?: string): Promise<{ users: StaffMember[]; next?: string }> {
    const listed = await this.cognito.send(
      new ListUsersCommand({ UserPoolId: this.userPoolId, Limit: Math.min(limit, MAX_COGNITO_PAGE), ...(after ? { PaginationToken: after } : {}) }),
    );
    const users = await Promise.all(
      (listed.Users ?? []).map(async (user): Promise<StaffMember> => {
        const { Groups = [] } = await this.cognito.send(
          new AdminListGroupsForUserCommand({ UserPoolId: this.userPoolId, Username: user.Username!, Limit: GROUPS_PER_CALL }),
        );
        const clientId = attribute(user.Attributes, CLIENT_ID_ATTRIBUTE);
        return {
          sub: attribute(user.Attributes, 'sub') ?? user.Username!,
          email: attribute(user.Attributes, 'email') ?? user.Username!,
          groups: Groups.map((group) => group.GroupName ?? '').filter((name): name is StaffRole => isStaffRole(name)),
          ...(clientId ? { clientId } : {}),
          status: statusOf(user),
        };
      }),
    );
    return { users, ...(listed.PaginationToken ? { next: listed.PaginationToken } : {}) };
  }
}
