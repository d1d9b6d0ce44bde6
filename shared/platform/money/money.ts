import { ValidationError } from '../errors.js';
import { MINOR_UNITS } from './currencies.generated.js';
import { MAX_ITEM_COST } from './currency-limits.js';

/**
 * Money is an integer count of its currency's minor unit (yen, cents, fils) beside the currency,
 * never a float: the largest order, 100 items at the highest limit (MAX_ITEM_MINOR: IRR
 * 900,000,000,000.00), is 9e15 minor units, below 2^53. The minor unit is ISO 4217's (currencies.generated.ts).
 * Rates are integer parts per million. Amounts become text only at the edge, with exactly the
 * currency's digits.
 */
export type Minor = number;
/** A premium rate in parts per million: 0.085 → 85_000. */
export type RatePpm = number;

/** The currency's minor unit (fraction digits), or undefined when ISO 4217 gives it none (XAU, XDR, XXX) or does not know it. */
export const minorUnit = (currency: string): number | undefined => (Object.hasOwn(MINOR_UNITS, currency) ? MINOR_UNITS[currency] : undefined);

/**
 * The digits amounts in this currency are kept and written with: ISO 4217's minor unit. A code
 * without one (HRK, SLL, ZWL, XDR…: the API took any code JavaScript's Intl knew before issue 27)
 * can only be in a record written before; its amounts keep the two digits they were written with,
 * so such an order still reads, lists, changes and settles as it did. New requests refuse the code.
 */
const digitsOf = (currency: string): number => minorUnit(currency) ?? 2;
const TEN = (power: number): bigint => 10n ** BigInt(power);

/**
 * The most one item may cost in this currency: about USD 1,000,000 worth (currency-limits.ts). A code
 * the API no longer accepts (HRK…: only in records written before) keeps 1,000,000 of its major unit.
 */
export const maxItemCost = (currency: string): Minor =>
  Object.hasOwn(MAX_ITEM_COST, currency) ? MAX_ITEM_COST[currency]! : Number(1_000_000n * TEN(digitsOf(currency)));

/** The most an order's items can cost together (100 items at the item limit): a claim's coverage, and an approval, are at most this. */
export const maxOrderAmount = (currency: string): Minor => 100 * maxItemCost(currency);

/** "has no fraction digits" / "has 3 fraction digits": how a message names the currency's minor unit. */
export function describeMinorUnit(currency: string): string {
  const digits = digitsOf(currency);
  return `${currency} has ${digits === 0 ? 'no' : digits} fraction digit${digits === 1 ? '' : 's'} (its ISO 4217 minor unit)`;
}

const DECIMAL = /^(0|[1-9]\d*)(?:\.(\d+))?$/;

/**
 * Reads a request's amount ("1500", "1500.00" in JPY; "12.345" in KWD) into minor units, or says
 * what is wrong in words a message can carry. Fraction digits past the minor unit are accepted only
 * when they are zeros.
 */
export function parseMoney(text: string, currency: string, max: Minor): { minor: Minor } | { problem: string; overMax?: true } {
  const digits = digitsOf(currency);
  const match = DECIMAL.exec(text);
  if (!match || text.length > 40) return { problem: `must be a decimal string such as "${formatMoney(120 * Number(TEN(digits)), currency)}"` };
  const fraction = match[2] ?? '';
  if (/[1-9]/.test(fraction.slice(digits))) {
    return { problem: `must have at most ${digits} fraction digit${digits === 1 ? '' : 's'}: ${describeMinorUnit(currency)}` };
  }
  const minor = BigInt(match[1]!) * TEN(digits) + BigInt(fraction.slice(0, digits).padEnd(digits, '0') || '0');
  if (minor > BigInt(max)) return { problem: `must be at most ${formatMoney(max, currency)} ${currency}`, overMax: true };
  return { minor: Number(minor) };
}

/** parseMoney for a use case that learns the currency from what it read (a PATCH from its order, an approval from its claim): a 422 naming `param`. */
export function amountOrRefuse(text: string, currency: string, max: Minor, param: string): Minor {
  const parsed = parseMoney(text, currency, max);
  if ('problem' in parsed) throw new ValidationError(`${param}: ${parsed.problem}`, param);
  return parsed.minor;
}

/** 150000 JPY → "150000"; 12345 KWD → "12.345"; 1234 USD → "12.34": always exactly the currency's digits. */
export function formatMoney(minor: Minor | bigint, currency: string): string {
  if (typeof minor === 'number' && !Number.isSafeInteger(minor)) throw new Error(`not an amount in minor units: ${minor}`);
  const digits = digitsOf(currency);
  const sign = minor < 0 ? '-' : '';
  const text = String(minor < 0 ? -minor : minor).padStart(digits + 1, '0');
  return digits === 0 ? `${sign}${text}` : `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/** What formatMoney writes with `digits` fraction digits, as a pattern made once per number of digits. */
const writtenAmounts = new Map<number, RegExp>();
function writtenAmount(digits: number): RegExp {
  let pattern = writtenAmounts.get(digits);
  if (!pattern) {
    pattern = digits === 0 ? /^(0|[1-9]\d{0,15})$/ : new RegExp(`^(0|[1-9]\\d{0,15})\\.(\\d{${digits}})$`);
    writtenAmounts.set(digits, pattern);
  }
  return pattern;
}

/**
 * Reads back what formatMoney wrote for a non-negative amount of any size (a premium total sealed
 * in a quote token, past the per-item limit); undefined for any other spelling.
 */
export function readMoney(text: string, currency: string): Minor | undefined {
  const digits = minorUnit(currency);
  if (digits === undefined) return undefined;
  const match = writtenAmount(digits).exec(text);
  if (!match) return undefined;
  const minor = BigInt(match[1]!) * TEN(digits) + BigInt(match[2] ?? '0');
  return minor <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(minor) : undefined;
}

/**
 * An amount stored before amounts were kept in minor units: it counted hundredths whatever the
 * currency. Three-digit currencies scale up exactly (12.34 KWD: 1234 → 12340); zero-digit ones are
 * rounded half away from zero to the whole unit (104.94 JPY → 105, -0.50 → -1).
 */
export function fromHundredths(hundredths: number, currency: string): Minor {
  const digits = digitsOf(currency);
  if (digits >= 2) return hundredths * Number(TEN(digits - 2));
  const magnitude = BigInt(Math.abs(hundredths));
  const rounded = Number(digits === 0 ? (magnitude + 50n) / 100n : (magnitude + 5n) / 10n);
  return hundredths < 0 ? -rounded : rounded;
}

const RATE = /^0?\.(\d{1,6})$|^1(?:\.0{1,6})?$/;

/** Parses a rate such as "0.085" (0 < rate ≤ 1, at most 6 fraction digits) into ppm. */
export function parseRate(text: string): RatePpm | undefined {
  const match = RATE.exec(text);
  if (!match) return undefined;
  const ppm = match[1] === undefined ? 1_000_000 : Number(match[1].padEnd(6, '0'));
  return ppm > 0 ? ppm : undefined;
}

/** 85_000 → "0.085". */
export function formatRate(ppm: RatePpm): string {
  if (ppm === 1_000_000) return '1';
  return `0.${String(ppm).padStart(6, '0').replace(/0+$/, '')}`;
}

/** premium = cost × rate, rounded half-up at the currency's minor unit (both in minor units), in exact integer arithmetic. */
export function premiumFor(cost: Minor, rate: RatePpm): Minor {
  const scaled = BigInt(cost) * BigInt(rate);
  return Number((scaled + 500_000n) / 1_000_000n);
}

export function sumMinor(amounts: readonly Minor[]): Minor {
  return amounts.reduce((total, amount) => total + amount, 0);
}

export const DEFAULT_RATE_PPM: RatePpm = 85_000;

/**
 * Records that hold amounts carry `minor_units: true` once their amounts count their currency's
 * minor unit; a record without it was written before, when every amount counted hundredths
 * (`npm run migrate` rewrites those; until then reads convert them with fromHundredths). Whoever
 * writes a record's amounts writes the mark with them, so a record is never half in one unit.
 */
export const MINOR_UNITS_MARK = { minor_units: true } as const;
export const inMinorUnits = (record: object): boolean => (record as { minor_units?: unknown }).minor_units === true;
