import { fromHundredths, inMinorUnits } from '../platform/money/index.js';
import type { Order, OrderItem } from './order.js';

/**
 * An order's records as the service reads them, their amounts in minor units. Records written
 * before amounts had their currency's digits (no `minor_units` mark) counted hundredths: a KWD
 * amount scales up exactly, a JPY one rounds half away from zero to the yen, and a replacement's
 * premium_delta is re-derived from the two rounded premiums, so delta = new − old still holds.
 * `npm run migrate` stores exactly what these return.
 */
export function headerInMinorUnits<T extends Pick<Order, 'currency' | 'subtotal'>>(header: T): T {
  return inMinorUnits(header) ? header : { ...header, subtotal: fromHundredths(header.subtotal, header.currency) };
}

export function itemInMinorUnits<T extends OrderItem>(item: T, currency: string): T {
  if (inMinorUnits(item)) return item;
  const minor = (hundredths: number) => fromHundredths(hundredths, currency);
  const { policy } = item;
  const premium = minor(policy.premium);
  return {
    ...item,
    cost: minor(item.cost),
    policy: {
      ...policy,
      premium,
      coverage_amount: minor(policy.coverage_amount),
      ...(policy.premium_delta === undefined ? {} : { premium_delta: premium - minor(policy.premium - policy.premium_delta) }),
      ...(policy.refund_due === undefined ? {} : { refund_due: minor(policy.refund_due) }),
    },
  };
}
