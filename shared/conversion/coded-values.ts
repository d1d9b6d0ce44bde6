import { SUBDIVISIONS_BY_COUNTRY } from './region-codes.generated.js';

/**
 * The metrics table holds coded values only: a value is kept when it is a code from a closed list
 * and becomes null (or `other`) otherwise, so a name, an address or a card number typed into the
 * wrong field never reaches it.
 */

/** ISO 3166-1 alpha-2, upper-cased: `us` → `US`; anything else → null. */
export function countryCode(value: string | undefined): string | null {
  const code = value?.trim().toUpperCase();
  return code && /^[A-Z]{2}$/.test(code) && Object.hasOwn(SUBDIVISIONS_BY_COUNTRY, code) ? code : null;
}

/**
 * ISO 3166-2 in full form, of the given country: `OR` or `us-or` with country `US` → `US-OR`.
 * Null without a valid country, or for a subdivision of another country.
 */
export function subdivisionCode(value: string | undefined, country: string | null): string | null {
  const code = value?.trim().toUpperCase();
  if (!code || !country) return null;
  const match = /^(?:([A-Z]{2})-)?([A-Z0-9]{1,3})$/.exec(code);
  if (!match || (match[1] !== undefined && match[1] !== country)) return null;
  const suffix = match[2]!;
  return ` ${SUBDIVISIONS_BY_COUNTRY[country] ?? ''} `.includes(` ${suffix} `) ? `${country}-${suffix}` : null;
}

/** Kinds of payment method, as merchants name them. */
export const PAYMENT_TYPES = [
  'card',
  'credit_card',
  'debit_card',
  'prepaid_card',
  'gift_card',
  'store_credit',
  'invoice',
  'bank_transfer',
  'ach_debit',
  'sepa_debit',
  'bacs_debit',
  'direct_debit',
  'paypal',
  'apple_pay',
  'google_pay',
  'amazon_pay',
  'shop_pay',
  'samsung_pay',
  'venmo',
  'alipay',
  'wechat_pay',
  'wallet',
  'klarna',
  'afterpay',
  'affirm',
  'buy_now_pay_later',
  'ideal',
  'bancontact',
  'sofort',
  'giropay',
  'eps',
  'przelewy24',
  'blik',
  'pix',
  'boleto',
  'upi',
  'cash',
  'cash_on_delivery',
  'check',
  'crypto',
] as const;
export type PaymentType = (typeof PAYMENT_TYPES)[number];
const KNOWN_PAYMENT_TYPES: ReadonlySet<string> = new Set(PAYMENT_TYPES);
const isPaymentType = (type: string): type is PaymentType => KNOWN_PAYMENT_TYPES.has(type);

/** A listed payment type (case-insensitive, trimmed), `other` for any other given value, null when none is given. */
export function paymentTypeCode(value: string | undefined): PaymentType | 'other' | null {
  const type = value?.trim().toLowerCase();
  if (!type) return null;
  return isPaymentType(type) ? type : 'other';
}
