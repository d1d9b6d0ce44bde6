import { MAX_ORDER_ITEMS } from '../limits.js';
import { MINOR_UNITS } from './currencies.generated.js';
import { USD_RATES, USD_RATES_AS_OF, USD_RATES_SOURCE } from './usd-rates.generated.js';

/**
 * The most one item may cost, per currency, in its minor unit: about USD 1,000,000 worth in every
 * accepted currency (docs/api.md § Money), derived from one dated table of what a US dollar bought
 * (usd-rates.generated.ts) and rounded to two significant figures. The contract's own rows are kept
 * as it wrote them. A test checks every accepted currency's limit is worth USD 0.5M–2M by that table.
 * Taking a newer table changes limits: a lower one refuses carts that passed before (a CHANGELOG line).
 */
export const ITEM_LIMIT_USD = 1_000_000n;
export const ITEM_LIMITS_AS_OF = USD_RATES_AS_OF;
export const ITEM_LIMITS_SOURCE = USD_RATES_SOURCE;

/** The contract's rows (its table of 2026-11-25), each within the band by the rates above. */
const CONTRACT_ITEM_COST: Readonly<Record<string, bigint>> = {
  USD: 100_000_000n, //       1,000,000.00
  EUR: 100_000_000n, //       1,000,000.00
  JPY: 150_000_000n, //     150,000,000
  KRW: 1_400_000_000n, // 1,400,000,000
  IDR: 1_600_000_000_000n, // 16,000,000,000.00
  KWD: 310_000_000n, //         310,000.000
};

/**
 * ISO 4217's fund codes, which no market quotes: each counts a number of units of a quoted currency.
 * Fixed ones by definition (USN, BOV, CHE, CHW); the indexed units by their issuer's published value
 * near the table's date, to two or three figures (they move a few percent a year, the band allows ×2).
 */
export const FUND_UNITS: Readonly<Record<string, { of: string; units: string; what: string }>> = {
  USN: { of: 'USD', units: '1', what: 'US dollar, next-day funds' },
  BOV: { of: 'USD', units: '1', what: 'Mvdol: the bolivianos one US dollar buys' },
  CHE: { of: 'EUR', units: '1', what: 'WIR euro, 1:1 with the euro' },
  CHW: { of: 'CHF', units: '1', what: 'WIR franc, 1:1 with the Swiss franc' },
  CLF: { of: 'CLP', units: '39700', what: 'Unidad de Fomento (Banco Central de Chile): CLP 39,643 in November 2025, 39,763 in January 2026' },
  COU: { of: 'COP', units: '390', what: 'Unidad de Valor Real (Banco de la República): COP 288.6 at the end of 2021, since raised by the CPI' },
  UYI: { of: 'UYU', units: '6.45', what: 'Unidad Indexada (INE Uruguay): UYU 6.42 in December 2025, 6.48 in March 2026' },
  UYW: { of: 'UYU', units: '1.8', what: 'Unidad Previsional (INE Uruguay): UYU 1.00 in April 2018, since raised by the wage index' },
};

/** A positive decimal string as a fraction n/d. */
function fraction(text: string): { n: bigint; d: bigint } {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new Error(`not a rate: ${text}`);
  const fractionDigits = match[2] ?? '';
  return { n: BigInt(match[1]! + fractionDigits), d: 10n ** BigInt(fractionDigits.length) };
}

/** Units of `currency` one US dollar bought on ITEM_LIMITS_AS_OF, as an exact fraction; undefined for a currency the table lacks. */
export function usdRate(currency: string): { n: bigint; d: bigint } | undefined {
  if (Object.hasOwn(USD_RATES, currency)) return fraction(USD_RATES[currency]!);
  if (!Object.hasOwn(FUND_UNITS, currency)) return undefined;
  const fund = FUND_UNITS[currency]!;
  const base = fraction(USD_RATES[fund.of]!);
  const units = fraction(fund.units);
  return { n: base.n * units.d, d: base.d * units.n };
}

/**
 * The highest per-item limit, so that an order (MAX_ORDER_ITEMS at the limit) stays a safe integer
 * of minor units: only IRR reaches it (USD 1,000,000 is 1.4e14 of its minor units), where it is worth
 * about USD 650,000.
 */
export const MAX_ITEM_MINOR = 90_000_000_000_000n;
if (MAX_ITEM_MINOR * BigInt(MAX_ORDER_ITEMS) > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error('MAX_ITEM_MINOR × MAX_ORDER_ITEMS must be a safe integer');

/**
 * x ÷ y rounded half-up to two significant figures (1,374,999.6 → 1,400,000), by multiplying and
 * comparing only (no division: the money lint's rule): the figure is a × 10^e with a in 10–99.
 */
function twoFigureQuotient(x: bigint, y: bigint): bigint {
  if (10n * y > x) throw new Error('a limit under 10 minor units');
  let power = 1n;
  for (let i = 0; i < 60 && 100n * power * y <= x; i++) power *= 10n;
  let a = 10n;
  for (let i = 0; i < 90 && (a + 1n) * power * y <= x; i++) a += 1n;
  // Half-up: the next figure when x / y ≥ (a + 0.5) × 10^e.
  return ((2n * a + 1n) * power * y <= 2n * x ? a + 1n : a) * power;
}

/** USD 1,000,000 in the currency's minor units by the table, two significant figures, at most MAX_ITEM_MINOR. */
function derivedItemCost(currency: string, digits: number): bigint {
  const rate = usdRate(currency);
  if (!rate) throw new Error(`${currency} is accepted but has no row in the USD rate table (usd-rates.generated.ts or FUND_UNITS)`);
  const rounded = twoFigureQuotient(ITEM_LIMIT_USD * 10n ** BigInt(digits) * rate.n, rate.d);
  return rounded < MAX_ITEM_MINOR ? rounded : MAX_ITEM_MINOR;
}

/** Currency → the most one item may cost, in minor units, for every accepted currency. */
export const MAX_ITEM_COST: Readonly<Record<string, number>> = Object.fromEntries(
  Object.entries(MINOR_UNITS).map(([currency, digits]) => [currency, Number(CONTRACT_ITEM_COST[currency] ?? derivedItemCost(currency, digits))]),
);
