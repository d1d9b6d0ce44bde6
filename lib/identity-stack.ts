import { Aws, CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import {
  AccountRecovery,
  FeaturePlan,
  LambdaVersion,
  ManagedLoginVersion,
  Mfa,
  ResourceServerScope,
  StringAttribute,
  UserPool,
  type UserPoolDomain,
  UserPoolOperation,
  type UserPoolResourceServer,
} from 'aws-cdk-lib/aws-cognito';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { ROLE_DUTIES, SCOPE_PREFIX, STAFF_ROLES, type StaffRole } from '#shared/platform/staff.js';
import { ServiceFunction } from './service-function.js';

/** The functions this stack deploys, not the API stack: the pool's trigger lives beside the pool (no cross-stack cycle). */
export const IDENTITY_FUNCTIONS = ['staff-token-claims'] as const;

/** The resource server's identifier: the scopes are `order-protection/<role>` (shared/platform/staff.ts SCOPE_PREFIX). */
export const RESOURCE_SERVER_ID = SCOPE_PREFIX.replace(/\/$/, '');

/** The roles a script may be granted by scope (client credentials). `merchant` is not one: merchants' back-ends use their API keys. */
export const SCRIPT_ROLES: readonly StaffRole[] = ['claims', 'finance', 'admin'];

/** The custom attribute binding a merchant user to one client (`custom:client_id`; functions/staff-token-claims copies it into the access token). */
export const MERCHANT_CLIENT_ATTRIBUTE = 'client_id';

/** Password rules of the pool: long, of four kinds of character, none of the last five again; an invitation's temporary password lasts three days. */
export const PASSWORD_POLICY = { minLength: 14, historySize: 5, temporaryPasswordDays: 3 } as const;

/**
 * The staff sign-in: one Cognito user pool for people (operators' staff and merchant users), its
 * groups (one per role), the hosted sign-in domain, the `order-protection` resource server whose
 * scopes the scripts' client is granted, and the pre-token-generation trigger. It holds people,
 * so like the data stack it is retained and protected from deletion; the app clients (whose
 * callback URLs name the CloudFront distribution) are made by the API stack, downstream of it.
 */
export class IdentityStack extends Stack {
  readonly userPool: UserPool;
  readonly domain: UserPoolDomain;
  readonly resourceServer: UserPoolResourceServer;
  readonly tokenClaims: ServiceFunction;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    this.userPool = new UserPool(this, 'StaffPool', {
      // Accounts are made by an administrator (npm run staff, AdminCreateUser), never by sign-up.
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      // MFA is per pool in Cognito: required for everyone, staff and merchant users alike (a
      // merchant user reads money and rotates webhook secrets). An authenticator app (TOTP) only:
      // no SMS, so no SMS role and no phone numbers kept.
      mfa: Mfa.REQUIRED,
      mfaSecondFactor: { otp: true, sms: false },
      passwordPolicy: {
        minLength: PASSWORD_POLICY.minLength,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(PASSWORD_POLICY.temporaryPasswordDays),
        passwordHistorySize: PASSWORD_POLICY.historySize,
      },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      standardAttributes: { email: { required: true, mutable: true } },
      // Set at creation by an administrator, never changed (a user moving to another client is a new user).
      customAttributes: { [MERCHANT_CLIENT_ATTRIBUTE]: new StringAttribute({ minLen: 1, maxLen: 64, mutable: false }) },
      // Essentials: the plan whose pre-token-generation trigger (event version 2) may add claims to the access token.
      featurePlan: FeaturePlan.ESSENTIALS,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    NagSuppressions.addResourceSuppressions(this.userPool, [
      {
        id: 'AwsSolutions-COG8',
        reason:
          'Threat protection (adaptive authentication, compromised-credential checks) needs the Plus plan; Essentials is chosen for the access-token trigger. Accounts are made by an administrator only, MFA (TOTP) is required of everyone and passwords are 14+ characters of four kinds.',
      },
    ]);

    for (const role of STAFF_ROLES) {
      this.userPool.addGroup(`${role[0]!.toUpperCase()}${role.slice(1)}Group`, { groupName: role, description: ROLE_DUTIES[role].slice(0, 2048) });
    }

    this.resourceServer = this.userPool.addResourceServer('Api', {
      identifier: RESOURCE_SERVER_ID,
      userPoolResourceServerName: 'Order Protection API',
      scopes: SCRIPT_ROLES.map((role) => new ResourceServerScope({ scopeName: role, scopeDescription: ROLE_DUTIES[role].slice(0, 256) })),
    });

    // The hosted sign-in (authorization code + PKCE), at <prefix>.auth.<region>.amazoncognito.com.
    // The prefix is global per Region: `-c signInDomainPrefix=...` names another.
    const prefix = (this.node.tryGetContext('signInDomainPrefix') as string | undefined) ?? `order-protection-${Aws.ACCOUNT_ID}`;
    this.domain = this.userPool.addDomain('SignIn', { cognitoDomain: { domainPrefix: prefix }, managedLoginVersion: ManagedLoginVersion.CLASSIC_HOSTED_UI });

    const [tokenClaims] = IDENTITY_FUNCTIONS;
    this.tokenClaims = new ServiceFunction(this, tokenClaims, { name: tokenClaims });
    this.userPool.addTrigger(UserPoolOperation.PRE_TOKEN_GENERATION_CONFIG, this.tokenClaims.fn, LambdaVersion.V2_0);

    new CfnOutput(this, 'StaffUserPoolId', { value: this.userPool.userPoolId });
    new CfnOutput(this, 'StaffIssuer', { value: this.userPool.userPoolProviderUrl });
    new CfnOutput(this, 'SignInDomain', { value: this.domain.baseUrl() });
  }
}
