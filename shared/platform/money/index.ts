/** Money in every currency's minor unit (ISO 4217), rates in parts per million, the per-currency limits. */
export {
  amountOrRefuse,
  DEFAULT_RATE_PPM,
  describeMinorUnit,
  formatMoney,
  formatRate,
  fromHundredths,
  maxItemCost,
  inMinorUnits,
  maxOrderAmount,
  MINOR_UNITS_MARK,
  minorUnit,
  parseMoney,
  parseRate,
  premiumFor,
  readMoney,
  sumMinor,
  type Minor,
  type RatePpm,
} from './money.js';
export { ISO_4217_PUBLISHED } from './currencies.generated.js';
export { ITEM_LIMITS_AS_OF, ITEM_LIMITS_SOURCE, MAX_ITEM_COST } from './currency-limits.js';
