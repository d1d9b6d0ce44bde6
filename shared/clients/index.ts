/**
 * Clients: the merchants using the API — their keys, access tokens, sign-in lockout, the terms
 * version in force on their records (the versions themselves are shared/terms'), and the
 * operator's CLI use cases. Other features read a client's terms in force through `ClientStore`.
 */
export { DEFAULT_LOOK_PERIOD_DAYS, MAX_LOOK_PERIOD_DAYS, termsInForce, voidWindowEnd } from './client.js';
export type { Client, ClientCredentials, ClientLabel, ClientNames, ClientStore } from './client.js';
export { sealedTerms, type SealedTermsDeps } from './sealed-terms.js';
export { keyModeOf, requireTestClient } from './test-mode.js';
export { listClients, type ClientListDeps } from './list-clients.js';
export { clientSummaryView } from './client-view.js';
export type { ClientRegister, ClientSummary, Suspension } from './client.js';
export { MAX_SUSPENSION_REASON_LENGTH, resumeClient, standingView, suspendClient, type ClientStanding, type SuspendClientsDeps } from './suspend-clients.js';
