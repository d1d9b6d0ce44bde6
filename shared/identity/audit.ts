import { prefixedId } from '../platform/ids.js';
import type { StaffIdentity } from '../platform/staff.js';

/** The staff actions the audit log records (api.md: decision, payout, export, terms, remittance, suspension, clients, and a customer's file opened). */
export const AUDIT_ACTIONS = [
  'claim.decided',
  'claim.paid',
  'bordereau.exported',
  'client.created',
  'client.disabled',
  'staff.created',
  'terms.published',
  'remittance.recorded',
  'remittance.reversed',
  'client.suspended',
  'client.resumed',
  'evidence.opened',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** One staff action: who (subject and e-mail, never a token), what, on what, when. */
export interface AuditRecord {
  audit_id: string;
  at: string;
  actor: { sub: string; email: string | null };
  action: AuditAction;
  /** What the action changed: its kind and id (a claim, an export, a client), and the decision where there is one. */
  target: { type: 'claim' | 'bordereau' | 'client' | 'staff'; id: string; detail?: string };
}

/** The audit record of an action, written by the store in the same transaction as the change it records. */
export function auditRecordOf(actor: StaffIdentity, action: AuditAction, target: AuditRecord['target'], now: Date, newId: () => string): AuditRecord {
  return { audit_id: newId(), at: now.toISOString(), actor: { sub: actor.sub, email: actor.email ?? null }, action, target };
}

/** An audit record's id. */
export const newAuditId = (): string => prefixedId('aud');

/** A page of the log, newest first. */
export const AUDIT_PAGE_SIZE = 50;
