/**
 * Identity: who is signed in and what they may do. Staff and merchant users sign in with OpenID
 * Connect; their access tokens are verified (deployed by API Gateway's JWT authorizer on the admin
 * routes, by the merchant routes' authorizer for merchant users; locally by npm start's gateway)
 * and their roles checked here. Every staff action leaves an audit record, written in the
 * change's own transaction by the store that makes the change.
 */
export {
  STAFF_ROLES,
  ROLE_DUTIES,
  SCOPE_PREFIX,
  GROUPS_CLAIM,
  MERCHANT_CLIENT_CLAIM,
  isStaffRole,
  staffFromClaims,
  requireRole,
  actorLabel,
  ForbiddenRoleError,
  staffSignInRequired,
  type StaffRole,
  type StaffIdentity,
  type TokenClaims,
} from '../platform/staff.js';
export { staffTokenVerifier, issuerOf, type StaffIssuer } from './staff-tokens.js';
export { auditRecordOf, newAuditId, AUDIT_ACTIONS, AUDIT_PAGE_SIZE, type AuditAction, type AuditRecord } from './audit.js';
export { auditPut, DynamoAuditLog } from './dynamo-audit-log.js';
export type { AuditLog } from './ports.js';
export { readAudit, type AuditDeps } from './read-audit.js';
export { AuditQuery, AddStaffRequest, StaffQuery } from './schemas.js';
export { staffIssuerFromEnv } from './staff-issuer.js';
export { authorizeMerchantUser, type MerchantUserDeps, type MerchantUserCheck } from './merchant-users.js';
export {
  validateNewStaffUser,
  MAX_EMAIL_LENGTH,
  STAFF_EXISTS_MESSAGE,
  type NewStaffUser,
  type StaffDirectory,
  type StaffMember,
  type StaffStatus,
} from './staff-users.js';
export { addStaffUser, listStaff, staffView, MAX_STAFF_PAGE, type AddStaffDeps, type ListStaffDeps, type StaffView } from './manage-staff.js';
export { FileStaffDirectory, readStaffFile, writeStaffFile, MAX_LOCAL_STAFF, type StaffFile, type StaffUser } from './staff-file.js';
// The Cognito adapter and staffDirectoryFromEnv (which loads the Cognito SDK) are imported by
// path, by the staff function and the CLI only, so that no other function's bundle carries the SDK.
