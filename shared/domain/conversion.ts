import type { DayCount } from './ports.js';

/** Share of checkouts that chose protection, as a 4-digit decimal string; null with no checkouts. */
function conversionRate(optIn: number, optOut: number): string | null {
  const total = optIn + optOut;
  if (total === 0) return null;
  // Integer arithmetic, rounded half-up to 4 digits.
  const scaled = Math.floor((optIn * 20_000 + total) / (2 * total));
  return `${Math.trunc(scaled / 10_000)}.${String(scaled % 10_000).padStart(4, '0')}`;
}

/** Every day of the range, days without checkouts included, and the totals. */
export function conversionReport(from: string, to: string, counts: readonly DayCount[]) {
  const byDay = new Map(counts.map((count) => [count.day, count]));
  const days = [];
  for (let day = new Date(`${from}T00:00:00Z`); day <= new Date(`${to}T00:00:00Z`); day.setUTCDate(day.getUTCDate() + 1)) {
    const date = day.toISOString().slice(0, 10);
    const { opt_in = 0, opt_out = 0 } = byDay.get(date) ?? {};
    days.push({ date, opt_in, opt_out, conversion_rate: conversionRate(opt_in, opt_out) });
  }
  const optIn = days.reduce((sum, day) => sum + day.opt_in, 0);
  const optOut = days.reduce((sum, day) => sum + day.opt_out, 0);
  return { from, to, days, totals: { opt_in: optIn, opt_out: optOut, conversion_rate: conversionRate(optIn, optOut) } };
}
