/**
 * Conversion: the sanitized checkout record kept of every checkout (opt-in and opt-out alike),
 * the day counts kept from it and the conversion report. A protected order writes its checkout
 * record in its own transaction (`checkoutAction`); an opt-out is logged through `MetricsStore`.
 */
export { sanitizeCheckout } from './checkout-record.js';
export type { CheckoutRecord } from './checkout-record.js';
export { checkoutAction } from './dynamo-metrics-store.js';
export type { DayCount } from './conversion.js';
export type { DayCountStore, MetricsStore } from './ports.js';
