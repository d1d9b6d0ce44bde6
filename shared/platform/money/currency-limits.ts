/**
 * The most one item may cost, per currency, in its minor unit: about USD 1,000,000 worth. The rows
 * are the API contract's (docs/api.md § Money), set on the date below from the month's reference
 * rates and rounded to a round figure; a currency without a row allows 1,000,000 of its major unit.
 * To add a row: the amount in minor units, a test in money.test.ts, and a CHANGELOG line: a lower
 * figure refuses carts that passed before.
 */
export const ITEM_LIMITS_AS_OF = '2026-11-25';
/** Currency → the most one item may cost, in minor units. */
export const MAX_ITEM_COST: Readonly<Record<string, number>> = {
  USD: 100_000_000, //       1,000,000.00
  EUR: 100_000_000, //       1,000,000.00
  JPY: 150_000_000, //     150,000,000
  KRW: 1_400_000_000, // 1,400,000,000
  IDR: 1_600_000_000_000, // 16,000,000,000.00
  KWD: 310_000_000, //         310,000.000
};
