/**
 * Claims: a customer asks for the refund a policy promised (claim sessions and tokens, filing,
 * withdrawal, answers), the operator decides and records the payout. Webhooks announce a claim's
 * moves from its record.
 */
export { claimInMinorUnits, eraseAt } from './claim.js';
export type { Claim, ClaimStatus } from './claim.js';
