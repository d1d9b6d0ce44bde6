/** One day's checkouts of a client: how many opted in, how many out. */
export interface DayCount {
  day: string;
  opt_in: number;
  opt_out: number;
}

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

/**
 * A checkout as the metrics table's stream delivers it to the day counts: its client, its day,
 * its choice, and its place in the stream shard (`position`: the sequence number, padded so that
 * text order is number order).
 */
export interface StreamedCheckout {
  client_id: string;
  day: string;
  opt_in: boolean;
  position: string;
}

/** The day count a batch adds to: one per (client, day) in it. */
export interface DayCountBatch {
  client_id: string;
  day: string;
  checkouts: StreamedCheckout[];
}

/** Stream sequence numbers are decimal strings of up to 40 digits; padded, they compare as text. */
export const streamPosition = (sequenceNumber: string): string => sequenceNumber.padStart(40, '0');

/** A batch of streamed checkouts grouped by the day count each adds to, in stream order. */
export function groupByDay(checkouts: readonly StreamedCheckout[]): DayCountBatch[] {
  const groups = new Map<string, DayCountBatch>();
  for (const checkout of checkouts) {
    const key = `${checkout.client_id}|${checkout.day}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { client_id: checkout.client_id, day: checkout.day, checkouts: [] }));
    group.checkouts.push(checkout);
  }
  for (const group of groups.values()) group.checkouts.sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
  return [...groups.values()];
}

/**
 * What a day count gains from checkouts of one stream shard, given the last position of that
 * shard it already counted: only checkouts after it count, so a batch delivered twice (Lambda
 * delivers at least once) or partly again adds nothing twice. `last` is the new watermark.
 */
export function countAfter(checkouts: readonly StreamedCheckout[], counted?: string): { opt_in: number; opt_out: number; last?: string } {
  let optIn = 0;
  let optOut = 0;
  let last = counted;
  for (const checkout of checkouts) {
    if (counted !== undefined && checkout.position <= counted) continue;
    if (checkout.opt_in) optIn++;
    else optOut++;
    if (last === undefined || checkout.position > last) last = checkout.position;
  }
  return { opt_in: optIn, opt_out: optOut, ...(last !== undefined ? { last } : {}) };
}
