/**
 * Money is held as integer cents (a JS number: the largest order, 100 items of 1,000,000.00,
 * is 1e10 cents, far below 2^53). Rates are held as integer parts per million. No binary
 * floating point ever touches an amount.
 */
export type Cents = number;
/** A premium rate in parts per million: 0.085 → 85_000. */
export type RatePpm = number;

const MAX_COST_CENTS: Cents = 100_000_000; // 1,000,000.00
const AMOUNT = /^(0|[1-9]\d{0,8})(?:\.(\d{1,2}))?$/;
const RATE = /^0?\.(\d{1,6})$|^1(?:\.0{1,6})?$/;

/** Parses "10", "10.5", "10.50" into cents; undefined when the text is not such an amount (at most an item's 1,000,000.00). */
export const parseCents = (text: string): Cents | undefined => parseAmount(text, MAX_COST_CENTS);

/** As parseCents, up to `max` cents. */
export function parseAmount(text: string, max: Cents): Cents | undefined {
  const match = AMOUNT.exec(text);
  if (!match) return undefined;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return cents <= max ? cents : undefined;
}

/** The most an order's items can cost together (100 items of 1,000,000.00): a claim's coverage is at most this. */
export const MAX_ORDER_CENTS: Cents = 100 * MAX_COST_CENTS;

/** 1234 → "12.34"; always two fraction digits. */
export function formatCents(cents: Cents): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * Reads back what formatCents wrote for a non-negative amount of any size ("8160000.00", a
 * premium total past the per-item cost limit); undefined for any other spelling.
 */
export function parseFormattedCents(text: string): Cents | undefined {
  const match = /^(0|[1-9]\d{0,12})\.(\d{2})$/.exec(text);
  return match ? Number(match[1]) * 100 + Number(match[2]) : undefined;
}

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

/** premium = cost × rate, rounded half-up to the cent, in exact integer arithmetic. */
export function premiumFor(cost: Cents, rate: RatePpm): Cents {
  const scaled = BigInt(cost) * BigInt(rate);
  return Number((scaled + 500_000n) / 1_000_000n);
}

export function sumCents(amounts: readonly Cents[]): Cents {
  return amounts.reduce((total, amount) => total + amount, 0);
}

export const DEFAULT_RATE_PPM: RatePpm = 85_000;
