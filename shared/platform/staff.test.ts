import { describe, expect, it } from 'vitest';
import { ForbiddenRoleError, requireRole, staffFromClaims } from './staff.js';

describe('staffFromClaims', () => {
  const person = { sub: 'u-1', token_use: 'access', email: 'ann@insurer.example', 'cognito:groups': ['claims', 'finance'] };

  it('reads a person’s groups as a list (npm start) and as API Gateway hands a list claim on, "[a b]"', () => {
    expect(staffFromClaims(person)).toEqual({ sub: 'u-1', email: 'ann@insurer.example', roles: ['claims', 'finance'], kind: 'person' });
    expect(staffFromClaims({ ...person, 'cognito:groups': '[claims finance]' })?.roles).toEqual(['claims', 'finance']);
  });

  it('reads a script’s roles from its scopes, and only the service’s own scopes', () => {
    const script = { sub: 'client-9', client_id: 'client-9', token_use: 'access', scope: 'order-protection/finance other/admin openid' };
    expect(staffFromClaims(script)).toEqual({ sub: 'client-9', roles: ['finance'], kind: 'script' });
  });

  it('never gives a person a role from a scope (only a client-credentials token, whose subject is its client)', () => {
    const asked = { sub: 'u-1', client_id: 'pages-client', token_use: 'access', email: 'eve@insurer.example', scope: 'openid order-protection/admin' };
    expect(staffFromClaims(asked)).toEqual({ sub: 'u-1', email: 'eve@insurer.example', roles: [], kind: 'person' });
    expect(staffFromClaims({ ...asked, 'cognito:groups': ['claims'] })?.roles).toEqual(['claims']);
  });

  it('ignores unknown groups, and binds a merchant user to the client its token names', () => {
    const merchant = { sub: 'u-2', token_use: 'access', email: 'sam@venue.example', 'cognito:groups': ['merchant', 'superuser'], merchant_client_id: 'cl_1' };
    expect(staffFromClaims(merchant)).toMatchObject({ roles: ['merchant'], merchantClientId: 'cl_1' });
  });

  it('refuses an ID token (its audience would pass a JWT authorizer) and a token without a subject', () => {
    expect(staffFromClaims({ ...person, token_use: 'id' })).toBeUndefined();
    expect(staffFromClaims({ ...person, token_use: undefined })).toBeUndefined();
    expect(staffFromClaims({ ...person, sub: '' })).toBeUndefined();
    expect(staffFromClaims(undefined)).toBeUndefined();
  });
});

describe('requireRole', () => {
  const finance = { sub: 'u-1', roles: ['finance' as const], kind: 'person' as const };
  it('answers 401 without an identity and 403 forbidden_role without the role', () => {
    expect(() => requireRole(undefined, ['claims'])).toThrow(expect.objectContaining({ status: 401, code: 'operator_credentials_required' }));
    expect(() => requireRole(finance, ['claims'])).toThrow(expect.objectContaining({ status: 403, code: 'forbidden_role' }));
    expect(requireRole(finance, ['claims', 'finance'])).toBe(finance);
  });

  it('names the roles a refusal needs as a person reads them', () => {
    expect(new ForbiddenRoleError(['finance']).message).toBe('This needs the finance role, which your account does not have.');
    expect(new ForbiddenRoleError(['claims', 'finance']).message).toBe('This needs the claims or finance role, which your account does not have.');
    expect(new ForbiddenRoleError(['claims', 'finance', 'admin']).message).toBe(
      'This needs one of the claims, finance or admin roles, which your account does not have.',
    );
  });
});
