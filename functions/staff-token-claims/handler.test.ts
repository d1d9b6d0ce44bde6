import type { PreTokenGenerationV2TriggerEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { staffFromClaims } from '#shared/platform/staff.js';
import { accessTokenClaims, handler } from './handler.js';

const event = (userAttributes: Record<string, string>): PreTokenGenerationV2TriggerEvent => ({
  version: '2',
  region: 'eu-west-1',
  userPoolId: 'eu-west-1_pool',
  userName: 'user-1',
  callerContext: { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId: 'pages-client' },
  triggerSource: 'TokenGeneration_HostedAuth',
  request: { userAttributes, groupConfiguration: { groupsToOverride: ['merchant'] } },
  response: { claimsAndScopeOverrideDetails: {} },
});

describe('staff-token-claims (pre-token-generation trigger)', () => {
  it("adds a merchant user's e-mail and client to the access token, which staffFromClaims then reads", async () => {
    const answered = await handler(event({ sub: 'u-1', email: 'shop@example.com', 'custom:client_id': 'cl_demo' }));
    const added = answered.response.claimsAndScopeOverrideDetails.accessTokenGeneration!.claimsToAddOrOverride!;
    expect(added).toEqual({ email: 'shop@example.com', merchant_client_id: 'cl_demo' });
    // What API Gateway's JWT authorizer would hand on: Cognito's own claims plus these.
    const identity = staffFromClaims({ token_use: 'access', sub: 'u-1', 'cognito:groups': ['merchant'], ...added });
    expect(identity).toMatchObject({ email: 'shop@example.com', merchantClientId: 'cl_demo', roles: ['merchant'], kind: 'person' });
  });

  it('adds only the e-mail for staff, who have no client', () => {
    expect(accessTokenClaims({ sub: 'u-2', email: 'claims@example.com', email_verified: 'true' })).toEqual({ email: 'claims@example.com' });
  });

  it('adds nothing when the attributes are absent or empty, and never passes other attributes on', () => {
    expect(accessTokenClaims({ sub: 'u-3', 'custom:client_id': '', phone_number: '+15550100' })).toEqual({});
  });

  it("takes the service's role scopes out of a person's access token, so a role comes only from a group", async () => {
    const asked = event({ email: 'claims@example.com' });
    asked.request.scopes = ['openid', 'email', 'order-protection/admin', 'order-protection/finance'];
    const answered = await handler(asked);
    const access = answered.response.claimsAndScopeOverrideDetails.accessTokenGeneration!;
    expect(access.scopesToSuppress).toEqual(['order-protection/admin', 'order-protection/finance']);
    // The second lock: even unsuppressed, a scope on a person's token (its subject is not its client) grants no role.
    expect(
      staffFromClaims({ token_use: 'access', sub: 'u-4', client_id: 'pages', 'cognito:groups': ['claims'], scope: 'openid order-protection/admin' })?.roles,
    ).toEqual(['claims']);
    const plain = await handler(event({ email: 'claims@example.com' }));
    expect(plain.response.claimsAndScopeOverrideDetails.accessTokenGeneration!.scopesToSuppress).toBeUndefined();
  });

  it('leaves the ID token as Cognito makes it', async () => {
    const answered = await handler(event({ email: 'admin@example.com' }));
    expect(answered.response.claimsAndScopeOverrideDetails.idTokenGeneration).toBeUndefined();
  });
});
