/**
 * Orders: checkout (protected orders), upgrade/downgrade/exchange, cancel and void, and the order
 * and policy lists. Claims read orders and lock their policies; webhooks announce their changes.
 */
export { isCurrent, refuseIfClaimed } from './order.js';
export { headerInMinorUnits, itemInMinorUnits } from './stored-amounts.js';
export type { Order, OrderItem, Policy, PolicyEvent, PolicyStatus } from './order.js';
export type { FoundPolicy, ItemsWanted, OrderExcerpt, OrderExcerpts, OrderReader, OrderStore } from './ports.js';
