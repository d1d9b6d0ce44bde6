/**
 * Size limits, in one place, so that everything the API issues it also accepts back.
 *
 * A checkout (a quote, and the opt-in or opt-out order that redeems it) holds at most
 * MAX_CHECKOUT_ITEMS items: an opt-in order is created in one DynamoDB transaction of at most 100
 * actions, and four of them are kept for the order header, the checkout record, the Idempotency-Key
 * receipt and the order's webhook event (the outbox item of the webhooks issue; the day's counter
 * that held this place now follows from the metrics stream). Changes may then grow an order to
 * MAX_ORDER_ITEMS over its life.
 */
export const MAX_CHECKOUT_ITEMS = 96;
export const MAX_ORDER_ITEMS = 100;
export const MAX_CHANGES = 25;
