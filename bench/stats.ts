/** Order statistics of the bench's samples and paired ratios. */

/** The q-quantile (0 ≤ q ≤ 1), linearly interpolated between the two nearest samples. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) throw new Error('quantile of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const below = sorted[Math.floor(position)]!;
  const above = sorted[Math.ceil(position)]!;
  return below + (above - below) * (position - Math.floor(position));
}

export const median = (values: readonly number[]): number => quantile(values, 0.5);

/** "IQR 0.98–1.10": the middle half of the paired ratios. */
export const interquartileRange = (ratios: readonly number[]): string => `IQR ${quantile(ratios, 0.25).toFixed(2)}–${quantile(ratios, 0.75).toFixed(2)}`;

/** "0.91–1.06": every paired ratio lies in it. */
export const fullRange = (ratios: readonly number[]): string => `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;
