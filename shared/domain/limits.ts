/**
 * Size limits, in one place, so that everything the API issues it also accepts back.
 *
 * A checkout (a quote, and the opt-in or opt-out order that redeems it) holds at most
 * MAX_CHECKOUT_ITEMS items: an opt-in order is created in one DynamoDB transaction of at most 100
 * actions, and four of them are taken by the order header, the checkout record, the day's counter
 * and the Idempotency-Key receipt. Changes may then grow an order to MAX_ORDER_ITEMS over its life.
 */
export const MAX_CHECKOUT_ITEMS = 96;
export const MAX_ORDER_ITEMS = 100;
export const MAX_CHANGES = 25;
