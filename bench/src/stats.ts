/** Median, min and max of a set of samples. */
export interface Summary {
  runs: number;
  median: number;
  min: number;
  max: number;
}

/** Summarises samples; `undefined` when there are none. */
export function summarize(samples: readonly number[]): Summary | undefined {
  if (samples.length === 0) return undefined;
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { runs: sorted.length, median, min: sorted[0]!, max: sorted[sorted.length - 1]! };
}

/** `a / b` of two medians; `undefined` when either is missing or `b` is 0. */
export function ratio(a: Summary | undefined, b: Summary | undefined): number | undefined {
  if (!a || !b || b.median === 0) return undefined;
  return a.median / b.median;
}
